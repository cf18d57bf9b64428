//! M004 `compact-tables`.

use super::super::{Finding, Level, Rule, StatementContext};
use super::finding;
use crate::syntax::ast::{AlterTableAction, Statement, TableOption};
use crate::syntax::span::Span;

/// `WITH COMPACT STORAGE`: refused since Cassandra 4.0.
pub struct CompactTables;

/// Where `COMPACT STORAGE` is written in the statement's text.
fn compact_storage_span(text: &str) -> Option<Span> {
    let lower = text.to_ascii_lowercase();
    let mut from = 0;
    while let Some(at) = lower.get(from..).and_then(|rest| rest.find("compact")) {
        let start = from + at;
        let after = start + "compact".len();
        let rest = lower.get(after..).unwrap_or("");
        let trimmed = rest.trim_start();
        if rest.len() > trimmed.len() && trimmed.starts_with("storage") {
            let end = after + (rest.len() - trimmed.len()) + "storage".len();
            return Some(Span::new(start, end));
        }
        from = after;
    }
    None
}

impl Rule for CompactTables {
    fn name(&self) -> &'static str {
        "compact-tables"
    }
    fn code(&self) -> &'static str {
        "M004"
    }
    fn default_level(&self) -> Level {
        Level::Warning
    }
    fn summary(&self) -> &'static str {
        "COMPACT STORAGE is refused since Cassandra 4.0"
    }
    fn documentation(&self) -> &'static str {
        "## What it does\n\nReports `WITH COMPACT STORAGE` in CREATE TABLE, ALTER TABLE and materialized view \
         statements. Cassandra 5.0 refuses such a statement outright (the linter also reports the refusal as \
         `invalid-statement`); this finding says why and what to write instead.\n\n\
         ## Why it matters on a cluster\n\nCompact storage is the Thrift-era layout: tables limited to one regular \
         column (or none) per clustering, no static columns, no schema changes that add columns. Cassandra 3.0's \
         storage engine made it save nothing, 4.0 removed it (5.0's guardrail `compact_tables` refuses new ones), \
         and tables still using it must run `ALTER TABLE … DROP COMPACT STORAGE` before upgrading. A schema script \
         that still says `COMPACT STORAGE` fails on every node running 4.0 or later.\n\n\
         ## Example\n\n```cql\nCREATE TABLE kv (k text PRIMARY KEY, v blob) WITH COMPACT STORAGE;\n```\n\n\
         ## Instead\n\n```cql\nCREATE TABLE kv (k text PRIMARY KEY, v blob);\n```\n\n\
         On a cluster still on 3.x, run `ALTER TABLE kv DROP COMPACT STORAGE;` before upgrading.\n\n\
         ## Options\n\nNone.\n\n## References\n\nCASSANDRA-10857 (compact storage removed in 4.0); \
         Cassandra 5.0 guardrail `compact_tables` (`compact_tables_enabled` in `cassandra.yaml`); `NEWS.txt` for 4.0.\n"
    }
    fn check_statement(&self, cx: &StatementContext<'_>, out: &mut Vec<Finding>) {
        let (options, span, what) = match cx.statement {
            Statement::CreateTable(t) => (&t.options, t.span, "CREATE TABLE"),
            Statement::AlterTable(t) => match &t.action {
                AlterTableAction::With(options) => (options, t.span, "ALTER TABLE"),
                _ => return,
            },
            Statement::CreateMaterializedView(v) => {
                (&v.options, v.span, "CREATE MATERIALIZED VIEW")
            }
            Statement::AlterMaterializedView(v) => (&v.options, v.span, "ALTER MATERIALIZED VIEW"),
            _ => return,
        };
        if !options
            .iter()
            .any(|o| matches!(o, TableOption::CompactStorage))
        {
            return;
        }
        let at = compact_storage_span(&cx.source.text).unwrap_or(span);
        let mut f = finding(
            self,
            cx,
            at,
            format!(
                "{what} … WITH COMPACT STORAGE: compact tables were removed in Cassandra 4.0 and 5.0 refuses them"
            ),
        );
        f.help = Some(
            "remove WITH COMPACT STORAGE; on a 3.x cluster run ALTER TABLE … DROP COMPACT STORAGE before upgrading"
                .into(),
        );
        out.push(f);
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::{Finding, Level, LintConfig, Linter};

    fn lint(select: &[&str], text: &str) -> Vec<Finding> {
        let mut linter = Linter::new(LintConfig {
            select: select.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        });
        let mut findings = linter.lint_str("t.cql", text);
        findings.extend(linter.finish());
        findings
    }

    const KS: &str = "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 3};\nUSE ks;\n";

    #[test]
    fn compact_storage_is_reported_with_the_refusal() {
        let text =
            format!("{KS}CREATE TABLE kv (k text PRIMARY KEY, v blob)\n  WITH COMPACT   STORAGE;");
        let f = lint(&["M004", "E002"], &text);
        let names: Vec<&str> = f.iter().map(|f| f.name).collect();
        // Cassandra's refusal (E002) and this rule's explanation, together.
        assert_eq!(names, ["invalid-statement", "compact-tables"], "{f:?}");
        let f = &f[1];
        assert_eq!(f.code, "M004");
        assert_eq!(f.level, Level::Warning);
        assert_eq!(f.location.line, 4);
        assert_eq!(f.location.column, 8);
        assert_eq!(f.location.end_column, 25);
        assert!(f.message.contains("COMPACT STORAGE"));
    }

    #[test]
    fn plain_tables_are_quiet() {
        let f = lint(
            &["M004"],
            &format!("{KS}CREATE TABLE kv (k text PRIMARY KEY, v blob, compact_storage int);"),
        );
        assert!(f.is_empty(), "{f:?}");
    }
}
