//! Query tables: for a SELECT that Cassandra refuses, that needs
//! `ALLOW FILTERING`, or that asks every node, the table that would serve it
//! as a single-partition read — the "one table per query" method of
//! the column-family modelling method (design the table from the query, denormalise, let the
//! partition key name the partition and the clustering columns order it).
//!
//! The table is derived from the query alone:
//!
//! * **Partition key**: the columns the WHERE clause restricts with `=`, in
//!   the order written. A `col CONTAINS v` (or `CONTAINS KEY`) restriction
//!   becomes an equality on a column holding one element (or key) of the
//!   collection per row: `<col>_element`, `<col>_key` or `<col>_value`.
//!   Columns restricted by `IN` are *not* put in the partition key, where
//!   they would make the read multi-partition: they lead the clustering
//!   columns, where an IN is a slice of one partition. A query with no
//!   equality at all gets no suggestion (whatever its table, it reads several
//!   partitions or all of them).
//! * **Time bucket**: when the query has a range on (or orders by) a
//!   `timestamp` or `timeuuid` column and no equality column is date-like
//!   (type `date`, or a name ending in `date`, `day`, `hour`, `week`,
//!   `month`, `year` or `bucket`), the partition would grow without bound:
//!   a `<col>_date date` column — the day of that column, which the writer
//!   computes with `to_date(<col>)` — is added at the end of the partition
//!   key, and the rewritten query gains `<col>_date = ?`. (A day is the
//!   bucket of `sensor_readings` and `user_activity` in the seeds; when the
//!   name is taken, `<col>_bucket`, then `bucket`, then `bucket_2`, … are
//!   used.)
//! * **Clustering columns**: the IN columns, the columns with range
//!   restrictions, then the ORDER BY columns, then the rest of the source
//!   table's primary key (so rows stay as unique as in the source table).
//!   `WITH CLUSTERING ORDER BY` follows the ORDER BY direction; a column the
//!   ORDER BY does not name keeps its direction in the source table (ASC if
//!   it was not a clustering column there). For `SELECT DISTINCT`, the
//!   selected columns take the place of the rest of the primary key — one
//!   row per distinct combination — and the rewritten query drops DISTINCT.
//! * **Regular columns**: the selected columns (all of them for `*`) with
//!   their source types; static columns become regular.
//! * **Name**: `<base>_by_<col1>_<col2>…` over the partition key columns,
//!   where `<base>` is the source table's name up to its first `_by_`
//!   (`inbox_by_user` queried by sender gives `inbox_by_sender`); lower case,
//!   other characters folded to `_`, at most 48 characters (Cassandra's
//!   limit), and `_2`, `_3`, … appended when the keyspace already has the
//!   name.
//!
//! Every suggestion is checked before it is returned: the CREATE TABLE is
//! applied to a copy of the planning context and the rewritten query must
//! plan as `point-lookup` or `partition-scan` on it. A design that fails the
//! check (a counter or `duration` in the key, an ORDER BY the new clustering
//! cannot follow, …) gives `None`.

mod clean;

use super::LintConfig;
use crate::planner::{plan_statement, PlanContext, QueryClass};
use crate::schema::{ColumnKind, Table};
use crate::syntax::ast::{
    write_name, BindMarker, Ident, Operator, Order, QualifiedName, Relation, RelationKind, Select,
    SelectClause, Selector, SelectorKind, Statement, Term, TermKind,
};
use crate::syntax::span::Span;
use crate::types::DataType;

/// Cassandra's limit on table names.
const NAME_LENGTH: usize = 48;

/// A query table proposed for a query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suggestion {
    /// The new table's name (unqualified; it lives in the source table's
    /// keyspace).
    pub table_name: String,
    /// One sentence: what to do.
    pub help: String,
    /// `CREATE TABLE ks.name (…) [WITH CLUSTERING ORDER BY (…)];`, or empty
    /// when a table of the schema already serves the query.
    pub create_table: String,
    /// The query against the new table, ending with `;`.
    pub rewritten_query: String,
}

