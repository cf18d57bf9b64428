//! M001 `unbounded-partition`.

use super::super::{Finding, Level, Rule, StatementContext};
use super::finding;
use crate::schema::{Column, Table};
use crate::syntax::ast::{NativeType, PrimaryKey, Statement, TableElement};
use crate::syntax::span::Span;
use crate::types::DataType;

/// A table clustered by time whose partition key has no time bucket: every
/// row of an entity's history lands in one partition that never stops
/// growing.
pub struct UnboundedPartition;

/// The words of a column name, lower-cased: `reading_ts` and `"readingTs"`
/// both give `["reading", "ts"]`.
pub(super) fn name_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if c == '_' || c == '-' || c == ' ' {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            previous_lower = false;
            continue;
        }
        if c.is_uppercase() && previous_lower && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        previous_lower = c.is_lowercase() || c.is_ascii_digit();
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// Whether `name` (as stored) is in a list of names from the configuration
/// (compared case-insensitively).
pub(super) fn listed(list: &[String], name: &str) -> bool {
    list.iter().any(|n| n.eq_ignore_ascii_case(name))
}

/// The native type of a column, if it has one.
pub(super) fn native(column: &Column) -> Option<NativeType> {
    match &column.data_type {
        DataType::Native(t) => Some(*t),
        _ => None,
    }
}

/// Whether a clustering column orders rows by time.
fn is_time_clustering(column: &Column) -> bool {
    let words = name_words(&column.name);
    let last = words.last().map(String::as_str).unwrap_or("");
    let time_named = matches!(last, "ts" | "time" | "at" | "timestamp" | "datetime");
    match native(column) {
        Some(NativeType::Timestamp | NativeType::Date) => true,
        // A timeuuid named as an identifier (`message_id`, `order_id`) is
        // an event's id, not a time axis: `inbox_by_user (user_id,
        // message_id)` is bounded by the entity's life.
        Some(NativeType::Timeuuid) => !matches!(last, "id" | "uuid" | "ids") || time_named,
        _ => time_named,
    }
}

/// Whether a partition key column buckets time.
fn is_time_bucket(column: &Column, declared: &[String]) -> bool {
    if listed(declared, &column.name) {
        return true;
    }
    if matches!(
        native(column),
        Some(NativeType::Date | NativeType::Timestamp | NativeType::Time | NativeType::Timeuuid)
    ) {
        return true;
    }
    name_words(&column.name).iter().any(|w| {
        matches!(
            w.as_str(),
            "date"
                | "day"
                | "days"
                | "week"
                | "month"
                | "year"
                | "quarter"
                | "hour"
                | "minute"
                | "bucket"
                | "period"
                | "window"
                | "epoch"
                | "yyyymm"
                | "yyyymmdd"
                | "ymd"
        )
    })
}

/// The table a CREATE TABLE / CREATE MATERIALIZED VIEW made, with its
/// written PRIMARY KEY clause (if any) and the span of the statement.
pub(super) fn created_table<'a>(
    cx: &'a StatementContext<'_>,
) -> Option<(&'a Table, Option<&'a PrimaryKey>, Span)> {
    let (name, key, span) = match cx.statement {
        Statement::CreateTable(t) => (
            &t.name,
            t.elements.iter().find_map(|e| match e {
                TableElement::PrimaryKey(k) => Some(k),
                TableElement::Column(_) => None,
            }),
            t.span,
        ),
        Statement::CreateMaterializedView(v) => (&v.name, Some(&v.primary_key), v.span),
        _ => return None,
    };
    let table = cx
        .planner
        .catalog
        .resolve_table(cx.planner.keyspace.as_deref(), name)
        .ok()?;
    Some((table, key, span))
}

