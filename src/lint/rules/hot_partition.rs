//! M002 `hot-partition`.

use super::super::{Finding, Level, Rule, StatementContext};
use super::finding;
use super::unbounded_partition::{created_table, listed, name_words, native};
use crate::schema::Column;
use crate::syntax::ast::{NativeType, PrimaryKey, Statement, TableElement};
use crate::syntax::span::Span;

/// A partition key with only a handful of values: all traffic for a value
/// goes to one replica set.
pub struct HotPartition;

/// Names of columns that usually hold a small set of values.
const ENUM_WORDS: &[&str] = &[
    "status", "state", "type", "kind", "category", "gender", "country", "region", "flag",
];

/// Whether a partition key column is likely to hold few distinct values.
fn is_low_cardinality(column: &Column, declared: &[String]) -> bool {
    if listed(declared, &column.name) || native(column) == Some(NativeType::Boolean) {
        return true;
    }
    let words = name_words(&column.name);
    match (words.first(), words.last()) {
        (Some(first), _) if words.len() > 1 && matches!(first.as_str(), "is" | "has") => true,
        (_, Some(last)) => ENUM_WORDS.contains(&last.as_str()),
        _ => false,
    }
}

/// Where a partition key column is written: in the PRIMARY KEY clause, or
/// as an inline `PRIMARY KEY` column definition.
fn key_column_span(
    cx: &StatementContext<'_>,
    key: Option<&PrimaryKey>,
    name: &str,
) -> Option<Span> {
    if let Some(ident) = key.and_then(|k| k.partition.iter().find(|i| i.name == name)) {
        return Some(ident.span);
    }
    match cx.statement {
        Statement::CreateTable(t) => t.elements.iter().find_map(|e| match e {
            TableElement::Column(c) if c.name.name == name => Some(c.span),
            _ => None,
        }),
        _ => None,
    }
}