impl Suggestion {
    /// Whether the suggestion has a design. One without only says, in its
    /// help, why none is offered: every design found would be flagged by
    /// the linter itself.
    pub fn has_design(&self) -> bool {
        !self.rewritten_query.is_empty()
    }

    fn without_design(help: String) -> Suggestion {
        Suggestion {
            table_name: String::new(),
            help,
            create_table: String::new(),
            rewritten_query: String::new(),
        }
    }

    /// The complete fix as CQL: the CREATE TABLE (if any), then the query;
    /// empty without a design.
    pub fn script(&self) -> String {
        if self.create_table.is_empty() {
            self.rewritten_query.clone()
        } else {
            format!("{}\n{}", self.create_table, self.rewritten_query)
        }
    }
}

/// Proposes the table that would serve `select` from one partition, when the
/// query is refused, scatters over the ring, or is a filtered scan. `None`
/// when the query already plans as a point lookup, partition scan or
/// multi-partition read, restricts nothing, restricts no column by equality,
/// uses a relation a query table cannot carry over (`token(…)`, `LIKE`, map
/// entries), or when its table cannot be resolved.
/// The design must lint clean under the default configuration.
pub fn suggest_query_table(planner: &PlanContext, select: &Select) -> Option<Suggestion> {
    if !needs_query_table(planner, select) {
        return None;
    }
    let config = LintConfig::default();
    suggest_with_scratch(planner, select, &mut Verifier::default(), &config)
        .filter(Suggestion::has_design)
}

/// Checks suggestions, remembering what it found: whether a suggested table
/// serves its query depends on the table and the query's shape, not on the
/// values in it, so queries that differ only in their literals are checked
/// once. The scratch schema is kept while the keyspace stays the same.
#[derive(Debug, Default)]
struct Verifier {
    scratch: Option<PlanContext>,
    verified: std::collections::HashMap<String, Verdict>,
}

/// What checking a design found.
#[derive(Debug, Clone)]
enum Verdict {
    /// It serves the query from one partition and lints clean.
    Clean,
    /// It does not serve the query from one partition.
    Fails,
    /// It serves the query but is flagged: the help saying so.
    Flagged(String),
}

/// The query with every value replaced by a bind marker (IN lists keep
/// their length: a one-value IN counts as `=`).
fn shape_signature(select: &Select) -> String {
    use crate::syntax::ast::{BindMarker, InValues, RelationKind, Term, TermKind};
    let marker = |term: &mut Term| term.kind = TermKind::Marker(BindMarker::Anonymous);
    let mut masked = select.clone();
    for relation in &mut masked.where_clause {
        match &mut relation.kind {
            RelationKind::Compare { value, .. }
            | RelationKind::Contains { value, .. }
            | RelationKind::Like { value, .. }
            | RelationKind::Token { value, .. }
            | RelationKind::MultiCompare { value, .. } => marker(value),
            RelationKind::MapEntry { key, value, .. } => {
                marker(key);
                marker(value);
            }
            RelationKind::In { values, .. } | RelationKind::MultiIn { values, .. } => {
                if let InValues::List(items) = values {
                    items.iter_mut().for_each(marker);
                }
            }
            RelationKind::IsNotNull { .. } => {}
        }
    }
    masked.limit.iter_mut().for_each(marker);
    masked.per_partition_limit.iter_mut().for_each(marker);
    masked.to_string()
}

