//! Prepared SELECTs of one partition, compiled once.
//!
//! Most statements an application prepares read one partition by its key:
//! every partition key column `= ?`, a prefix of the clustering columns
//! `= ?`, perhaps a slice of the next one, and plain columns selected. The
//! general path redoes, on every execution, work that depends only on the
//! statement: resolving its columns, evaluating its WHERE clause into
//! predicates, compiling its selection, combining key values. A
//! [`CompiledSelect`] does that work once, when the statement's plan is
//! made, and each execution only conforms its bind values, finds the
//! partition and reads its rows — with the same storage calls, liveness
//! rules and warnings as [`super::select`].
//!
//! Execution declines (returns `None`) whenever an execution is out of the
//! ordinary — a null or mistyped bind value, a key Cassandra refuses, a
//! LIMIT that is not a positive int — and the caller then runs the general
//! path, which gives Cassandra's answer or error. So a compiled statement
//! answers exactly as the general path would, or not at all.

use std::borrow::Cow;
use std::sync::Arc;

use smallvec::SmallVec;

use crate::planner::{Direction, Plan, PlanContext, QueryClass};
use crate::schema::{Column, ColumnKind, Table};
use crate::storage::{
    bounds_ordered, ClusteringKey, KeyValues, Partition, PositionRef, Store, StoredKey, StoredRow,
    TableData, TableHint,
};
use crate::syntax::ast::{Operator, RelationKind, Select, Term, TermKind};
use crate::types::Value;

use super::bind::{self, Binds};
use super::restrict::{self, Predicate};
use super::result::{ColumnSpec, Columns, Metrics, ResultKind, ResultSet};
use super::rows::Rows;
use super::selector::{self, Sel};
use super::view::RowView;
use super::{each_or_none, FunctionContext};

/// A SELECT of one partition with its work that depends only on the
/// statement done: what [`CompiledSelect::run`] needs from each execution is
/// the bind values.
#[derive(Debug)]
pub(crate) struct CompiledSelect {
    keyspace: String,
    table: String,
    /// `keyspace.table`, as the store keys the table's data.
    qualified: String,
    /// Where the table was in the catalog it was compiled against, and
    /// where its data was last found in the store.
    place: (usize, usize),
    data_hint: TableHint,
    markers: usize,
    /// The bind value of each partition key column, in key order.
    partition_key: Vec<KeyPart>,
    /// The bind value of each clustering column pinned by `=`, in
    /// clustering order: a prefix of the clustering key.
    clustering: Vec<KeyPart>,
    /// `>`, `>=`, `<`, `<=` on the clustering column after the prefix.
    slice: Vec<SlicePart>,
    /// Whether the prefix is the whole clustering key: one row at most.
    full_key: bool,
    /// Which clustering columns are DESC.
    descending: u32,
    /// The index in the table's columns of each selected column.
    outputs: Vec<usize>,
    /// Each selected column's storage slot (`None` for key columns). The
    /// table's slots change only with its schema, which takes the plan
    /// context a new stamp and so compiles the statement again.
    slots: Vec<Option<usize>>,
    /// Where each selected column's value is found in a row.
    sources: Vec<Source>,
    /// The result's header, made by the general path's selection compiler.
    columns: Columns,
    limit: Option<Limit>,
}

/// A key column and the bind value that pins it.
#[derive(Debug, Clone, Copy)]
struct KeyPart {
    /// The column's index in the table's columns.
    column: usize,
    /// The bind value's index.
    bind: usize,
}

/// One bound of a clustering slice.
#[derive(Debug, Clone, Copy)]
struct SlicePart {
    part: KeyPart,
    op: Operator,
}

/// Where the LIMIT comes from.
#[derive(Debug, Clone, Copy)]
enum Limit {
    Fixed(u64),
    Bind(usize),
}