impl Rule for UnboundedPartition {
    fn name(&self) -> &'static str {
        "unbounded-partition"
    }
    fn code(&self) -> &'static str {
        "M001"
    }
    fn default_level(&self) -> Level {
        Level::Warning
    }
    fn summary(&self) -> &'static str {
        "a time-clustered table whose partition key has no time bucket grows without bound"
    }
    fn documentation(&self) -> &'static str {
        "## What it does\n\nReports a table (or materialized view) clustered by time — a clustering column of type \
         `timestamp`, `date` or `timeuuid`, or named like `*_ts`, `*_time`, `*_at`, `ts` — whose partition key \
         holds no time bucket: no `date`/`timestamp`/`time`/`timeuuid` column and no column named like \
         `*_date`, `day`, `week`, `month`, `year`, `hour`, `bucket`.\n\n\
         A `timeuuid` clustering column named as an identifier (`message_id`, `order_id`) is taken as an event id, \
         not a time axis: a user's inbox or order history is bounded by the user's life.\n\n\
         ## Why it matters on a cluster\n\nEvery row of an entity's history lands in one partition, on one replica \
         set, forever. At one reading a second a sensor passes Cassandra's guidance of 100,000 rows per partition in \
         about 28 hours, and 100 MB soon after. Large partitions mean compaction pressure, slow reads, heap pressure \
         during repair and streaming, and tombstones that pile up where TTLs expire.\n\n\
         ## Example\n\n```cql\nCREATE TABLE readings_by_sensor (\n    sensor_id   text,\n    reading_ts  timestamp,\n    \
         temperature double,\n    PRIMARY KEY (sensor_id, reading_ts)\n) WITH CLUSTERING ORDER BY (reading_ts DESC);\n```\n\n\
         ## Instead\n\nAdd a time bucket to the partition key, sized so one partition holds a bounded slice \
         (a day, an hour):\n\n```cql\nCREATE TABLE sensor_readings (\n    sensor_id    text,\n    reading_date date,\n    \
         reading_ts   timestamp,\n    temperature  double,\n    PRIMARY KEY ((sensor_id, reading_date), reading_ts)\n) \
         WITH CLUSTERING ORDER BY (reading_ts DESC);\n```\n\n\
         ## Options\n\n```toml\n[lint.options.unbounded-partition]\nbuckets = [\"shard_no\"]  # columns to count as time buckets\n```\n\n\
         ## References\n\nCassandra documentation, *Data modeling: partition size*; the 100 MB / 100,000 rows guidance; \
         guardrails `partition_size_warn_threshold`, `partition_size_fail_threshold` (5.0).\n"
    }
    fn check_statement(&self, cx: &StatementContext<'_>, out: &mut Vec<Finding>) {
        let Some((table, key, span)) = created_table(cx) else {
            return;
        };
        let Some(time) = table.clustering_columns().find(|c| is_time_clustering(c)) else {
            return;
        };
        let declared = cx
            .config
            .option_words(self.name(), "buckets")
            .unwrap_or_default();
        if table
            .partition_key_columns()
            .any(|c| is_time_bucket(c, &declared))
        {
            return;
        }
        let key_names: Vec<String> = table
            .partition_key_columns()
            .map(|c| c.cql_name())
            .collect();
        let mut f = finding(
            self,
            cx,
            key.map_or(span, |k| k.span),
            format!(
                "{} is clustered by time ({}) but its partition key ({}) has no time bucket: each partition grows without bound",
                table.qualified_name(),
                time.cql_name(),
                key_names.join(", ")
            ),
        );
        // `reading_ts` gives `reading_date`; a one-word name (`ts`) gives `day`.
        let words = name_words(&time.name);
        let bucket = match words.as_slice() {
            [first, _, ..] => format!("{first}_date"),
            _ => "day".to_string(),
        };
        f.help = Some(format!(
            "add a time bucket to the partition key, e.g. PRIMARY KEY (({}, {bucket}), {})",
            key_names.join(", "),
            table
                .clustering_columns()
                .map(|c| c.cql_name())
                .collect::<Vec<_>>()
                .join(", ")
        ));
        out.push(f);
    }
}

#[cfg(test)]
mod tests {
    use super::name_words;
    use crate::lint::{Finding, Level, LintConfig, Linter};