/// [`suggest_query_table`], checking the suggestion on `scratch` (a schema
/// holding only the table's keyspace, kept between calls for the same
/// keyspace so that a lint of many queries builds it once).
fn suggest_with_scratch(
    planner: &PlanContext,
    select: &Select,
    verifier: &mut Verifier,
    config: &LintConfig,
) -> Option<Suggestion> {
    if select.where_clause.is_empty() {
        return None;
    }
    let table = planner
        .catalog
        .resolve_table(planner.keyspace.as_deref(), &select.from)
        .ok()?;
    let shape = Shape::read(table, select)?;
    let design = Design::new(table, select, &shape)?;
    // A table the schema already has is the better answer — unless the new
    // design adds a time bucket: the existing table then lacks it and is
    // the unbounded partition the bucket is there to avoid.
    if design.bucket.is_none() {
        if let Some(existing) = planner
            .catalog
            .keyspace(&table.keyspace)
            .and_then(|ks| super::rules::query_not_served::other_table_serving(ks, table, select))
        {
            return Some(read_existing(select, existing));
        }
    }
    let table_name = unique_name(planner, table, &design.partition_names());
    let create_table = design.create_table(&table.keyspace, &table_name);
    let rewritten_query = rewrite(select, &shape, &design, &table.keyspace, &table_name);
    let help = design.help(&table_name);
    let suggestion = Suggestion {
        table_name,
        help,
        create_table,
        rewritten_query,
    };
    let key = format!("{}|{}", suggestion.create_table, shape_signature(select));
    let verdict = match verifier.verified.get(&key) {
        Some(known) => known.clone(),
        None => {
            let verdict = verify(planner, &suggestion, &design, verifier, config);
            verifier.verified.insert(key, verdict.clone());
            verdict
        }
    };
    match verdict {
        Verdict::Clean => Some(suggestion),
        Verdict::Fails => None,
        Verdict::Flagged(help) => Some(Suggestion::without_design(help)),
    }
}

/// Checks a design: it must serve the query from one partition, and then
/// lint clean under `config`.
fn verify(
    planner: &PlanContext,
    suggestion: &Suggestion,
    design: &Design,
    verifier: &mut Verifier,
    config: &LintConfig,
) -> Verdict {
    if !serves_one_partition(planner, suggestion, &mut verifier.scratch) {
        return Verdict::Fails;
    }
    let Some(scratch) = verifier.scratch.as_ref() else {
        return Verdict::Fails;
    };
    let findings = clean::design_findings(scratch, &suggestion.script(), config);
    if findings.is_empty() {
        return Verdict::Clean;
    }
    let partition: Vec<String> = design.partition_names().into_iter().map(quoted).collect();
    Verdict::Flagged(clean::no_clean_design(&partition.join(", "), &findings))
}

/// Whether the query is one a query table should replace: refused, or
/// scatter-gather (filtered scans and index reads without a partition).
fn needs_query_table(planner: &PlanContext, select: &Select) -> bool {
    match plan_statement(planner, &Statement::Select(select.clone())) {
        Ok(plan) => plan.class == QueryClass::ScatterGather,
        Err(_) => true,
    }
}

/// Checks a suggestion on a scratch schema holding only the table's
/// keyspace (its replication and types, none of its tables — copying a
/// large schema for every suggestion would dominate linting): the table is
/// accepted and the rewritten query reads one partition.
fn serves_one_partition(
    planner: &PlanContext,
    suggestion: &Suggestion,
    scratch: &mut Option<PlanContext>,
) -> bool {
    let Ok(create) = crate::parse_statement(&suggestion.create_table) else {
        return false;
    };
    let Statement::CreateTable(table) = &create else {
        return false;
    };
    let Some(keyspace) = table
        .name
        .keyspace
        .as_ref()
        .map(|k| k.name.as_str())
        .or(planner.keyspace.as_deref())
    else {
        return false;
    };
    let reusable = scratch
        .as_ref()
        .is_some_and(|s| s.keyspace.as_deref() == Some(keyspace));
    if !reusable {
        *scratch = scratch_context(planner, keyspace);
    }
    let Some(scratch) = scratch.as_mut() else {
        return false;
    };
    if scratch.apply_schema(&create).is_err() {
        return false;
    }
    let serves = crate::parse_statement(&suggestion.rewritten_query).is_ok_and(|query| {
        matches!(
            plan_statement(scratch, &query).map(|plan| plan.class),
            Ok(QueryClass::PointLookup | QueryClass::PartitionScan)
        )
    });
    if let Some(ks) = scratch.catalog.keyspaces.get_mut(keyspace) {
        ks.tables.shift_remove(&suggestion.table_name);
    }
    serves
}

