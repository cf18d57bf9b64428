//! W004 `read-before-write-list-operations`.

use crate::schema::Table;
use crate::syntax::ast::{
    ArithmeticSign, AssignmentKind, BatchStatement, ColumnRef, Delete, QualifiedName, Statement,
    Update,
};
use crate::syntax::span::Span;
use crate::types::DataType;

use super::super::{Finding, Level, Rule, StatementContext};
use super::finding;

/// List operations that read the list before writing it.
pub struct ReadBeforeWriteListOperations;

impl Rule for ReadBeforeWriteListOperations {
    fn name(&self) -> &'static str {
        "read-before-write-list-operations"
    }
    fn code(&self) -> &'static str {
        "W004"
    }
    fn default_level(&self) -> Level {
        Level::Warning
    }
    fn summary(&self) -> &'static str {
        "a list operation reads the list before writing it"
    }
    fn documentation(&self) -> &'static str {
        "## What it does\n\n\
         Reports the operations on a (non-frozen) `list` column that Cassandra can only apply \
         by reading the list first: setting an element by index (`l[i] = v`), removing \
         values (`l = l - [...]`, `l -= [...]`), and deleting an element by index \
         (`DELETE l[i] FROM …`), in UPDATE, DELETE and inside batches. Appending and \
         prepending do not read, and are not reported.\n\n\
         ## Why it matters on a cluster\n\n\
         A write in Cassandra is normally blind: no read, just a new cell. These operations \
         turn it into a local read of the whole list on every replica, then a write — slower, \
         and not atomic with respect to concurrent writers: two clients replacing `l[2]` or \
         removing values at once can act on different versions of the list, and an index can \
         point at a different element by the time it is applied.\n\n\
         ## Example\n\n\
         ```cql\nUPDATE playlists SET songs[2] = 'song-9' WHERE id = 1;\n\
         UPDATE playlists SET songs = songs - ['song-3'] WHERE id = 1;\n\
         DELETE songs[0] FROM playlists WHERE id = 1;\n```\n\n\
         ## Instead\n\n\
         Use a `set` when order does not matter (adding and removing are blind), a `map` keyed \
         by position or id when elements are replaced, or clustering rows (one row per element) \
         for long or often-edited sequences. Replace a whole list with `l = [...]`.\n\n\
         ## Options\n\nNone.\n\n\
         ## References\n\n\
         Cassandra guardrail `read_before_write_list_operations_enabled` (`cassandra.yaml`, \
         4.1+); Apache Cassandra documentation, *Collections: lists*.\n"
    }
    fn check_statement(&self, cx: &StatementContext<'_>, out: &mut Vec<Finding>) {
        match cx.statement {
            Statement::Update(s) => self.update(cx, s, out),
            Statement::Delete(s) => self.delete(cx, s, out),
            Statement::Batch(batch) => {
                for statement in &batch.statements {
                    match statement {
                        BatchStatement::Update(s) => self.update(cx, s, out),
                        BatchStatement::Delete(s) => self.delete(cx, s, out),
                        BatchStatement::Insert(_) => {}
                    }
                }
            }
            _ => {}
        }
    }
}

impl ReadBeforeWriteListOperations {
    fn update(&self, cx: &StatementContext<'_>, update: &Update, out: &mut Vec<Finding>) {
        let Some(table) = table(cx, &update.table) else {
            return;
        };
        for assignment in &update.assignments {
            let (column, what) = match &assignment.kind {
                AssignmentKind::Set {
                    target: ColumnRef::Element(column, _),
                    ..
                } => (column, "setting an element by index"),
                AssignmentKind::Apply {
                    column,
                    op: ArithmeticSign::Minus,
                    ..
                } => (column, "removing values"),
                _ => continue,
            };
            if is_list(table, &column.name) {
                out.push(self.report(cx, assignment.span, &column.name, what));
            }
        }
    }