/// Compiles `select`, planned as `plan`, if it has the shape this module
/// serves; `offsets` are the byte offsets of its markers (see
/// [`bind::marker_offsets`]).
pub(crate) fn compile_select(
    ctx: &PlanContext,
    store: &Store,
    select: &Select,
    plan: &Plan,
    offsets: &[usize],
) -> Option<CompiledSelect> {
    let served = matches!(
        plan.class,
        QueryClass::PointLookup | QueryClass::PartitionScan
    ) && plan.filters.is_empty()
        && plan.index.is_none()
        && !select.json
        && !select.distinct
        && select.group_by.is_empty()
        && select.per_partition_limit.is_none();
    if !served {
        return None;
    }
    let table = ctx
        .catalog
        .resolve_table(ctx.keyspace.as_deref(), &select.from)
        .ok()?;
    if table.columns.values().any(Column::is_static) {
        // A partition with only static values reads as one row: the
        // general path's business.
        return None;
    }
    let (outputs, columns) = compile_outputs(table, select)?;
    let (partition_key, clustering, slice) = compile_where(table, select, offsets)?;
    let full_key = clustering.len() == table.clustering_columns().count();
    let limit = match &select.limit {
        None => None,
        Some(term) => Some(compile_limit(term, offsets)?),
    };
    let data = store.table_in(&table.keyspace, &table.name);
    let slots: Vec<Option<usize>> = outputs
        .iter()
        .map(|&i| data.and_then(|d| d.slot(&table.columns[i].name)))
        .collect();
    let sources = outputs
        .iter()
        .zip(&slots)
        .map(|(&i, &slot)| Source::of(table.columns[i].kind, slot))
        .collect();
    Some(CompiledSelect {
        keyspace: table.keyspace.clone(),
        table: table.name.clone(),
        qualified: table.qualified_name(),
        place: ctx.catalog.table_place(&table.keyspace, &table.name)?,
        data_hint: TableHint::default(),
        markers: offsets.len(),
        partition_key,
        clustering,
        slice,
        full_key,
        descending: restrict::descending_mask(table),
        outputs,
        slots,
        sources,
        columns: columns.into(),
        limit,
    })
}

/// The selected columns and the result header, when every selector is a
/// plain column.
fn compile_outputs(table: &Table, select: &Select) -> Option<(Vec<usize>, Vec<ColumnSpec>)> {
    let (mut next_timeuuid, mut next_uuid) = (|| [0u8; 16], || [0u8; 16]);
    let mut fcx = FunctionContext {
        now_micros: 0,
        next_timeuuid: &mut next_timeuuid,
        next_uuid: &mut next_uuid,
    };
    let projection = selector::compile(table, &select.selection, &Binds::none(), &mut fcx).ok()?;
    let outputs = projection
        .items
        .iter()
        .map(|item| match item {
            Sel::Column(c) => table.columns.get_index_of(&c.name),
            _ => None,
        })
        .collect::<Option<Vec<usize>>>()?;
    Some((outputs, projection.columns))
}

type KeyRestrictions = (Vec<KeyPart>, Vec<KeyPart>, Vec<SlicePart>);

/// The WHERE clause as key parts, when it pins the whole partition key and
/// a clustering prefix by `= ?`, and slices at most the next clustering
/// column by markers, with nothing else.
fn compile_where(table: &Table, select: &Select, offsets: &[usize]) -> Option<KeyRestrictions> {
    let mut partition_key: Vec<Option<KeyPart>> = vec![None; table.partition_key_columns().count()];
    let mut clustering: Vec<Option<KeyPart>> = vec![None; table.clustering_columns().count()];
    let mut slice: Vec<(usize, SlicePart)> = Vec::new();
    for relation in &select.where_clause {
        let RelationKind::Compare { column, op, value } = &relation.kind else {
            return None;
        };
        let index = table.columns.get_index_of(&column.name)?;
        let part = KeyPart {
            column: index,
            bind: bind::marker_index(value, offsets)?,
        };
        let pinned = match (table.columns[index].kind, op) {
            (ColumnKind::PartitionKey(i), Operator::Eq) => &mut partition_key[i],
            (ColumnKind::Clustering(i, _), Operator::Eq) => &mut clustering[i],
            (ColumnKind::Clustering(i, _), Operator::Lt | Operator::Le)
            | (ColumnKind::Clustering(i, _), Operator::Gt | Operator::Ge) => {
                slice.push((i, SlicePart { part, op: *op }));
                continue;
            }
            _ => return None,
        };
        if pinned.replace(part).is_some() {
            return None;
        }
    }
    let partition_key = partition_key.into_iter().collect::<Option<Vec<_>>>()?;
    let prefix_len = clustering.iter().take_while(|p| p.is_some()).count();
    if clustering[prefix_len..].iter().any(Option::is_some) {
        return None;
    }
    let clustering = clustering.into_iter().flatten().collect::<Vec<_>>();
    let lower = |op: &Operator| matches!(op, Operator::Gt | Operator::Ge);
    let well_formed = slice.iter().all(|(i, _)| *i == prefix_len)
        && slice.iter().filter(|(_, s)| lower(&s.op)).count() <= 1
        && slice.iter().filter(|(_, s)| !lower(&s.op)).count() <= 1;
    if !well_formed {
        return None;
    }
    Some((
        partition_key,
        clustering,
        slice.into_iter().map(|(_, s)| s).collect(),
    ))
}