/// The suggestion to read a table the schema already has: no CREATE TABLE,
/// the query rewritten against it.
fn read_existing(select: &Select, existing: &Table) -> Suggestion {
    let mut query = select.clone();
    query.from = QualifiedName {
        keyspace: Some(Ident::new(existing.keyspace.clone())),
        name: Ident::new(existing.name.clone()),
        span: Span::default(),
    };
    query.allow_filtering = false;
    Suggestion {
        table_name: existing.name.clone(),
        help: format!(
            "{} already serves this query from one partition: read it instead",
            existing.qualified_name()
        ),
        create_table: String::new(),
        rewritten_query: format!("{query};"),
    }
}

/// A planning context with `keyspace` as `planner` has it, but empty.
fn scratch_context(planner: &PlanContext, keyspace: &str) -> Option<PlanContext> {
    let source = planner.catalog.keyspace(keyspace)?;
    let mut catalog = crate::schema::Catalog::with_settings(planner.catalog.settings().clone());
    catalog.keyspaces.insert(
        keyspace.to_string(),
        crate::schema::Keyspace {
            name: source.name.clone(),
            replication: source.replication.clone(),
            durable_writes: source.durable_writes,
            tables: crate::schema::NameMap::default(),
            types: source.types.clone(),
        },
    );
    Some(PlanContext {
        catalog,
        ring: planner.ring.clone(),
        consistency: planner.consistency,
        serial_consistency: planner.serial_consistency,
        coordinator: planner.coordinator,
        keyspace: Some(keyspace.to_string()),
        limits: planner.limits,
    })
}

/// A column of the query table that is not a column of the source table.
#[derive(Debug, Clone)]
struct Derived {
    name: String,
    data_type: DataType,
    /// How the writer computes it, for the help text (after its name).
    from: String,
}

/// What the WHERE clause and ORDER BY ask of each column.
#[derive(Debug, Default)]
struct Shape {
    /// Columns fixed by `=` (or by CONTAINS, through a derived column), in
    /// the order written.
    equal: Vec<String>,
    /// Columns (or derived columns) restricted by IN or multi-column
    /// equality.
    listed: Vec<String>,
    /// Columns with range restrictions.
    ranged: Vec<String>,
    /// ORDER BY columns and directions.
    ordered: Vec<(String, Order)>,
    /// Columns made for CONTAINS, with the index of the relation they
    /// replace.
    derived: Vec<(usize, Derived)>,
}

fn push_unique(list: &mut Vec<String>, name: &str) {
    if !list.iter().any(|n| n == name) {
        list.push(name.to_string());
    }
}

impl Shape {
    fn read(table: &Table, select: &Select) -> Option<Shape> {
        let mut shape = Shape::default();
        for (i, relation) in select.where_clause.iter().enumerate() {
            match &relation.kind {
                RelationKind::Compare { column, op, .. } => {
                    table.column(&column.name)?;
                    match op {
                        Operator::Eq => push_unique(&mut shape.equal, &column.name),
                        op if op.is_slice() => push_unique(&mut shape.ranged, &column.name),
                        _ => return None,
                    }
                }
                RelationKind::In { column, .. } => {
                    table.column(&column.name)?;
                    push_unique(&mut shape.listed, &column.name);
                }
                RelationKind::MultiCompare { columns, op, .. } => {
                    for column in columns {
                        table.column(&column.name)?;
                        match op {
                            Operator::Eq => push_unique(&mut shape.listed, &column.name),
                            op if op.is_slice() => push_unique(&mut shape.ranged, &column.name),
                            _ => return None,
                        }
                    }
                }
                RelationKind::MultiIn { columns, .. } => {
                    for column in columns {
                        table.column(&column.name)?;
                        push_unique(&mut shape.listed, &column.name);
                    }
                }
                RelationKind::Contains { column, key, .. } => {
                    let derived = contained(table, &column.name, *key)?;
                    push_unique(&mut shape.equal, &derived.name);
                    shape.derived.push((i, derived));
                }
                RelationKind::Token { .. }
                | RelationKind::Like { .. }
                | RelationKind::MapEntry { .. }
                | RelationKind::IsNotNull { .. } => return None,
            }
        }
        // A column both fixed and listed or ranged is a key column once.
        let equal = shape.equal.clone();
        shape.listed.retain(|c| !equal.contains(c));
        let listed = shape.listed.clone();
        shape
            .ranged
            .retain(|c| !equal.contains(c) && !listed.contains(c));
        for ordering in &select.order_by {
            table.column(&ordering.column.name)?;
            if !shape
                .ordered
                .iter()
                .any(|(c, _)| *c == ordering.column.name)
            {
                shape.ordered.push((
                    ordering.column.name.clone(),
                    ordering.order.unwrap_or_default(),
                ));
            }
        }
        Some(shape)
    }
}

