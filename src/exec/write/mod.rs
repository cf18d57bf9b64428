//! INSERT, UPDATE and DELETE turned into [`Mutation`]s.
//!
//! Everything that can fail — a value of the wrong type, a list index out of
//! bounds, a missing key — fails here, before storage is touched. Operations
//! that depend on what is stored (setting a list element by index) read the
//! store as it was before the statement, as Cassandra reads it before
//! applying a batch.

use crate::error::Error;
use crate::planner::KeyLiterals;
use crate::schema::{Column, ColumnKind, Table};
use std::borrow::Cow;

use crate::storage::{
    Cell, ClusteringKey, Expiry, KeyValues, Liveness, PartitionPosition, SlotRef, Store, TableData,
};
use crate::syntax::ast::{
    AssignmentKind, Insert, InsertSource, NativeType, Term, TermKind, Update, UsingItem,
};
use crate::types::{DataType, Value};

use super::bind::{eval_term, Binds};
use super::functions::FunctionContext;
use super::mutation::{Mutation, Op, RowRef};
use super::restrict::{self, Predicate};
use super::view::collection_value;

mod assign;
mod delete;

use assign::assign;
pub(crate) use delete::delete;

/// What every write of one statement shares.
pub(crate) struct WriteEnv<'a, 'f> {
    /// The data as it was before the statement.
    pub(crate) store: &'a Store,
    /// The statement's table's data in `store`, found once per statement.
    pub(crate) data: Option<&'a TableData>,
    /// The write time unless `USING TIMESTAMP` says otherwise.
    pub(crate) timestamp: i64,
    /// The statement's clock, in seconds.
    pub(crate) now_secs: i64,
    /// Bind values.
    pub(crate) binds: &'a Binds<'a>,
    /// Non-deterministic functions.
    pub(crate) fcx: &'a mut FunctionContext<'f>,
    /// A sequence for list element keys, unique within the session.
    /// The session's limits (collection sizes).
    pub(crate) limits: crate::limits::Limits,
    pub(crate) list_sequence: &'a mut i64,
    /// Key values the planner converted from this statement's literals.
    pub(crate) key_literals: KeyLiterals,
}

/// The write time and expiry of a statement after its USING clause.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Stamp {
    pub(crate) timestamp: i64,
    pub(crate) expiry: Option<Expiry>,
}

const MAX_TTL: i64 = 630_720_000;

/// Reads `USING TTL` and `USING TIMESTAMP`, with the table's default TTL.
pub(crate) fn stamp(
    table: &Table,
    using: &[UsingItem],
    env: &mut WriteEnv<'_, '_>,
) -> Result<Stamp, Error> {
    let mut timestamp = env.timestamp;
    let mut ttl = table.default_ttl();
    for item in using {
        match item {
            UsingItem::Timestamp(term) => {
                timestamp = match int_term(term, NativeType::Bigint, "[timestamp]", env)? {
                    Some(t) => t,
                    None => {
                        return Err(
                            Error::invalid("Invalid null value of timestamp").with_span(term.span)
                        )
                    }
                };
            }
            UsingItem::Ttl(term) => {
                let value = int_term(term, NativeType::Int, "[ttl]", env)?;
                let Some(value) = value else {
                    // A null TTL is no TTL, even over the table's default
                    // (Cassandra's `Attributes.getTimeToLive`).
                    ttl = 0;
                    continue;
                };
                if value < 0 {
                    return Err(Error::invalid(format!(
                        "A TTL must be greater or equal to 0, but was {value}"
                    ))
                    .with_span(term.span));
                }
                if value > MAX_TTL {
                    return Err(Error::invalid(format!(
                        "ttl is too large. requested ({value}) maximum ({MAX_TTL})"
                    ))
                    .with_span(term.span));
                }
                ttl = value;
            }
        }
    }
    let ttl = i32::try_from(ttl).unwrap_or(i32::MAX);
    Ok(Stamp {
        timestamp,
        expiry: Expiry::after(ttl, env.now_secs),
    })
}

