//! W001 `batch-across-partitions`.

use crate::planner::{plan_statement, Partitions};
use crate::syntax::ast::{Batch, BatchKind, BatchStatement, Statement};
use crate::syntax::span::Span;

use super::super::{Finding, Level, Rule, StatementContext};
use super::finding;

/// The default of the `threshold` option.
const DEFAULT_THRESHOLD: u64 = 1;

/// A batch that writes several partitions where it should write one.
pub struct BatchAcrossPartitions;

impl Rule for BatchAcrossPartitions {
    fn name(&self) -> &'static str {
        "batch-across-partitions"
    }
    fn code(&self) -> &'static str {
        "W001"
    }
    fn default_level(&self) -> Level {
        Level::Warning
    }
    fn summary(&self) -> &'static str {
        "a batch writes several partitions: an unlogged one across the batch, a logged one within one table"
    }
    fn documentation(&self) -> &'static str {
        "## What it does\n\n\
         Reports a batch used as a bulk write:\n\n\
         - an `UNLOGGED` or `COUNTER` batch whose statements address more partitions than the \
         threshold (counted over the whole batch, as the planner merges them);\n\
         - a logged batch that writes more partitions *of one table* than the threshold. A \
         logged batch writing one partition in each of several denormalized tables (the same \
         order in `orders_by_user` and `orders_by_id`) is what logged batches are for, and is \
         not reported.\n\n\
         ## Why it matters on a cluster\n\n\
         A batch is not a performance tool. The coordinator of a multi-partition batch sends \
         every mutation to every partition's replica set and waits for all of them, holding the \
         whole batch in memory; one slow replica set slows the batch, and a large one trips \
         `batch_size_warn_threshold` or `batch_size_fail_threshold`. An unlogged batch across \
         partitions also gives no atomicity. A logged batch adds the batchlog: two more writes \
         to other nodes before anything is applied. Separate asynchronous writes, each routed \
         token-aware to a replica, are faster and spread the load.\n\n\
         ## Example\n\n\
         ```cql\nBEGIN UNLOGGED BATCH\n  INSERT INTO users (user_id, name) VALUES (1, 'a');\n  \
         INSERT INTO users (user_id, name) VALUES (2, 'b');\nAPPLY BATCH;\n```\n\n\
         ## Instead\n\n\
         Send the writes as separate (asynchronous, prepared) statements. Keep batches for \
         several rows of one partition (unlogged), or for one entity's denormalized copies \
         across tables (logged).\n\n\
         ## Options\n\n\
         - `threshold` (default 1): the number of partitions a batch (unlogged) or a table \
         within a batch (logged) may write without a finding. Cassandra itself logs a warning \
         for unlogged batches over `unlogged_batch_across_partitions_warn_threshold` (10) \
         partitions.\n\n\
         ## References\n\n\
         `cassandra.yaml`: `unlogged_batch_across_partitions_warn_threshold`, \
         `batch_size_warn_threshold`; Apache Cassandra documentation, *BATCH*; the column-family modelling method.\n"
    }
    fn check_statement(&self, cx: &StatementContext<'_>, out: &mut Vec<Finding>) {
        let (Statement::Batch(batch), Some(Ok(plan))) = (cx.statement, cx.plan) else {
            return;
        };
        let threshold = cx
            .config
            .option_u64(self.name(), "threshold", DEFAULT_THRESHOLD);
        let span = header_span(&cx.source.text, batch.span);
        match batch.kind {
            BatchKind::Unlogged | BatchKind::Counter => {
                let Partitions::Keys { partitions } = &plan.partitions else {
                    return;
                };
                let n = partitions.len();
                if n as u64 <= threshold {
                    return;
                }
                let kind = if batch.kind == BatchKind::Counter {
                    "counter"
                } else {
                    "unlogged"
                };
                let message = format!(
                    "{kind} batch spans {n} partitions of {}: the coordinator waits on {} nodes ({}) and nothing is atomic",
                    plan.table,
                    plan.nodes.len(),
                    plan.nodes.join(", ")
                );
                let mut f = finding(self, cx, span, message);
                f.help = Some(
                    "send the writes as separate asynchronous statements; batch only rows of one partition"
                        .into(),
                );
                out.push(f);
            }
            BatchKind::Logged => {
                for (table, n) in partitions_per_table(cx, batch) {
                    if n as u64 <= threshold {
                        continue;
                    }
                    let message = format!(
                        "logged batch writes {n} partitions of {table}: a logged batch keeps one entity's denormalized tables in step; as a bulk write it costs a batchlog and waits on every replica set"
                    );
                    let mut f = finding(self, cx, span, message);
                    f.help = Some(
                        "send the writes as separate asynchronous statements; in a logged batch, write one partition per table"
                            .into(),
                    );
                    out.push(f);
                }
            }
        }
    }
}