fn compile_limit(term: &Term, offsets: &[usize]) -> Option<Limit> {
    use crate::syntax::ast::Literal;
    match &term.kind {
        TermKind::Marker(_) => Some(Limit::Bind(bind::marker_index(term, offsets)?)),
        TermKind::Literal(Literal::Integer(text)) => match text.parse::<i32>() {
            Ok(n) if n > 0 => Some(Limit::Fixed(n as u64)),
            _ => None,
        },
        _ => None,
    }
}

impl CompiledSelect {
    /// Runs the statement with bind `values` at `now_micros`, or declines
    /// (`None`) when the general path must answer. The partition key is
    /// serialized into `key_bytes`, a buffer the caller keeps.
    pub(crate) fn run(
        &self,
        ctx: &PlanContext,
        store: &Store,
        values: &[Value],
        now_micros: i64,
        plan: &Arc<Plan>,
        key_bytes: &mut restrict::KeyBuffer,
    ) -> Option<ResultSet> {
        if values.len() != self.markers {
            return None;
        }
        let table = ctx
            .catalog
            .table_hinted(&self.keyspace, &self.table, self.place)?;
        let fits =
            each_or_none::<_, [&Value; 2]>(&self.partition_key, |p| fitting(table, p, values));
        let token = match fits {
            Some(key) => key_bytes.token_of(&key),
            None => key_bytes.token_of(&self.conformed(table, &self.partition_key, values)?),
        }
        .ok()?;
        let position = PositionRef {
            token,
            key: key_bytes.bytes(),
        };
        let limit = self.limit(values)?;
        // The clustering values are checked even when there is no
        // partition to read: a null one is refused on the general path.
        let clustering = self.clustering_values(table, values)?;
        let slice = if self.full_key {
            Vec::new()
        } else {
            self.slice_predicates(table, values)?
        };
        // A table never written to has no data in the store, and so no
        // partition to read.
        let found = store
            .table_hinted(&self.qualified, &self.data_hint)
            .and_then(|data| Some((data, data.partitions.get_at(position)?)));
        let (mut rows, mut partitions_touched, mut rows_scanned) = (Rows::default(), 0, 0);
        let mut notes = Vec::new();
        if let Some((data, partition)) = found {
            let read = Read {
                table,
                data,
                partition,
                now_secs: now_micros.div_euclid(1_000_000),
                limit,
                direction: plan.order,
            };
            let (found, scanned) = if self.full_key {
                read.exact(self, clustering)
            } else {
                read.slice(self, &clustering, &slice)
            };
            (rows, partitions_touched, rows_scanned) = (found, 1, scanned);
            super::select::partition_notes(table, data, &[partition], &mut notes);
        }
        Some(ResultSet {
            kind: ResultKind::Rows,
            class: Some(plan.class),
            columns: self.columns.clone(),
            metrics: Metrics {
                partitions_touched,
                rows_scanned,
                rows_returned: rows.len() as u64,
            },
            rows,
            warnings: Vec::new(),
            notes,
            plan: Some(plan.clone()),
            schema_change: None,
        })
    }