fn int_term(
    term: &Term,
    ty: NativeType,
    name: &str,
    env: &mut WriteEnv<'_, '_>,
) -> Result<Option<i64>, Error> {
    match eval_term(term, &DataType::Native(ty), name, env.binds, env.fcx)? {
        Value::Int(v) => Ok(Some(i64::from(v))),
        Value::Bigint(v) => Ok(Some(v)),
        _ => Ok(None),
    }
}

fn slot(data: Option<&TableData>, table: &Table, column: &Column) -> Result<usize, Error> {
    data.and_then(|d| d.slot(&column.name)).ok_or_else(|| {
        Error::new(
            crate::ErrorKind::ServerError,
            format!(
                "no storage for column {} of {}",
                column.name,
                table.qualified_name()
            ),
        )
    })
}

fn mutation(table: &Table, key: Vec<Value>) -> Result<Mutation<'_>, Error> {
    Ok(Mutation {
        table,
        position: restrict::partition_position(&key)?,
        key,
        ops: Vec::new(),
    })
}

/// [`check_key_size`] then [`mutation`], serializing the key once.
fn keyed_mutation(table: &Table, key: Vec<Value>) -> Result<Mutation<'_>, Error> {
    let parts: Vec<Result<Vec<u8>, Error>> = key.iter().map(Value::serialize).collect();
    let size: usize = parts.iter().map(|p| p.as_ref().map_or(0, Vec::len)).sum();
    if size > 65_535 {
        return Err(key_too_long(size));
    }
    let parts = parts.into_iter().collect::<Result<Vec<_>, _>>()?;
    Ok(Mutation {
        table,
        position: restrict::position_of_key_parts(&parts)?,
        key,
        ops: Vec::new(),
    })
}

fn key_too_long(size: usize) -> Error {
    Error::invalid(format!(
        "Key length of {size} is longer than maximum of 65535"
    ))
}

fn check_key_size(table: &Table, key: &[Value]) -> Result<(), Error> {
    let size: usize = key
        .iter()
        .map(|v| v.serialize().map(|b| b.len()).unwrap_or(0))
        .sum();
    if size > 65_535 {
        return Err(key_too_long(size));
    }
    let _ = table;
    Ok(())
}

/// The mutation of an INSERT.
pub(crate) fn insert<'t>(
    table: &'t Table,
    insert: &Insert,
    env: &mut WriteEnv<'_, '_>,
) -> Result<Mutation<'t>, Error> {
    let stamp = stamp(table, &insert.using, env)?;
    let (mut values, planned_keys) = insert_values(table, insert, env)?;
    // Writing only static columns needs no clustering key.
    let only_static = !table.clustering.is_empty()
        && values.iter().any(|(c, _)| c.is_static())
        && values
            .iter()
            .all(|(c, _)| c.is_partition_key() || c.is_static());
    let (key, clustering) = insert_key(table, &mut values, only_static)?;
    let mut m = match planned_position(&mut env.key_literals, table, planned_keys) {
        Some(position) => Mutation {
            table,
            position,
            key,
            ops: Vec::new(),
        },
        None => keyed_mutation(table, key)?,
    };
    m.ops.reserve_exact(values.len() + 1);
    let row_key = ClusteringKey::exact(clustering, restrict::descending_mask(table));
    if !only_static {
        m.ops.push(Op::Liveness {
            key: row_key.clone(),
            liveness: Liveness {
                timestamp: stamp.timestamp,
                expiry: stamp.expiry,
            },
        });
    }
    for (column, value) in values {
        if column.is_primary_key() {
            continue;
        }
        let row = if column.is_static() {
            RowRef::Static
        } else {
            RowRef::Row(row_key.clone())
        };
        write_value(table, column, row, value, stamp, env, &mut m.ops)?;
    }
    Ok(m)
}