/// The column a CONTAINS restriction turns into: one element (or key, or
/// value) of the collection per row.
fn contained(table: &Table, column: &str, key: bool) -> Option<Derived> {
    let data_type = &table.column(column)?.data_type;
    let (suffix, element) = match (data_type, key) {
        (DataType::Set { element, .. } | DataType::List { element, .. }, false) => {
            ("element", element)
        }
        (DataType::Map { value, .. }, false) => ("value", value),
        (DataType::Map { key, .. }, true) => ("key", key),
        _ => return None,
    };
    Some(Derived {
        name: format!("{column}_{suffix}"),
        data_type: (**element).clone(),
        from: format!(
            "holding each {suffix} of {} (one row per {suffix})",
            quoted(column)
        ),
    })
}

/// The query table, column by column.
struct Design {
    partition: Vec<(String, DataType)>,
    clustering: Vec<(String, DataType, Order)>,
    regular: Vec<(String, DataType)>,
    /// Columns that are not in the source table, and how they are computed.
    derived: Vec<Derived>,
    /// The time bucket added to the partition key, if any.
    bucket: Option<String>,
}

fn is_time(data_type: &DataType) -> bool {
    matches!(
        data_type,
        DataType::Native(crate::syntax::ast::NativeType::Timestamp)
            | DataType::Native(crate::syntax::ast::NativeType::Timeuuid)
    )
}

fn is_date_like(name: &str, data_type: &DataType) -> bool {
    let lower = name.to_ascii_lowercase();
    matches!(
        data_type,
        DataType::Native(crate::syntax::ast::NativeType::Date)
    ) || ["date", "day", "hour", "week", "month", "year", "bucket"]
        .iter()
        .any(|suffix| lower.ends_with(suffix))
}

/// A key column's type: collections and UDTs must be frozen there.
fn key_type(data_type: &DataType) -> DataType {
    let mut data_type = data_type.clone();
    match &mut data_type {
        DataType::List { frozen, .. }
        | DataType::Set { frozen, .. }
        | DataType::Map { frozen, .. }
        | DataType::Udt { frozen, .. } => *frozen = true,
        _ => {}
    }
    data_type
}

/// The columns a selector reads, in the order written.
fn selector_columns(selector: &Selector, out: &mut Vec<String>) {
    match &selector.kind {
        SelectorKind::Column(c) => push_unique(out, &c.name),
        SelectorKind::Metadata { column, .. } => push_unique(out, &column.name),
        SelectorKind::Term(_) | SelectorKind::CountStar => {}
        SelectorKind::Cast { selector, .. }
        | SelectorKind::Negate(selector)
        | SelectorKind::TypeHint { selector, .. } => selector_columns(selector, out),
        SelectorKind::Sub { selector, .. } => selector_columns(selector, out),
        SelectorKind::Function { args, .. }
        | SelectorKind::Tuple(args)
        | SelectorKind::List(args)
        | SelectorKind::Set(args) => args.iter().for_each(|a| selector_columns(a, out)),
        SelectorKind::Binary { left, right, .. } => {
            selector_columns(left, out);
            selector_columns(right, out);
        }
        SelectorKind::Map(entries) => {
            for (k, v) in entries {
                selector_columns(k, out);
                selector_columns(v, out);
            }
        }
    }
}