    /// The bind values of `parts`, as their columns' types, unless one is
    /// null or does not fit.
    fn conformed<'v>(
        &self,
        table: &Table,
        parts: &[KeyPart],
        values: &'v [Value],
    ) -> Option<SmallVec<[Cow<'v, Value>; 2]>> {
        each_or_none(parts, |p| conformed(table, p, values))
    }

    /// The clustering prefix's bind values, owned, as a key holds them.
    fn clustering_values(&self, table: &Table, values: &[Value]) -> Option<KeyValues> {
        each_or_none(&self.clustering, |p| {
            conformed(table, p, values).map(Cow::into_owned)
        })
    }

    fn slice_predicates<'t>(
        &self,
        table: &'t Table,
        values: &[Value],
    ) -> Option<Vec<Predicate<'t>>> {
        self.slice
            .iter()
            .map(|s| {
                Some(Predicate::Compare {
                    column: &table.columns[s.part.column],
                    op: s.op,
                    value: conformed(table, &s.part, values)?.into_owned(),
                })
            })
            .collect()
    }

    /// The LIMIT: `Some(None)` for none, `None` to decline.
    fn limit(&self, values: &[Value]) -> Option<Option<u64>> {
        match self.limit {
            None => Some(None),
            Some(Limit::Fixed(n)) => Some(Some(n)),
            Some(Limit::Bind(i)) => match values.get(i)? {
                Value::Int(n) if *n > 0 => Some(Some(*n as u64)),
                _ => None,
            },
        }
    }
}

/// The bind value of key column `part` if it is ordinary and already of
/// the column's type, as nearly every one is: borrowed as a plain
/// reference, which moves in a register, where a `Cow` of it is stored
/// piecewise and then copied whole, a copy the processor cannot forward
/// from those stores.
#[inline(always)]
fn fitting<'v>(table: &Table, part: &KeyPart, values: &'v [Value]) -> Option<&'v Value> {
    let value = values.get(part.bind)?;
    bind::fits_as_key(value, &table.columns[part.column].data_type).then_some(value)
}

/// The bind value of key column `part`, unless it is not ordinary (see
/// [`bind::ordinary_key_value`]): [`fitting`] in line, conversions out of
/// line.
#[inline(always)]
fn conformed<'v>(table: &Table, part: &KeyPart, values: &'v [Value]) -> Option<Cow<'v, Value>> {
    match fitting(table, part, values) {
        Some(value) => Some(Cow::Borrowed(value)),
        None => converted(&table.columns[part.column], values.get(part.bind)?),
    }
}

#[cold]
#[inline(never)]
fn converted<'v>(column: &Column, value: &'v Value) -> Option<Cow<'v, Value>> {
    bind::ordinary_key_value(value, &column.data_type, &column.name)
}

/// Each selected column and its storage slot, held inline for the usual
/// handful of columns.
type Slots<'a> = SmallVec<[(&'a Column, Option<usize>); 8]>;

/// One execution's read of its partition.
struct Read<'a> {
    table: &'a Table,
    data: &'a TableData,
    partition: &'a Partition,
    now_secs: i64,
    limit: Option<u64>,
    direction: Direction,
}

impl<'a> Read<'a> {
    /// The row at full clustering key `clustering`, if live; and the live
    /// rows looked at.
    fn exact(&self, select: &CompiledSelect, clustering: KeyValues) -> (Rows, u64) {
        let key = ClusteringKey::exact(clustering, select.descending);
        let mut rows = Rows::with_capacity(select.outputs.len(), 1);
        let Some((key, row)) = self.partition.rows.get_key_value(&key) else {
            return (rows, 0);
        };
        if !row.is_live(self.now_secs) {
            return (rows, 0);
        }
        let columns = Projection::new(select);
        self.project(&columns, key, row, &mut rows);
        (rows, 1)
    }

