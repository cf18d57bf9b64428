//! M006 `query-not-served`.

/// Names hashed fast: shapes are compared with every table of a keyspace.
type HashMap<K, V> = rustc_hash::FxHashMap<K, V>;

use super::super::{Finding, Level, ReadStatement, Rule, SchemaContext, StatementContext};
use super::finding;
use crate::planner::{plan_statement, QueryClass};
use crate::schema::{ColumnKind, Table};
use crate::syntax::ast::{
    Ident, Operator, Order, QualifiedName, RelationKind, Select, SelectClause, SelectorKind,
    Statement,
};
use crate::syntax::span::Span;

/// A table of `table`'s keyspace, other than `table`, that serves `select`
/// as a single-partition read and holds every column it returns: the query
/// should read it instead.
pub(crate) fn other_table_serving<'a>(
    keyspace: &'a crate::schema::Keyspace,
    table: &Table,
    select: &Select,
) -> Option<&'a Table> {
    let shape = Shape::read(select)?;
    let returns_all = |t: &Table| match &select.selection {
        SelectClause::Star => table.columns.keys().all(|c| t.columns.contains_key(c)),
        SelectClause::Items(items) => {
            let mut names = Vec::new();
            for item in items {
                crate::planner::selector_columns(&item.selector, &mut names);
            }
            names.iter().all(|n| t.columns.contains_key(&n.name))
        }
    };
    keyspace
        .tables
        .values()
        .find(|t| t.name != table.name && shape.served_by(t) && returns_all(t))
}

/// A SELECT that no table of the schema serves from one partition: the
/// "one table per query" method asks for a table designed for it.
pub struct QueryNotServed;

/// How a query restricts one column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Restriction {
    /// `=`, or `IN` (each value is one partition or one clustering prefix).
    Eq,
    /// `<`, `<=`, `>`, `>=`: a slice.
    Slice,
}

/// What a query asks of a table, read from its WHERE clause and ORDER BY.
struct Shape {
    /// Restricted columns, by name.
    restrictions: HashMap<String, Restriction>,
    /// Columns of multi-column slices, `(a, b) > (1, 2)`, in the order written.
    multi_slices: Vec<Vec<String>>,
    /// ORDER BY columns and directions.
    order_by: Vec<(String, Order)>,
    /// Columns the selection names.
    selected: Vec<String>,
}

impl Shape {
    /// The shape of a query, or `None` when it uses a relation no primary key
    /// serves (`token(…)`, `CONTAINS`, `LIKE`, map entries, `!=`).
    fn read(select: &Select) -> Option<Shape> {
        let mut restrictions = HashMap::default();
        let mut multi_slices = Vec::new();
        let mut put = |column: &Ident, r: Restriction| {
            let entry = restrictions.entry(column.name.clone()).or_insert(r);
            if *entry != r {
                *entry = Restriction::Slice;
            }
        };
        for relation in &select.where_clause {
            match &relation.kind {
                RelationKind::Compare { column, op, .. } => match op {
                    Operator::Eq => put(column, Restriction::Eq),
                    Operator::Ne => return None,
                    _ => put(column, Restriction::Slice),
                },
                RelationKind::In { column, .. } => put(column, Restriction::Eq),
                RelationKind::MultiCompare { columns, op, .. } => match op {
                    Operator::Eq => columns.iter().for_each(|c| put(c, Restriction::Eq)),
                    Operator::Ne => return None,
                    _ => multi_slices.push(columns.iter().map(|c| c.name.clone()).collect()),
                },
                RelationKind::MultiIn { columns, .. } => {
                    columns.iter().for_each(|c| put(c, Restriction::Eq))
                }
                RelationKind::IsNotNull { .. } => {}
                RelationKind::Contains { .. }
                | RelationKind::MapEntry { .. }
                | RelationKind::Token { .. }
                | RelationKind::Like { .. } => return None,
            }
        }
        let order_by = select
            .order_by
            .iter()
            .map(|o| (o.column.name.clone(), o.order.unwrap_or_default()))
            .collect();
        let selected = match &select.selection {
            SelectClause::Star => Vec::new(),
            SelectClause::Items(items) => items
                .iter()
                .filter_map(|item| match &item.selector.kind {
                    SelectorKind::Column(c) => Some(c.name.clone()),
                    SelectorKind::Metadata { column, .. } => Some(column.name.clone()),
                    _ => None,
                })
                .collect(),
        };
        Some(Shape {
            restrictions,
            multi_slices,
            order_by,
            selected,
        })
    }