/// Takes an INSERT's partition key and (unless it writes only static
/// columns) clustering key out of its values, in key order, refusing the
/// first key column missing or null. The cells below skip key columns, so
/// their values are taken, not cloned.
fn insert_key(
    table: &Table,
    values: &mut [(&Column, Value)],
    only_static: bool,
) -> Result<(Vec<Value>, KeyValues), Error> {
    let mut key = Vec::with_capacity(table.partition_key.len());
    let mut clustering = KeyValues::new();
    let partition = table.partition_key.iter().enumerate();
    let rows = table.clustering.iter().enumerate();
    let places = partition
        .map(|(i, name)| (KeyPlace::Partition(i), name))
        .chain(
            rows.filter(|_| !only_static)
                .map(|(i, name)| (KeyPlace::Clustering(i), name)),
        );
    for (place, name) in places {
        let value = values
            .iter_mut()
            .find(|(c, _)| key_place(c) == Some(place))
            .map(|(_, v)| std::mem::replace(v, Value::Null))
            .ok_or_else(|| {
                Error::invalid(format!("Some partition key parts are missing: {name}"))
            })?;
        if value.is_null() {
            return Err(Error::invalid(format!(
                "Invalid null value in condition for column {name}"
            )));
        }
        match place {
            KeyPlace::Partition(_) => key.push(value),
            KeyPlace::Clustering(_) => clustering.push(value),
        }
    }
    Ok((key, clustering))
}

/// Where a key column's value goes in a row's primary key.
#[derive(Debug, Clone, Copy, PartialEq)]
enum KeyPlace {
    Partition(usize),
    Clustering(usize),
}

/// The key place of `column`, read from its kind rather than looked up by
/// name.
fn key_place(column: &Column) -> Option<KeyPlace> {
    match column.kind {
        ColumnKind::PartitionKey(i) => Some(KeyPlace::Partition(i)),
        ColumnKind::Clustering(i, _) => Some(KeyPlace::Clustering(i)),
        _ => None,
    }
}

/// An INSERT's columns with their values, in the order written.
type ColumnValues<'t> = Vec<(&'t Column, Value)>;

/// The INSERT's columns and their values, and how many of those values are
/// partition key values planning converted.
fn insert_values<'t>(
    table: &'t Table,
    insert: &Insert,
    env: &mut WriteEnv<'_, '_>,
) -> Result<(ColumnValues<'t>, usize), Error> {
    match &insert.source {
        InsertSource::Values { columns, values } => {
            let mut out = Vec::with_capacity(columns.len());
            let mut planned_keys = 0;
            for (i, (name, term)) in columns.iter().zip(values).enumerate() {
                let column = table.column_hinted(&name.name, i).ok_or_else(|| {
                    Error::invalid(format!("Undefined column name {}", name.name))
                        .with_span(name.span)
                })?;
                let value = match planned_literal(&mut env.key_literals, column, term) {
                    Some(value) => {
                        planned_keys += usize::from(column.is_partition_key());
                        value
                    }
                    None => eval_term(term, &column.data_type, &column.name, env.binds, env.fcx)?,
                };
                out.push((column, value));
            }
            Ok((out, planned_keys))
        }
        InsertSource::Json { value, default } => {
            let text = match eval_term(
                value,
                &DataType::Native(NativeType::Text),
                "[json]",
                env.binds,
                env.fcx,
            )? {
                Value::Text(t) | Value::Ascii(t) => t,
                _ => return Err(Error::invalid("Got null for INSERT JSON values")),
            };
            let unset = matches!(default, Some(crate::syntax::ast::JsonDefault::Unset));
            super::json_insert::columns_from_json(table, &text, unset).map(|values| (values, 0))
        }
    }
}

/// The value the planner converted for `column` from `term`, taken out:
/// only for a term [`eval_term`] would convert the same way, a constant
/// with no marker or function call in it.
fn planned_literal(literals: &mut KeyLiterals, column: &Column, term: &Term) -> Option<Value> {
    let values = &mut literals.values;
    if values.is_empty()
        || matches!(
            term.kind,
            TermKind::Marker(_) | TermKind::FunctionCall { .. } | TermKind::TypeHint { .. }
        )
    {
        return None;
    }
    let at = values.iter().position(|(kind, _)| *kind == column.kind)?;
    Some(values.swap_remove(at).1)
}