    fn delete(&self, cx: &StatementContext<'_>, delete: &Delete, out: &mut Vec<Finding>) {
        let Some(table) = table(cx, &delete.table) else {
            return;
        };
        for target in &delete.targets {
            let ColumnRef::Element(column, index) = target else {
                continue;
            };
            if is_list(table, &column.name) {
                let span = Span::new(column.span.start, index.span.end + 1);
                let span = if cx.source.text.get(index.span.end..span.end) == Some("]") {
                    span
                } else {
                    column.span
                };
                out.push(self.report(cx, span, &column.name, "deleting an element by index"));
            }
        }
    }

    fn report(&self, cx: &StatementContext<'_>, span: Span, column: &str, what: &str) -> Finding {
        let message =
            format!("{what} of list {column} reads the whole list on every replica before writing");
        let mut f = finding(self, cx, span, message);
        f.help = Some(
            "use a set, a map keyed by position, or one clustering row per element; or replace the whole list".into(),
        );
        f
    }
}

fn table<'a>(cx: &'a StatementContext<'_>, name: &QualifiedName) -> Option<&'a Table> {
    cx.planner
        .catalog
        .resolve_table(cx.planner.keyspace.as_deref(), name)
        .ok()
}

/// Whether `name` is a non-frozen list column of `table`.
fn is_list(table: &Table, name: &str) -> bool {
    table
        .column(name)
        .is_some_and(|c| matches!(c.data_type, DataType::List { frozen: false, .. }))
}

#[cfg(test)]
mod tests {
    use crate::lint::{Finding, Level, LintConfig};

    const SCHEMA: &str = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
        USE ks;
        CREATE TABLE p (id int PRIMARY KEY, songs list<text>, tags set<text>, m map<int, text>);";

    fn lint(query: &str) -> Vec<Finding> {
        let config = LintConfig {
            select: vec!["W004".into()],
            ..LintConfig::default()
        };
        super::super::testing::lint_after_schema(config, SCHEMA, query)
    }

    #[test]
    fn element_set_is_reported_at_the_assignment() {
        let query = "UPDATE p SET songs[2] = 'x' WHERE id = 1;";
        let findings = lint(query);
        assert_eq!(findings.len(), 1);
        let f = &findings[0];
        assert_eq!(
            (f.name, f.code, f.level),
            ("read-before-write-list-operations", "W004", Level::Warning)
        );
        assert!(
            f.message
                .starts_with("setting an element by index of list songs"),
            "{}",
            f.message
        );
        assert_eq!(&query[f.span.start..f.span.end], "songs[2] = 'x'");
    }

    #[test]
    fn removals_and_element_deletes_are_reported() {
        assert_eq!(
            lint("UPDATE p SET songs = songs - ['x'] WHERE id = 1;").len(),
            1
        );
        assert_eq!(lint("UPDATE p SET songs -= ['x'] WHERE id = 1;").len(), 1);
        let query = "DELETE songs[0] FROM p WHERE id = 1;";
        let deleted = lint(query);
        assert_eq!(deleted.len(), 1);
        assert_eq!(
            &query[deleted[0].span.start..deleted[0].span.end],
            "songs[0]"
        );
        let batch = lint("BEGIN BATCH UPDATE p SET songs[0] = 'a' WHERE id = 1; DELETE songs[1] FROM p WHERE id = 2; APPLY BATCH;");
        assert_eq!(batch.len(), 2);
    }

    #[test]
    fn blind_writes_are_not_reported() {
        assert!(lint("UPDATE p SET songs = songs + ['x'] WHERE id = 1;").is_empty());
        assert!(lint("UPDATE p SET songs = ['x'] + songs WHERE id = 1;").is_empty());
        assert!(lint("UPDATE p SET songs = ['a', 'b'] WHERE id = 1;").is_empty());
        assert!(lint("UPDATE p SET tags = tags - {'x'}, m[1] = 'a' WHERE id = 1;").is_empty());
        assert!(lint("DELETE m[1] FROM p WHERE id = 1;").is_empty());
    }
}