    /// Whether `table` serves the query as a single-partition read: its
    /// partition key is fixed by equalities, the other restrictions are a
    /// clustering prefix (equalities, then at most one slice), and ORDER BY
    /// follows its clustering order or its reverse.
    fn served_by(&self, table: &Table) -> bool {
        // The partition key first: it rules out most tables at once.
        if !table
            .partition_key
            .iter()
            .all(|k| self.restrictions.get(k) == Some(&Restriction::Eq))
        {
            return false;
        }
        let mentioned = self
            .restrictions
            .keys()
            .chain(self.multi_slices.iter().flatten())
            .chain(self.order_by.iter().map(|(c, _)| c))
            .chain(self.selected.iter());
        if mentioned.into_iter().any(|c| table.column(c).is_none()) {
            return false;
        }
        // Clustering prefix: equalities, then one slice (single or
        // multi-column), then nothing restricted.
        let mut position = 0;
        while table
            .clustering
            .get(position)
            .is_some_and(|c| self.restrictions.get(c) == Some(&Restriction::Eq))
        {
            position += 1;
        }
        let mut sliced: Vec<&String> = Vec::new();
        if let Some(c) = table.clustering.get(position) {
            if self.restrictions.get(c) == Some(&Restriction::Slice) {
                sliced.push(c);
            }
        }
        match self.multi_slices.as_slice() {
            [] => {}
            [columns] if sliced.is_empty() => {
                let expected = table.clustering.iter().skip(position).take(columns.len());
                if !columns.iter().eq(expected) {
                    return false;
                }
                sliced.extend(columns.iter());
            }
            _ => return false,
        }
        let in_prefix = |c: &String| table.clustering.iter().take(position).any(|p| p == c);
        let unserved = self
            .restrictions
            .keys()
            .filter(|c| !table.partition_key.contains(c))
            .any(|c| !in_prefix(c) && !sliced.contains(&c));
        if unserved {
            return false;
        }
        self.order_fits(table)
    }

    /// Whether ORDER BY names clustering columns in their order (skipping
    /// columns fixed by equality), all in their declared direction or all
    /// reversed.
    fn order_fits(&self, table: &Table) -> bool {
        if self.order_by.is_empty() {
            return true;
        }
        let mut reversed = None;
        let mut next = 0;
        for (column, order) in &self.order_by {
            let Some(col) = table.column(column) else {
                return false;
            };
            let ColumnKind::Clustering(index, declared) = col.kind else {
                return false;
            };
            if index < next {
                return false;
            }
            let skipped_unfixed = table
                .clustering
                .get(next..index)
                .unwrap_or_default()
                .iter()
                .any(|c| self.restrictions.get(c) != Some(&Restriction::Eq));
            if skipped_unfixed {
                return false;
            }
            let flip = *order != declared;
            if *reversed.get_or_insert(flip) != flip {
                return false;
            }
            next = index + 1;
        }
        true
    }
}

/// The keyspace a query's table lives in: written, else the `USE` before
/// it in its file, else the session's last keyspace, else the only keyspace
/// with a table of that name.
/// The `USE` statements of each file, in file order: (offset, keyspace).
fn uses_by_file<'a>(cx: &'a SchemaContext<'_>) -> HashMap<&'a str, Vec<(usize, &'a str)>> {
    let mut uses: HashMap<&str, Vec<(usize, &str)>> = HashMap::default();
    for s in cx.statements {
        if let Statement::Use(u) = &s.statement {
            uses.entry(s.file.as_str())
                .or_default()
                .push((s.source.offset, u.keyspace.name.as_str()));
        }
    }
    for list in uses.values_mut() {
        list.sort_unstable();
    }
    uses
}

fn keyspace_of(
    cx: &SchemaContext<'_>,
    uses: &HashMap<&str, Vec<(usize, &str)>>,
    query: &ReadStatement,
    name: &QualifiedName,
) -> Option<String> {
    if let Some(ks) = &name.keyspace {
        return Some(ks.name.clone());
    }
    let used = uses.get(query.file.as_str()).and_then(|list| {
        let before = list.partition_point(|(offset, _)| *offset < query.source.offset);
        before.checked_sub(1).map(|i| list[i].1.to_string())
    });
    let has = |ks: &str| cx.planner.catalog.table(ks, &name.name.name).is_some();
    if let Some(ks) = used.filter(|ks| has(ks)) {
        return Some(ks);
    }
    if let Some(ks) = cx.planner.keyspace.as_deref().filter(|ks| has(ks)) {
        return Some(ks.to_string());
    }
    let mut owners = cx
        .planner
        .catalog
        .keyspaces()
        .filter(|k| k.tables.contains_key(&name.name.name));
    match (owners.next(), owners.next()) {
        (Some(only), None) => Some(only.name.clone()),
        _ => None,
    }
}