/// The partition planning composed, taken out, when all `planned_keys` of
/// the key's values are planning's: the same values, so the same key and
/// token, and the same checks passed. A one-column empty key is left to
/// [`keyed_mutation`] to refuse.
fn planned_position(
    literals: &mut KeyLiterals,
    table: &Table,
    planned_keys: usize,
) -> Option<PartitionPosition> {
    if planned_keys != table.partition_key.len() {
        return None;
    }
    let composed = literals.partition.take()?;
    if composed.bytes.is_empty() && planned_keys == 1 {
        return None;
    }
    Some(PartitionPosition {
        token: composed.token,
        key: composed.bytes.into_boxed_slice(),
    })
}

/// Writes `value` into `column` of `row`: a cell, or for a non-frozen
/// collection a collection deletion then its elements.
fn write_value(
    table: &Table,
    column: &Column,
    row: RowRef,
    value: Value,
    stamp: Stamp,
    env: &mut WriteEnv<'_, '_>,
    ops: &mut Vec<Op>,
) -> Result<(), Error> {
    check_collection_size(&value, &column.name, env.limits.collection_size)?;
    let slot = slot(env.data, table, column)?;
    if is_collection_cells(&column.data_type) {
        ops.push(Op::DeleteCollection {
            row: row.clone(),
            slot,
            // Cassandra's `timestamp - 1` is Java arithmetic: at
            // `Long.MIN_VALUE` it wraps to `Long.MAX_VALUE`.
            timestamp: stamp.timestamp.wrapping_sub(1),
        });
        add_elements(&column.data_type, row, slot, value, stamp, false, env, ops);
        return Ok(());
    }
    let cell = if value.is_null() {
        Cell::tombstone(stamp.timestamp)
    } else {
        Cell::live(value, stamp.timestamp, stamp.expiry)
    };
    ops.push(Op::Cell { row, slot, cell });
    Ok(())
}

/// How many elements collection `value` holds, which `[limits]` bounds;
/// `None` for any other value.
#[inline]
pub(super) fn collection_len(value: &Value) -> Option<usize> {
    match value {
        Value::List(items) | Value::Set(items) | Value::Vector(items) => Some(items.len()),
        Value::Map(entries) => Some(entries.len()),
        _ => None,
    }
}

/// Refuses a collection value for `column` with more elements than
/// `[limits]` allows.
pub(super) fn check_collection_size(
    value: &Value,
    column: &str,
    limit: usize,
) -> Result<(), Error> {
    let Some(count) = collection_len(value) else {
        return Ok(());
    };
    if count > limit {
        return Err(Error::invalid(format!(
            "Collection value of column {column} has {count} elements, more than the limit of {limit} ([limits] collection_size)"
        )));
    }
    Ok(())
}

/// Whether a column's values are stored element by element: non-frozen
/// lists, sets and maps, and a non-frozen UDT's fields (one cell per field,
/// its path the field's position, as Cassandra's `UserType` cell paths).
pub(crate) fn is_collection_cells(ty: &DataType) -> bool {
    ty.is_multi_cell()
}

/// The element key of a non-frozen UDT's field `index`.
pub(crate) fn field_key(index: usize) -> Value {
    Value::Smallint(i16::try_from(index).unwrap_or(i16::MAX))
}

/// Adds the elements of `value` to a collection: list elements after (or,
/// prepending, before) every existing one, set members, map entries.
#[allow(clippy::too_many_arguments)]
fn add_elements(
    ty: &DataType,
    row: RowRef,
    slot: usize,
    value: Value,
    stamp: Stamp,
    prepend: bool,
    env: &mut WriteEnv<'_, '_>,
    ops: &mut Vec<Op>,
) {
    let live = |v: Value| Cell::live(v, stamp.timestamp, stamp.expiry);
    match (ty, value) {
        (DataType::List { .. }, Value::List(items)) => {
            let keys = list_element_keys(items.len(), prepend, env.list_sequence);
            for (key, item) in keys.zip(items) {
                ops.push(Op::Element {
                    row: row.clone(),
                    slot,
                    key,
                    cell: live(item),
                });
            }
        }
        (DataType::Set { .. }, Value::Set(items) | Value::List(items)) => {
            for item in items {
                ops.push(Op::Element {
                    row: row.clone(),
                    slot,
                    key: item,
                    cell: live(Value::Null),
                });
            }
        }
        (DataType::Map { .. }, Value::Map(entries)) => {
            for (k, v) in entries {
                ops.push(Op::Element {
                    row: row.clone(),
                    slot,
                    key: k,
                    cell: live(v),
                });
            }
        }
        (DataType::Udt { .. }, Value::Udt(fields)) => {
            for (i, field) in fields.into_iter().enumerate() {
                if let Some(v) = field {
                    ops.push(Op::Element {
                        row: row.clone(),
                        slot,
                        key: field_key(i),
                        cell: live(v),
                    });
                }
            }
        }
        _ => {}
    }
}

