//! Q007 `fine-grained-partition-key`.

use crate::planner::ALLOW_FILTERING_MESSAGE;
use crate::syntax::ast::{InValues, NativeType, RelationKind, Statement};
use crate::syntax::span::Span;
use crate::types::DataType;

use super::super::{Finding, Level, Rule, StatementContext};
use super::finding;

/// A query that needs many small partitions because a timestamp, timeuuid
/// or time sits in the partition key.
pub struct FineGrainedPartitionKey;

impl Rule for FineGrainedPartitionKey {
    fn name(&self) -> &'static str {
        "fine-grained-partition-key"
    }
    fn code(&self) -> &'static str {
        "Q007"
    }
    fn default_level(&self) -> Level {
        Level::Warning
    }
    fn summary(&self) -> &'static str {
        "too many small partitions: a query must visit many partitions because a timestamp sits in the partition key"
    }
    fn documentation(&self) -> &'static str {
        "## What it does\n\n\
         Reports a SELECT on a table whose partition key holds a fine-grained value — a \
         `timestamp`, `timeuuid` or `time` column — when the query needs several partitions \
         because of it: a range (`<`, `>`, …) on that column; a list of several values \
         (`IN`, `IN ?`) on it when it shares the partition key with another column; or the \
         column left out while the rest of the partition key is fixed (\"every reading of \
         this sensor\"). One finding per column, covering its restrictions. A `date` bucket \
         is not fine-grained and is not reported, nor is a time-based id that is the whole \
         partition key (an order by its `timeuuid`): several of those are \
         `partition-keys-in-select`'s (Q005).\n\n\
         ## Why it matters on a cluster\n\n\
         Too many small partitions: each value of the timestamp is its own partition, placed \
         on the ring by its token. A time range is then not a slice of one partition but a \
         visit to many partitions spread over every node — a filtered scan of the whole table, \
         or a long IN — and the read's latency grows with the number of partitions.\n\n\
         ## Example\n\n\
         ```cql\nCREATE TABLE readings (sensor_id text, reading_ts timestamp, temperature double,\n    \
         PRIMARY KEY ((sensor_id, reading_ts)));\n\
         SELECT * FROM readings WHERE sensor_id = 's-001'\n  \
         AND reading_ts >= '2025-06-01T08:00:00Z' AND reading_ts < '2025-06-01T09:00:00Z'\n  \
         ALLOW FILTERING;\n```\n\n\
         ## Instead\n\n\
         Move the fine-grained column to the clustering key, and bound the partition with a \
         coarse bucket:\n\n\
         ```cql\nCREATE TABLE sensor_readings (sensor_id text, reading_date date, reading_ts timestamp,\n    \
         temperature double, PRIMARY KEY ((sensor_id, reading_date), reading_ts))\n    \
         WITH CLUSTERING ORDER BY (reading_ts DESC);\n\
         SELECT * FROM sensor_readings WHERE sensor_id = 's-001' AND reading_date = '2025-06-01'\n  \
         AND reading_ts >= '2025-06-01T08:00:00Z' AND reading_ts < '2025-06-01T09:00:00Z';\n```\n\n\
         ## Options\n\nNone.\n\n\
         ## References\n\n\
         the column-family modelling method, *too many small partitions*; Apache Cassandra \
         documentation, *Data modeling: refining the model*; `examples/bad_designs.cql` §2.\n"
    }
    fn check_statement(&self, cx: &StatementContext<'_>, out: &mut Vec<Finding>) {
        let Statement::Select(select) = cx.statement else {
            return;
        };
        // A query refused for another reason is `invalid-statement`'s.
        if let Some(Err(error)) = cx.plan {
            if error.message() != ALLOW_FILTERING_MESSAGE {
                return;
            }
        }
        let Ok(table) = cx
            .planner
            .catalog
            .resolve_table(cx.planner.keyspace.as_deref(), &select.from)
        else {
            return;
        };
        let restricts = |name: &str| {
            select.where_clause.iter().any(|r| match &r.kind {
                RelationKind::Compare { column, .. } | RelationKind::In { column, .. } => {
                    column.name == name
                }
                _ => false,
            })
        };
        for column in table.partition_key_columns() {
            let DataType::Native(
                ty @ (NativeType::Timestamp | NativeType::Timeuuid | NativeType::Time),
            ) = &column.data_type
            else {
                continue;
            };
            let ty = format!("{ty:?}").to_ascii_lowercase();
            let name = &column.name;
            // A time-valued id as the whole key (an order by its timeuuid) is
            // an entity lookup: several of them are `partition-keys-in-select`'s.
            let composite = table.partition_key.len() > 1;
            let mut why: Option<String> = None;
            let mut span: Option<Span> = None;
            for relation in &select.where_clause {
                let reason = match &relation.kind {
                    RelationKind::Compare { column, op, .. }
                        if &column.name == name && op.is_slice() =>
                    {
                        format!("a range of {name}")
                    }
                    RelationKind::In {
                        column,
                        values: InValues::List(values),
                    } if composite && &column.name == name && values.len() > 1 => {
                        format!("{} values of {name}", values.len())
                    }
                    RelationKind::In {
                        column,
                        values: InValues::Marker(_),
                    } if composite && &column.name == name => format!("a list of {name} values"),
                    _ => continue,
                };
                why.get_or_insert(reason);
                span = Some(span.map_or(relation.span, |s| {
                    Span::new(
                        s.start.min(relation.span.start),
                        s.end.max(relation.span.end),
                    )
                }));
            }
            let found = why.is_some();
            if let (Some(why), Some(span)) = (why, span) {
                out.push(self.report(cx, span, table, name, &ty, &why));
            }
            let others_fixed = table
                .partition_key
                .iter()
                .filter(|k| *k != name)
                .any(|k| restricts(k));
            if !found && !restricts(name) && others_fixed {
                let why = format!("every value of {name}");
                out.push(self.report(cx, select.from.span, table, name, &ty, &why));
            }
        }
    }
}