impl Design {
    fn new(table: &Table, select: &Select, shape: &Shape) -> Option<Design> {
        if shape.equal.is_empty() {
            return None;
        }
        let derived: Vec<Derived> = shape.derived.iter().map(|(_, d)| d.clone()).collect();
        let type_of = |name: &str| -> Option<DataType> {
            match table.column(name) {
                Some(c) => Some(c.data_type.clone()),
                None => derived
                    .iter()
                    .find(|d| d.name == name)
                    .map(|d| d.data_type.clone()),
            }
        };
        let mut taken: Vec<String> = Vec::new();
        let mut partition = Vec::new();
        for name in &shape.equal {
            partition.push((name.clone(), key_type(&type_of(name)?)));
            taken.push(name.clone());
        }

        // The time bucket.
        let mut described = derived.clone();
        let mut bucket = None;
        let timed = shape
            .ranged
            .iter()
            .chain(shape.ordered.iter().map(|(c, _)| c))
            .find(|c| table.column(c).is_some_and(|c| is_time(&c.data_type)));
        let dated = partition.iter().any(|(n, t)| is_date_like(n, t));
        if let (Some(timed), false) = (timed, dated) {
            let name = bucket_name(table, &described, timed);
            partition.push((
                name.clone(),
                DataType::Native(crate::syntax::ast::NativeType::Date),
            ));
            taken.push(name.clone());
            described.push(Derived {
                name: name.clone(),
                data_type: DataType::Native(crate::syntax::ast::NativeType::Date),
                from: format!("= to_date({}) as a day bucket", quoted(timed)),
            });
            bucket = Some(name);
        }

        let source_order = |name: &str| match table.column(name).map(|c| c.kind) {
            Some(ColumnKind::Clustering(_, order)) => order,
            _ => Order::Asc,
        };
        let ordered = |name: &str| {
            shape
                .ordered
                .iter()
                .find(|(c, _)| c == name)
                .map(|(_, o)| *o)
        };
        let mut clustering = Vec::new();
        let mut add_clustering = |name: &str, taken: &mut Vec<String>| -> Option<()> {
            if taken.iter().any(|t| t == name) {
                return Some(());
            }
            let order = ordered(name).unwrap_or_else(|| source_order(name));
            clustering.push((name.to_string(), key_type(&type_of(name)?), order));
            taken.push(name.to_string());
            Some(())
        };
        for name in shape
            .listed
            .iter()
            .chain(&shape.ranged)
            .chain(shape.ordered.iter().map(|(c, _)| c))
        {
            add_clustering(name, &mut taken)?;
        }

        let mut selected = Vec::new();
        match &select.selection {
            SelectClause::Star => {
                selected.extend(table.columns.values().map(|c| c.name.clone()));
            }
            SelectClause::Items(items) => {
                for item in items {
                    selector_columns(&item.selector, &mut selected);
                }
            }
        }
        if select.distinct {
            // One row per distinct combination of the selected columns.
            for name in &selected {
                add_clustering(name, &mut taken)?;
            }
        } else {
            for name in table.partition_key.iter().chain(&table.clustering) {
                add_clustering(name, &mut taken)?;
            }
        }
        let mut regular = Vec::new();
        for name in &selected {
            if !taken.contains(name) {
                regular.push((name.clone(), type_of(name)?));
                taken.push(name.clone());
            }
        }
        Some(Design {
            partition,
            clustering,
            regular,
            derived: described,
            bucket,
        })
    }

    fn partition_names(&self) -> Vec<&str> {
        self.partition.iter().map(|(n, _)| n.as_str()).collect()
    }