/// The span a finding points at: the WHERE clause, or the table name.
fn where_span(select: &Select) -> Span {
    match (select.where_clause.first(), select.where_clause.last()) {
        (Some(first), Some(last)) => Span::new(first.span.start, last.span.end.max(first.span.end)),
        _ => select.from.span,
    }
}

impl Rule for QueryNotServed {
    fn name(&self) -> &'static str {
        "query-not-served"
    }
    fn code(&self) -> &'static str {
        "M006"
    }
    fn default_level(&self) -> Level {
        Level::Warning
    }
    fn summary(&self) -> &'static str {
        "no table of the schema serves the query from one partition"
    }
    fn documentation(&self) -> &'static str {
        "## What it does\n\nApplies the \"one table per query\" method once every file is read. For each SELECT that \
         does not plan as `point-lookup` or `partition-scan` (a scatter-gather read, or a query Cassandra refuses), it \
         looks for any table of the query's keyspace that could serve it as a single-partition read: a table holding \
         every column the query names, whose partition key columns are all restricted by `=` (or `IN`), whose other \
         restrictions form a clustering prefix (equalities, then at most one slice), and whose clustering order (or its \
         reverse) follows the ORDER BY. When there is none, the query is reported, with the CREATE TABLE of a query \
         table and the query rewritten against it when one can be derived. Queries using `token(…)`, `CONTAINS`, \
         `LIKE`, map entries or `!=` are reported too: no primary key serves them.\n\n\
         When another table does serve the query, it is not reported here: the query should simply read that table \
         (the query rules report the plan).\n\n\
         ## Why it matters on a cluster\n\nCassandra has no joins and no query optimiser: a query is cheap only when \
         one table was designed for it. A query without such a table either fails (`ALLOW FILTERING` required) or \
         reads every node. Writes are cheap; denormalising into one table per query is the expected design.\n\n\
         ## Example\n\n```cql\nCREATE TABLE users (user_id uuid PRIMARY KEY, email text, name text);\n\
         SELECT * FROM users WHERE email = 'alice@example.com' ALLOW FILTERING;\n```\n\n\
         ## Instead\n\n```cql\nCREATE TABLE users_by_email (email text, user_id uuid, name text, PRIMARY KEY (email, user_id));\n\
         SELECT * FROM users_by_email WHERE email = 'alice@example.com';\n```\n\n\
         ## Options\n\nNone.\n\n## References\n\nthe column-family modelling method: design a table for \
         each query pattern; Cassandra documentation, *Data modeling: query-driven design*.\n"
    }
    fn check_schema(&self, cx: &SchemaContext<'_>, out: &mut Vec<Finding>) {
        let uses = uses_by_file(cx);
        for query in cx.queries {
            let Statement::Select(select) = &query.statement else {
                continue;
            };
            let Some(keyspace) = keyspace_of(cx, &uses, query, &select.from) else {
                continue;
            };
            let qualify = || {
                let mut qualified = select.clone();
                qualified.from.keyspace = Some(Ident::new(keyspace.clone()));
                qualified
            };
            // The plan made when the query was read holds while no schema
            // statement came after it and it resolved to the same keyspace.
            let same_keyspace = select.from.keyspace.is_some()
                || cx.planner.keyspace.as_deref() == Some(keyspace.as_str());
            let class = match query.planned {
                Some((generation, class)) if generation == cx.generation && same_keyspace => class,
                _ => plan_statement(cx.planner, &Statement::Select(qualify()))
                    .ok()
                    .map(|plan| plan.class),
            };
            let how = match class {
                Some(class) if class != QueryClass::ScatterGather => continue,
                Some(_) => "asks every node",
                None => "is refused",
            };
            let qualified = qualify();
            let Some(ks) = cx.planner.catalog.keyspace(&keyspace) else {
                continue;
            };
            let served = Shape::read(select)
                .is_some_and(|shape| ks.tables.values().any(|t| shape.served_by(t)));
            if served {
                continue;
            }
            let scx = StatementContext {
                planner: cx.planner,
                statement: &query.statement,
                file: &query.file,
                source: &query.source,
                plan: None,
                config: cx.config,
                suggestions: cx.suggestions,
                generation: cx.generation,
            };
            let mut f = finding(
                self,
                &scx,
                where_span(select),
                format!(
                    "no table in keyspace {keyspace} serves this query from one partition: on {keyspace}.{} it {how}",
                    select.from.name.name
                ),
            );
            let key = crate::lint::suggest::SuggestionKey {
                file: &query.file,
                offset: query.source.offset,
                generation: cx.generation,
            };
            match cx
                .suggestions
                .get_needed(key, cx.planner, &qualified, cx.config)
            {
                Some(suggestion) => {
                    if suggestion.has_design() {
                        f.suggestion = Some(suggestion.script());
                    }
                    f.help = Some(suggestion.help);
                }
                None => {
                    f.help = Some(
                        "design a table for this query: its partition key the columns the query fixes by equality, its clustering columns the ranges and ORDER BY"
                            .into(),
                    );
                }
            }
            out.push(f);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::{Finding, Level, LintConfig, Linter};

    fn lint(text: &str) -> Vec<Finding> {
        let mut linter = Linter::new(LintConfig {
            select: vec!["M006".into()],
            ..Default::default()
        });
        let mut findings = linter.lint_str("t.cql", text);
        findings.extend(linter.finish());
        findings
    }

    const SCHEMA: &str = "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 3};\nUSE ks;\n\
        CREATE TABLE users (user_id uuid PRIMARY KEY, email text, name text, country text);\n\
        CREATE TABLE sensor_readings (sensor_id text, reading_date date, reading_ts timestamp, temperature double, \
        PRIMARY KEY ((sensor_id, reading_date), reading_ts)) WITH CLUSTERING ORDER BY (reading_ts DESC);\n";

    #[test]
    fn unserved_query_is_reported_with_a_suggestion() {
        let f = lint(&format!(
            "{SCHEMA}SELECT * FROM users\n  WHERE email = 'alice@example.com' ALLOW FILTERING;"
        ));
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].name, "query-not-served");
        assert_eq!(f[0].code, "M006");
        assert_eq!(f[0].level, Level::Warning);
        assert_eq!((f[0].location.line, f[0].location.column), (6, 9));
        assert_eq!(
            f[0].message,
            "no table in keyspace ks serves this query from one partition: on ks.users it asks every node"
        );
        let suggestion = f[0].suggestion.as_deref().unwrap_or("");
        assert!(suggestion.contains("CREATE TABLE"), "{suggestion}");
        assert!(suggestion.contains("\nSELECT"), "{suggestion}");
        assert!(f[0].help.is_some());
    }

    #[test]
    fn a_query_table_elsewhere_serves_it() {
        let f = lint(&format!(
            "{SCHEMA}CREATE TABLE users_by_email (email text, user_id uuid, name text, PRIMARY KEY (email, user_id));\n\
             SELECT name FROM users WHERE email = 'alice@example.com' ALLOW FILTERING;"
        ));
        assert!(f.is_empty(), "{f:?}");
    }

    #[test]
    fn the_query_table_may_come_later() {
        let f = lint(&format!(
            "{SCHEMA}SELECT * FROM sensor_readings WHERE sensor_id = 's' AND reading_ts > '2025-06-01' ALLOW FILTERING;\n\
             CREATE TABLE readings_by_sensor_only (sensor_id text, reading_ts timestamp, reading_date date, temperature double, \
             PRIMARY KEY (sensor_id, reading_ts));"
        ));
        assert!(f.is_empty(), "{f:?}");
    }

    #[test]
    fn single_partition_queries_are_quiet() {
        let f = lint(&format!(
            "{SCHEMA}SELECT * FROM users WHERE user_id = 550e8400-e29b-41d4-a716-446655440000;\n\
             SELECT * FROM sensor_readings WHERE sensor_id = 's' AND reading_date = '2025-06-01' AND reading_ts >= '2025-06-01T08:00:00Z' ORDER BY reading_ts ASC;\n\
             SELECT * FROM sensor_readings WHERE sensor_id IN ('a', 'b') AND reading_date = '2025-06-01';\n"
        ));
        assert!(f.is_empty(), "{f:?}");
    }

    #[test]
    fn order_and_clustering_must_fit() {
        let f = lint(&format!(
            "{SCHEMA}SELECT * FROM sensor_readings WHERE temperature > 30 ALLOW FILTERING;\n\
             SELECT * FROM users;\n"
        ));
        assert_eq!(f.len(), 2, "{f:?}");
        assert_eq!(f[1].location.line, 6);
    }
}