impl FineGrainedPartitionKey {
    fn report(
        &self,
        cx: &StatementContext<'_>,
        span: Span,
        table: &crate::schema::Table,
        name: &str,
        ty: &str,
        why: &str,
    ) -> Finding {
        let message = format!(
            "too many small partitions: {name} ({ty}) is in the partition key of {}, so reading {why} visits one partition per value of {name}",
            table.qualified_name()
        );
        let mut f = finding(self, cx, span, message);
        f.help = Some(format!(
            "move {name} to the clustering columns and bound the partition with a coarse bucket (e.g. a date)"
        ));
        f
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::{Finding, Level, LintConfig};

    const SCHEMA: &str = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
        USE ks;
        CREATE TABLE readings (sensor_id text, reading_ts timestamp, temperature double,
            PRIMARY KEY ((sensor_id, reading_ts)));
        CREATE TABLE sensor_readings (sensor_id text, reading_date date, reading_ts timestamp,
            temperature double, PRIMARY KEY ((sensor_id, reading_date), reading_ts));
        CREATE TABLE orders_by_id (order_id timeuuid PRIMARY KEY, total decimal);";

    fn lint(query: &str) -> Vec<Finding> {
        let config = LintConfig {
            select: vec!["Q007".into()],
            ..LintConfig::default()
        };
        super::super::testing::lint_after_schema(config, SCHEMA, query)
    }

    #[test]
    fn range_on_a_timestamp_partition_key_is_reported() {
        let query = "SELECT * FROM readings WHERE sensor_id = 's-001' AND reading_ts >= '2025-06-01T08:00:00Z' AND reading_ts < '2025-06-02' ALLOW FILTERING;";
        let findings = lint(query);
        assert_eq!(findings.len(), 1);
        let f = &findings[0];
        assert_eq!(
            (f.name, f.code, f.level),
            ("fine-grained-partition-key", "Q007", Level::Warning)
        );
        assert!(
            f.message
                .starts_with("too many small partitions: reading_ts (timestamp)"),
            "{}",
            f.message
        );
        assert_eq!(
            &query[f.span.start..f.span.end],
            "reading_ts >= '2025-06-01T08:00:00Z' AND reading_ts < '2025-06-02'"
        );
        // Also when Cassandra refuses it for want of ALLOW FILTERING.
        assert_eq!(lint(&query.replace(" ALLOW FILTERING", "")).len(), 1);
    }

    #[test]
    fn lists_and_missing_timestamps_are_reported() {
        let list = lint("SELECT * FROM readings WHERE sensor_id = 's' AND reading_ts IN ('2025-06-01', '2025-06-02');");
        assert_eq!(list.len(), 1);
        assert!(
            list[0].message.contains("reading 2 values of reading_ts"),
            "{}",
            list[0].message
        );
        let missing = lint("SELECT * FROM readings WHERE sensor_id = 's' ALLOW FILTERING;");
        assert_eq!(missing.len(), 1);
        assert!(missing[0].message.contains("every value of reading_ts"));
    }

    #[test]
    fn point_reads_and_bucketed_tables_are_not_reported() {
        assert!(lint(
            "SELECT * FROM readings WHERE sensor_id = 's' AND reading_ts = '2025-06-01';"
        )
        .is_empty());
        assert!(lint("SELECT * FROM sensor_readings WHERE sensor_id = 's' AND reading_date IN ('2025-06-01', '2025-06-02') AND reading_ts > '2025-06-01';").is_empty());
        assert!(lint("SELECT * FROM readings;").is_empty());
        assert!(lint("SELECT * FROM orders_by_id WHERE order_id IN (d52fe800-4085-11f0-9345-0242ac120002, 6a56ec00-4200-11f0-9345-0242ac120002);").is_empty());
    }
}