    fn create_table(&self, keyspace: &str, name: &str) -> String {
        let mut out = String::from("CREATE TABLE ");
        let _ = write_name(&mut out, keyspace);
        out.push('.');
        let _ = write_name(&mut out, name);
        out.push_str(" (\n");
        let columns = self
            .partition
            .iter()
            .map(|(n, t)| (n, t))
            .chain(self.clustering.iter().map(|(n, t, _)| (n, t)))
            .chain(self.regular.iter().map(|(n, t)| (n, t)));
        for (column, data_type) in columns {
            out.push_str("    ");
            let _ = write_name(&mut out, column);
            out.push_str(&format!(" {data_type},\n"));
        }
        out.push_str("    PRIMARY KEY (");
        let names = |list: &mut dyn Iterator<Item = &String>| {
            let mut text = String::new();
            for (i, n) in list.enumerate() {
                if i > 0 {
                    text.push_str(", ");
                }
                let _ = write_name(&mut text, n);
            }
            text
        };
        let partition = names(&mut self.partition.iter().map(|(n, _)| n));
        if self.partition.len() == 1 {
            out.push_str(&partition);
        } else {
            out.push_str(&format!("({partition})"));
        }
        if !self.clustering.is_empty() {
            out.push_str(", ");
            out.push_str(&names(&mut self.clustering.iter().map(|(n, _, _)| n)));
        }
        out.push_str(")\n)");
        if !self.clustering.is_empty() {
            out.push_str(" WITH CLUSTERING ORDER BY (");
            for (i, (n, _, order)) in self.clustering.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                let _ = write_name(&mut out, n);
                out.push(' ');
                out.push_str(order.as_str());
            }
            out.push(')');
        }
        out.push(';');
        out
    }

    fn help(&self, table_name: &str) -> String {
        let key = self
            .partition
            .iter()
            .map(|(n, _)| quoted(n))
            .collect::<Vec<_>>()
            .join(", ");
        let mut help = format!("serve this query from a table partitioned by ({key})");
        let notes: Vec<String> = self
            .derived
            .iter()
            .map(|d| format!("{} {}", quoted(&d.name), d.from))
            .collect();
        if !notes.is_empty() {
            help.push_str(&format!(", with {}", notes.join(" and ")));
        }
        help.push_str(&format!(": {table_name}"));
        help
    }
}

/// The bucket column's name: `<col>_date`, or another name when the table
/// already has that one.
fn bucket_name(table: &Table, derived: &[Derived], timed: &str) -> String {
    let free = |name: &str| table.column(name).is_none() && !derived.iter().any(|d| d.name == name);
    let candidates = [format!("{timed}_date"), format!("{timed}_bucket")];
    if let Some(name) = candidates.into_iter().find(|n| free(n)) {
        return name;
    }
    if free("bucket") {
        return "bucket".to_string();
    }
    (2..)
        .map(|n| format!("bucket_{n}"))
        .find(|n| free(n))
        .unwrap_or_else(|| "bucket".to_string())
}

/// A name as CQL writes it.
fn quoted(name: &str) -> String {
    let mut text = String::new();
    let _ = write_name(&mut text, name);
    text
}

/// Folds a name to what an unquoted table name may hold.
fn fold(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect()
}

/// `<base>_by_<col1>_<col2>`, shortened to 48 characters and made unique
/// in the keyspace.
fn unique_name(planner: &PlanContext, table: &Table, partition: &[&str]) -> String {
    let base = match table.name.find("_by_") {
        Some(at) if at > 0 => &table.name[..at],
        _ => table.name.as_str(),
    };
    let mut name = fold(&format!("{base}_by_{}", partition.join("_")));
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        name.insert_str(0, "t_");
    }
    let exists = |n: &str| planner.catalog.table(&table.keyspace, n).is_some();
    let shorten = |n: &str, room: usize| -> String {
        let mut n: String = n.chars().take(room).collect();
        while n.ends_with('_') {
            n.pop();
        }
        n
    };
    let first = shorten(&name, NAME_LENGTH);
    if !exists(&first) {
        return first;
    }
    (2u32..)
        .map(|n| {
            let suffix = format!("_{n}");
            format!("{}{suffix}", shorten(&name, NAME_LENGTH - suffix.len()))
        })
        .find(|candidate| !exists(candidate))
        .unwrap_or(first)
}