/// The cell paths of `count` new list elements, in list order. Cassandra
/// orders list cells by TimeUUID, never by write timestamp: an append
/// (`Lists.Appender`) takes the next time-based UUID, so appends follow
/// one another in execution order; a prepend (`Lists.Prepender`) takes a
/// time mirrored before 2010 (`PrecisionTime`), so it lands before every
/// append and before every earlier prepend, its own elements in order.
/// `sequence` stands for the clock: one tick per element.
fn list_element_keys(
    count: usize,
    prepend: bool,
    sequence: &mut i64,
) -> impl Iterator<Item = Value> {
    let first = *sequence + 1;
    *sequence += count as i64;
    let last = *sequence;
    (0..count as i64).map(move |i| {
        let (time, order) = if prepend { (-last, i) } else { (first + i, 0) };
        Value::Tuple(vec![Some(Value::Bigint(time)), Some(Value::Bigint(order))])
    })
}

/// One mutation without operations for each partition a WHERE clause
/// names: what a conditional write's condition is read against when its
/// operations could not be built before the condition was known.
pub(crate) fn bare_mutations<'t>(
    table: &'t Table,
    where_clause: &[crate::syntax::ast::Relation],
    env: &mut WriteEnv<'_, '_>,
) -> Result<Vec<Mutation<'t>>, Error> {
    let predicates = restrict::compile(table, where_clause, env.binds, env.fcx, &env.limits)?;
    let targets = targets(table, &predicates)?;
    targets
        .partitions
        .into_iter()
        .map(|key| mutation(table, key))
        .collect()
}

/// The one clustering row a WHERE clause pins, every clustering column to
/// one value, if it does.
pub(crate) fn pinned_row(
    table: &Table,
    where_clause: &[crate::syntax::ast::Relation],
    env: &mut WriteEnv<'_, '_>,
) -> Result<Option<ClusteringKey>, Error> {
    let predicates = restrict::compile(table, where_clause, env.binds, env.fcx, &env.limits)?;
    let rows = targets(table, &predicates)?.rows;
    Ok(match rows.as_deref() {
        Some([row]) => Some(ClusteringKey::exact(
            row.clone(),
            restrict::descending_mask(table),
        )),
        _ => None,
    })
}

/// The partition keys and clustering rows a WHERE clause pins.
struct Targets {
    partitions: Vec<Vec<Value>>,
    /// Full clustering keys pinned by `=`/`IN`, or `None` when the clustering
    /// key is not fully pinned.
    rows: Option<Vec<Vec<Value>>>,
}