impl Rule for HotPartition {
    fn name(&self) -> &'static str {
        "hot-partition"
    }
    fn code(&self) -> &'static str {
        "M002"
    }
    fn default_level(&self) -> Level {
        Level::Warning
    }
    fn summary(&self) -> &'static str {
        "a low-cardinality partition key concentrates load on a few replicas"
    }
    fn documentation(&self) -> &'static str {
        "## What it does\n\nReports a table (or materialized view) whose partition key columns are all likely to hold few \
         distinct values: `boolean` columns, enum-like names (`status`, `state`, `type`, `kind`, `category`, `gender`, \
         `country`, `region`, `flag`, `*_status`…, `is_*`, `has_*`), or columns declared low-cardinality in the \
         configuration. A key that also holds a high-cardinality or time-bucket column is not reported.\n\n\
         ## Why it matters on a cluster\n\nThe partition key decides which replicas store a row. With three statuses \
         there are three partitions: every write and read of `'pending'` orders goes to the same replica set while the \
         other nodes idle, and that partition is also unbounded. Adding nodes does not help: the load cannot spread \
         beyond the number of distinct key values.\n\n\
         ## Example\n\n```cql\nCREATE TABLE orders_by_status (\n    status   text,\n    order_id timeuuid,\n    \
         total    decimal,\n    PRIMARY KEY (status, order_id)\n);\n```\n\n\
         ## Instead\n\nServe the query from a table whose partition key spreads the load — add a time bucket and a \
         fixed number of shards — or query by a high-cardinality key:\n\n```cql\nCREATE TABLE orders_by_status (\n    \
         status text, order_date date, bucket int, order_id timeuuid, total decimal,\n    \
         PRIMARY KEY ((status, order_date, bucket), order_id)\n);\n```\n\n\
         ## Options\n\n```toml\n[lint.options.hot-partition]\nlow-cardinality = [\"tier\", \"plan\"]  # more columns known to hold few values\n```\n\n\
         ## References\n\nCassandra documentation, *Data modeling: partition key selection*; DataStax, *Hot partitions*.\n"
    }
    fn check_statement(&self, cx: &StatementContext<'_>, out: &mut Vec<Finding>) {
        let Some((table, key, span)) = created_table(cx) else {
            return;
        };
        let declared = cx
            .config
            .option_words(self.name(), "low-cardinality")
            .unwrap_or_default();
        let columns: Vec<&Column> = table.partition_key_columns().collect();
        if columns.is_empty() || !columns.iter().all(|c| is_low_cardinality(c, &declared)) {
            return;
        }
        let names: Vec<String> = columns.iter().map(|c| c.cql_name()).collect();
        let at = columns
            .first()
            .and_then(|c| key_column_span(cx, key, &c.name))
            .map(|first| {
                let last = columns
                    .last()
                    .and_then(|c| key_column_span(cx, key, &c.name))
                    .unwrap_or(first);
                Span::new(first.start, last.end.max(first.end))
            })
            .unwrap_or(span);
        let mut f = finding(
            self,
            cx,
            at,
            format!(
                "the partition key of {} ({}) has few distinct values: all rows of a value share one partition and one replica set",
                table.qualified_name(),
                names.join(", ")
            ),
        );
        f.help = Some(
            "partition by a high-cardinality column, or add a time bucket and a shard number to the partition key"
                .into(),
        );
        out.push(f);
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::{Finding, Level, LintConfig};

    use super::super::testing::lint_with;

    fn lint(text: &str) -> Vec<Finding> {
        lint_with(
            LintConfig {
                select: vec!["M002".into()],
                ..Default::default()
            },
            text,
        )
    }

    const KS: &str = "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 3};\nUSE ks;\n";

    #[test]
    fn status_partition_key() {
        let f = lint(&format!(
            "{KS}CREATE TABLE orders_by_status (\n  status text,\n  order_id timeuuid,\n  PRIMARY KEY (status, order_id)\n);"
        ));
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].name, "hot-partition");
        assert_eq!(f[0].code, "M002");
        assert_eq!(f[0].level, Level::Warning);
        assert_eq!(f[0].location.line, 6);
        assert_eq!(f[0].location.column, 16);
        assert!(f[0].message.contains("(status)"), "{}", f[0].message);
    }

    #[test]
    fn boolean_and_prefixed_names() {
        assert_eq!(
            lint(&format!(
                "{KS}CREATE TABLE t (active boolean PRIMARY KEY, v int);"
            ))
            .len(),
            1
        );
        assert_eq!(
            lint(&format!(
                "{KS}CREATE TABLE t (is_deleted int, id int, PRIMARY KEY (is_deleted, id));"
            ))
            .len(),
            1
        );
        assert_eq!(lint(&format!("{KS}CREATE TABLE t (order_status text, region text, id int, PRIMARY KEY ((order_status, region), id));")).len(), 1);
    }

    #[test]
    fn mixed_keys_and_good_designs_are_quiet() {
        let f = lint(&format!(
            "{KS}CREATE TABLE t1 (status text, order_date date, bucket int, order_id timeuuid, PRIMARY KEY ((status, order_date, bucket), order_id));\n\
             CREATE TABLE sensor_readings (sensor_id text, reading_date date, reading_ts timestamp, PRIMARY KEY ((sensor_id, reading_date), reading_ts));\n\
             CREATE TABLE inbox_by_user (user_id uuid, message_id timeuuid, PRIMARY KEY (user_id, message_id));\n\
             CREATE TABLE orders_by_id (order_id timeuuid PRIMARY KEY, status text);\n\
             CREATE TABLE states (statement_id int PRIMARY KEY);\n"
        ));
        assert!(f.is_empty(), "{f:?}");
    }

    #[test]
    fn declared_low_cardinality() {
        let mut config = LintConfig {
            select: vec!["hot-partition".into()],
            ..Default::default()
        };
        let mut options = serde_json::Map::new();
        options.insert("low-cardinality".into(), serde_json::json!(["tier"]));
        config.options.insert("hot-partition".into(), options);
        let f = lint_with(
            config,
            &format!("{KS}CREATE TABLE t (tier text, id int, PRIMARY KEY (tier, id));"),
        );
        assert_eq!(f.len(), 1);
    }
}