    /// The live rows starting with `prefix` within `slice`, in the plan's
    /// order, up to the LIMIT; and the live rows looked at.
    fn slice(
        &self,
        select: &CompiledSelect,
        prefix: &[Value],
        slice: &[Predicate<'a>],
    ) -> (Rows, u64) {
        let (start, end) = restrict::slice_bounds(self.table, slice, prefix);
        let mut rows = Rows::with_capacity(select.outputs.len(), 0);
        if !bounds_ordered(&start, &end) {
            return (rows, 0);
        }
        let columns = Projection::new(select);
        let mut scanned = 0;
        let range = self.partition.rows.range((start.as_ref(), end.as_ref()));
        let most = self
            .limit
            .map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX));
        rows.reserve(range.len().min(most));
        let mut visit = |(key, row): (&'a StoredKey, &'a StoredRow)| -> bool {
            if !row.is_live(self.now_secs) {
                return true;
            }
            scanned += 1;
            // The range holds exactly the rows the slice admits: its bounds
            // are the slice's values, conformed to the column's type.
            self.project(&columns, key, row, &mut rows);
            self.limit.is_none_or(|n| (rows.len() as u64) < n)
        };
        if self.direction == Direction::Reversed {
            range.rev().all(&mut visit);
        } else {
            range.into_iter().all(&mut visit);
        }
        (rows, scanned)
    }

    /// The selected columns and their storage slots, for the row views.
    fn slots(&self, select: &CompiledSelect) -> Slots<'a> {
        let mut slots = Slots::new();
        for (&i, &slot) in select.outputs.iter().zip(&select.slots) {
            slots.push((&self.table.columns[i], slot));
        }
        slots
    }

    fn view<'v>(
        &self,
        slots: &'v [(&'v Column, Option<usize>)],
        key: &'v StoredKey,
        row: &'v StoredRow,
    ) -> RowView<'v>
    where
        'a: 'v,
    {
        RowView {
            table: self.table,
            data: self.data,
            partition: self.partition,
            clustering: Some(key),
            row: Some(row),
            now_secs: self.now_secs,
            slots,
        }
    }

    fn project(
        &self,
        columns: &Projection<'_, 'a>,
        key: &'a StoredKey,
        row: &'a StoredRow,
        out: &mut Rows,
    ) {
        let packed = row.live_packed_cells(self.now_secs);
        let sources = &columns.select.sources;
        out.push_with(sources.len(), |out| {
            for (i, source) in sources.iter().enumerate() {
                match (*source, packed) {
                    (Source::Clustering(c), _) => out.put_stored(key.parts().get(c)),
                    (Source::Cell(slot), Some(cells)) => {
                        out.put_stored(cells.get(slot).and_then(Option::as_ref))
                    }
                    (Source::Unwritten, _) => out.put(Value::Null),
                    (Source::Cell(_) | Source::View, _) => {
                        let slots = columns.slots.get_or_init(|| self.slots(columns.select));
                        out.put(self.value_through_view(slots, i, key, row))
                    }
                }
            }
        });
    }

    /// Selected column `i` of a row kept unpacked, or of a column only the
    /// row view reads.
    #[inline(never)]
    fn value_through_view(
        &self,
        slots: &[(&'a Column, Option<usize>)],
        i: usize,
        key: &'a StoredKey,
        row: &'a StoredRow,
    ) -> Value {
        let (column, slot) = slots[i];
        let view = self.view(slots, key, row);
        match column.kind {
            ColumnKind::Regular => view.regular_value(slot, column),
            _ => view.value(column),
        }
        .into_owned()
    }
}

/// The selected columns of one execution: where each one's value is found
/// (worked out when the statement is compiled), and the columns with their
/// slots for a row view, looked up only if a row needs one (a row kept
/// unpacked, or a column read through the view).
struct Projection<'s, 'a> {
    select: &'s CompiledSelect,
    slots: std::cell::OnceCell<Slots<'a>>,
}

/// Where a selected column's value is found in a row.
#[derive(Debug, Clone, Copy)]
enum Source {
    /// Clustering value `i` of the row's key.
    Clustering(usize),
    /// The simple cell in a storage slot, read in place in a packed row.
    Cell(usize),
    /// A regular column no row has written.
    Unwritten,
    /// Anything else: through the row view.
    View,
}

impl<'s> Projection<'s, '_> {
    fn new(select: &'s CompiledSelect) -> Self {
        Projection {
            select,
            slots: std::cell::OnceCell::new(),
        }
    }
}

impl Source {
    /// Where a column of `kind` stored in `slot` is found.
    fn of(kind: ColumnKind, slot: Option<usize>) -> Source {
        match (kind, slot) {
            (ColumnKind::Clustering(c, _), _) => Source::Clustering(c),
            (ColumnKind::Regular, Some(slot)) => Source::Cell(slot),
            (ColumnKind::Regular, None) => Source::Unwritten,
            _ => Source::View,
        }
    }
}