    fn lint(text: &str) -> Vec<Finding> {
        let mut linter = Linter::new(LintConfig {
            select: vec!["M001".into()],
            ..Default::default()
        });
        let mut findings = linter.lint_str("t.cql", text);
        findings.extend(linter.finish());
        findings
    }

    const KS: &str = "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 3};\nUSE ks;\n";

    #[test]
    fn words() {
        assert_eq!(name_words("reading_ts"), ["reading", "ts"]);
        assert_eq!(name_words("readingTs"), ["reading", "ts"]);
    }

    #[test]
    fn sensor_keyed_alone_is_unbounded() {
        let f = lint(&format!(
            "{KS}CREATE TABLE readings_by_sensor (\n    sensor_id text,\n    reading_ts timestamp,\n    temperature double,\n    PRIMARY KEY (sensor_id, reading_ts)\n) WITH CLUSTERING ORDER BY (reading_ts DESC);\n"
        ));
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].name, "unbounded-partition");
        assert_eq!(f[0].code, "M001");
        assert_eq!(f[0].level, Level::Warning);
        assert_eq!(f[0].location.line, 7);
        assert!(
            f[0].message.contains("ks.readings_by_sensor"),
            "{}",
            f[0].message
        );
        assert!(f[0].message.contains("reading_ts"));
        let help = f[0].help.as_deref().unwrap_or("");
        assert!(
            help.contains("((sensor_id, reading_date), reading_ts)"),
            "{help}"
        );
    }

    #[test]
    fn named_time_columns_count() {
        let f = lint(&format!(
            "{KS}CREATE TABLE events (device text, created_at bigint, v int, PRIMARY KEY (device, created_at));"
        ));
        assert_eq!(f.len(), 1);
        let f = lint(&format!(
            "{KS}CREATE TABLE events (device text, ts bigint, v int, PRIMARY KEY (device, ts));"
        ));
        assert_eq!(f.len(), 1);
    }

    #[test]
    fn good_designs_are_quiet() {
        let f = lint(&format!(
            "{KS}CREATE TABLE sensor_readings (sensor_id text, reading_date date, reading_ts timestamp, temperature double, \
             PRIMARY KEY ((sensor_id, reading_date), reading_ts)) WITH CLUSTERING ORDER BY (reading_ts DESC);\n\
             CREATE TABLE user_activity (user_id uuid, activity_date date, activity_ts timestamp, activity_type text, \
             PRIMARY KEY ((user_id, activity_date), activity_ts)) WITH CLUSTERING ORDER BY (activity_ts DESC);\n\
             CREATE TABLE inbox_by_user (user_id uuid, message_id timeuuid, subject text, PRIMARY KEY (user_id, message_id)) \
             WITH CLUSTERING ORDER BY (message_id DESC);\n\
             CREATE TABLE orders_by_user (user_id uuid, order_id timeuuid, total decimal, PRIMARY KEY (user_id, order_id)) \
             WITH CLUSTERING ORDER BY (order_id DESC);\n\
             CREATE TABLE orders_by_id (order_id timeuuid PRIMARY KEY, user_id uuid);\n\
             CREATE TABLE metrics (host text, bucket int, ts timestamp, v double, PRIMARY KEY ((host, bucket), ts));\n"
        ));
        assert!(f.is_empty(), "{f:?}");
    }

    #[test]
    fn declared_bucket_option() {
        let mut config = LintConfig {
            select: vec!["M001".into()],
            ..Default::default()
        };
        let mut options = serde_json::Map::new();
        options.insert("buckets".into(), serde_json::json!(["shard_no"]));
        config.options.insert("unbounded-partition".into(), options);
        let mut linter = Linter::new(config);
        let f = linter.lint_str(
            "t.cql",
            &format!("{KS}CREATE TABLE e (d text, shard_no int, ts timestamp, PRIMARY KEY ((d, shard_no), ts));"),
        );
        assert!(f.is_empty(), "{f:?}");
    }
}