/// The query against the new table: the same selection and relations
/// (CONTAINS turned into equality on its derived column), the bucket
/// equality added, no ALLOW FILTERING.
fn rewrite(select: &Select, shape: &Shape, design: &Design, keyspace: &str, name: &str) -> String {
    let mut query = select.clone();
    query.from = QualifiedName {
        keyspace: Some(Ident::new(keyspace)),
        name: Ident::new(name),
        span: Span::default(),
    };
    query.allow_filtering = false;
    query.distinct = false;
    for (i, derived) in &shape.derived {
        if let Some(relation) = query.where_clause.get_mut(*i) {
            if let RelationKind::Contains { value, .. } = &relation.kind {
                relation.kind = RelationKind::Compare {
                    column: Ident::new(derived.name.clone()),
                    op: Operator::Eq,
                    value: value.clone(),
                };
            }
        }
    }
    if let Some(bucket) = &design.bucket {
        query.where_clause.push(Relation {
            kind: RelationKind::Compare {
                column: Ident::new(bucket.clone()),
                op: Operator::Eq,
                value: Term {
                    kind: TermKind::Marker(BindMarker::Anonymous),
                    span: Span::default(),
                },
            },
            span: Span::default(),
        });
    }
    format!("{query};")
}

#[cfg(test)]
mod tests;

/// Suggestions by file, then by (statement offset, schema generation).
type KnownSuggestions = std::collections::HashMap<
    String,
    std::collections::HashMap<(usize, usize), Option<Suggestion>>,
>;

/// Suggestions already worked out: several rules ask about the same query
/// (Q001–Q003 as the statement is read, M006 once everything is), and each
/// answer costs a planning round on a scratch schema.
#[derive(Debug, Default)]
pub struct SuggestionCache {
    known: std::cell::RefCell<KnownSuggestions>,
    /// The scratch schema suggestions are checked on, and the generation it
    /// was built at.
    verifier: std::cell::RefCell<(usize, Verifier)>,
}

/// Which statement a suggestion is for: the file, the statement's byte
/// offset in it, and the number of schema statements applied so far (a later
/// table changes the answer).
#[derive(Debug, Clone, Copy)]
pub struct SuggestionKey<'a> {
    /// The file.
    pub file: &'a str,
    /// The statement's offset in the file.
    pub offset: usize,
    /// Schema statements applied.
    pub generation: usize,
}

impl SuggestionCache {
    /// The suggestion for `select`, the statement `key` names.
    pub fn get(
        &self,
        key: SuggestionKey<'_>,
        planner: &PlanContext,
        select: &Select,
        config: &LintConfig,
    ) -> Option<Suggestion> {
        if let Some(known) = self.lookup(key) {
            return known;
        }
        if !needs_query_table(planner, select) {
            self.remember(key, None);
            return None;
        }
        self.get_needed(key, planner, select, config)
    }

    /// [`SuggestionCache::get`] for a query already known to be refused or
    /// to scatter (its plan is not made again).
    pub fn get_needed(
        &self,
        key: SuggestionKey<'_>,
        planner: &PlanContext,
        select: &Select,
        config: &LintConfig,
    ) -> Option<Suggestion> {
        if let Some(known) = self.lookup(key) {
            return known;
        }
        let found = {
            let mut verifier = self.verifier.borrow_mut();
            if verifier.0 != key.generation {
                *verifier = (key.generation, Verifier::default());
            }
            suggest_with_scratch(planner, select, &mut verifier.1, config)
        };
        self.remember(key, found.clone());
        found
    }

    fn lookup(&self, key: SuggestionKey<'_>) -> Option<Option<Suggestion>> {
        self.known
            .borrow()
            .get(key.file)
            .and_then(|by_place| by_place.get(&(key.offset, key.generation)))
            .cloned()
    }

    fn remember(&self, key: SuggestionKey<'_>, found: Option<Suggestion>) {
        self.known
            .borrow_mut()
            .entry(key.file.to_string())
            .or_default()
            .insert((key.offset, key.generation), found);
    }
}