fn targets(table: &Table, predicates: &[Predicate<'_>]) -> Result<Targets, Error> {
    let pk = restrict::partition_columns(table);
    let mut partitions = restrict::key_combinations(predicates, &pk)
        .ok_or_else(|| Error::invalid("Some partition key parts are missing"))?;
    for key in &partitions {
        check_key_size(table, key)?;
    }
    // A token relation beside a fixed key drops the keys outside its range
    // (`PartitionKeyRestrictions.filter`): their writes do not happen.
    if predicates
        .iter()
        .any(|p| matches!(p, Predicate::Token { .. }))
    {
        let mut admitted = Vec::with_capacity(partitions.len());
        for key in partitions {
            if restrict::token_admits(predicates, restrict::partition_token(&key)?) {
                admitted.push(key);
            }
        }
        partitions = admitted;
    }
    let ck = restrict::clustering_columns(table);
    let rows = if ck.is_empty() {
        Some(vec![Vec::new()])
    } else {
        restrict::key_combinations(predicates, &ck)
    };
    Ok(Targets { partitions, rows })
}

/// The mutations of an UPDATE (one per partition it names).
pub(crate) fn update<'t>(
    table: &'t Table,
    update: &Update,
    env: &mut WriteEnv<'_, '_>,
) -> Result<Vec<Mutation<'t>>, Error> {
    let stamp = stamp(table, &update.using, env)?;
    let predicates =
        restrict::compile(table, &update.where_clause, env.binds, env.fcx, &env.limits)?;
    let targets = targets(table, &predicates)?;
    let only_static = update.assignments.iter().all(|a| {
        let name = match &a.kind {
            AssignmentKind::Set { target, .. } => &target.column().name,
            AssignmentKind::Apply { column, .. } | AssignmentKind::Prepend { column, .. } => {
                &column.name
            }
        };
        table.column(name).is_some_and(Column::is_static)
    });
    let rows: Vec<Option<Vec<Value>>> = match (&targets.rows, only_static) {
        (_, true) if !table.clustering.is_empty() => vec![None],
        (Some(rows), _) => rows.iter().cloned().map(Some).collect(),
        (None, _) => {
            return Err(Error::invalid(format!(
                "Some clustering keys are missing: {}",
                table.clustering.join(", ")
            )))
        }
    };
    let mask = restrict::descending_mask(table);
    let mut out = Vec::with_capacity(targets.partitions.len());
    for key in targets.partitions {
        let mut m = mutation(table, key)?;
        for ck in &rows {
            let row_key = ck.as_ref().map(|v| ClusteringKey::exact(v.clone(), mask));
            for assignment in &update.assignments {
                assign(table, &m, row_key.as_ref(), &assignment.kind, stamp, env)
                    .map(|ops| m.ops.extend(ops))
                    .map_err(|e| {
                        if e.span().is_some() {
                            e
                        } else {
                            e.with_span(assignment.span)
                        }
                    })?;
            }
        }
        out.push(m);
    }
    Ok(out)
}

fn row_ref(column: &Column, key: Option<&ClusteringKey>) -> RowRef {
    match (column.is_static(), key) {
        (false, Some(k)) => RowRef::Row(k.clone()),
        _ => RowRef::Static,
    }
}

/// The current live value of `column` in the row a mutation addresses, as
/// stored before the statement.
fn current(
    m: &Mutation,
    key: Option<&ClusteringKey>,
    column: &Column,
    env: &WriteEnv<'_, '_>,
) -> Value {
    let Some(d) = env.data else {
        return Value::Null;
    };
    let Some(partition) = d.partition(&m.position) else {
        return Value::Null;
    };
    let row = match row_ref(column, key) {
        RowRef::Static => Some(&partition.static_row),
        RowRef::Row(k) => partition.rows.get(&k),
    };
    let Some(slot) = row.and_then(|r| r.slot(d.slot(&column.name)?)) else {
        return Value::Null;
    };
    match slot {
        SlotRef::Cell(c) => c
            .into_live_value(env.now_secs)
            .map_or(Value::Null, Cow::into_owned),
        SlotRef::Collection(c) => collection_value(c, &column.data_type, env.now_secs),
    }
}

/// The live list element keys of a list column, in list order.
fn list_keys(
    m: &Mutation,
    key: Option<&ClusteringKey>,
    column: &Column,
    env: &WriteEnv<'_, '_>,
) -> Vec<(Value, Value)> {
    let Some(d) = env.data else {
        return Vec::new();
    };
    let Some(partition) = d.partition(&m.position) else {
        return Vec::new();
    };
    let row = match row_ref(column, key) {
        RowRef::Static => Some(&partition.static_row),
        RowRef::Row(k) => partition.rows.get(&k),
    };
    match row.and_then(|r| r.slot(d.slot(&column.name)?)) {
        Some(SlotRef::Collection(c)) => c
            .live(env.now_secs)
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        _ => Vec::new(),
    }
}