/// A partition as a plan names it: key values and token, as text.
type PartitionKey = (Vec<String>, String);

/// For each table a batch writes, the number of different partitions.
fn partitions_per_table(cx: &StatementContext<'_>, batch: &Batch) -> Vec<(String, usize)> {
    let mut tables: Vec<(String, Vec<PartitionKey>)> = Vec::new();
    for statement in &batch.statements {
        let statement = match statement {
            BatchStatement::Insert(s) => Statement::Insert(s.clone()),
            BatchStatement::Update(s) => Statement::Update(s.clone()),
            BatchStatement::Delete(s) => Statement::Delete(s.clone()),
        };
        let Ok(plan) = plan_statement(cx.planner, &statement) else {
            continue;
        };
        let Partitions::Keys { partitions } = plan.partitions else {
            continue;
        };
        let at = match tables.iter().position(|(t, _)| *t == plan.table) {
            Some(at) => at,
            None => {
                tables.push((plan.table.clone(), Vec::new()));
                tables.len() - 1
            }
        };
        let keys = &mut tables[at].1;
        for p in partitions {
            let key = (p.key, p.token.to_string());
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
    }
    tables
        .into_iter()
        .map(|(t, keys)| (t, keys.len()))
        .collect()
}

/// `BEGIN … BATCH` at the start of the batch.
fn header_span(text: &str, batch: Span) -> Span {
    let lower = text.to_ascii_lowercase();
    lower
        .get(batch.start..batch.end.min(lower.len()))
        .and_then(|s| s.find("batch"))
        .map_or(batch, |at| {
            Span::new(batch.start, batch.start + at + "batch".len())
        })
}

#[cfg(test)]
mod tests {
    use crate::lint::{Finding, Level, LintConfig};

    const SCHEMA: &str = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
        USE ks;
        CREATE TABLE users (user_id int PRIMARY KEY, name text);
        CREATE TABLE users_by_name (name text PRIMARY KEY, user_id int);
        CREATE TABLE events (k int, c int, v int, PRIMARY KEY (k, c));";

    fn lint(query: &str) -> Vec<Finding> {
        let config = LintConfig {
            select: vec!["W001".into()],
            ..LintConfig::default()
        };
        super::super::testing::lint_after_schema(config, SCHEMA, query)
    }

    #[test]
    fn unlogged_batch_over_two_partitions_is_reported() {
        let query = "BEGIN UNLOGGED BATCH INSERT INTO users (user_id, name) VALUES (1, 'a'); INSERT INTO users (user_id, name) VALUES (2, 'b'); APPLY BATCH;";
        let findings = lint(query);
        assert_eq!(findings.len(), 1);
        let f = &findings[0];
        assert_eq!(
            (f.name, f.code, f.level),
            ("batch-across-partitions", "W001", Level::Warning)
        );
        assert!(
            f.message
                .starts_with("unlogged batch spans 2 partitions of ks.users"),
            "{}",
            f.message
        );
        assert_eq!(&query[f.span.start..f.span.end], "BEGIN UNLOGGED BATCH");
    }

    #[test]
    fn logged_bulk_write_to_one_table_is_reported() {
        let findings = lint("BEGIN BATCH INSERT INTO users (user_id, name) VALUES (1, 'a'); INSERT INTO users (user_id, name) VALUES (2, 'b'); APPLY BATCH;");
        assert_eq!(findings.len(), 1);
        assert!(findings[0]
            .message
            .starts_with("logged batch writes 2 partitions of ks.users"));
    }

    #[test]
    fn one_partition_or_denormalized_copies_are_not_reported() {
        assert!(lint("BEGIN UNLOGGED BATCH INSERT INTO events (k, c, v) VALUES (1, 1, 1); INSERT INTO events (k, c, v) VALUES (1, 2, 1); APPLY BATCH;").is_empty());
        assert!(lint("BEGIN BATCH INSERT INTO users (user_id, name) VALUES (1, 'a'); INSERT INTO users_by_name (name, user_id) VALUES ('a', 1); APPLY BATCH;").is_empty());
    }
}
