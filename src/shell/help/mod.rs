//! HELP [topic] / ? [topic]: cqlsh's help, with widerow's own commands.
//!
//! `HELP` alone prints the two topic lists the way cqlsh does (Python's
//! `cmd.Cmd.print_topics`: a header, a `=` ruler as long as the header, the
//! names column-packed into 79 columns, a blank line). The shell commands
//! are cqlsh's documented ones plus widerow's SAVE and CLUSTER; the CQL
//! topics are cqlsh's (`cqlshlib/helptopics.py`). `HELP <shell command>`
//! prints that command's text as an indented block; `HELP <cql topic>`
//! prints the line cqlsh prints when it has no browser to open the CQL
//! reference with, on standard error as cqlsh does.

mod texts;

/// Where cqlsh sends `HELP <cql topic>` when no local copy of the CQL
/// reference is installed (`CASSANDRA_CQL_HTML_FALLBACK`).
pub const CQL_HELP_URL: &str =
    "https://cassandra.apache.org/doc/latest/cassandra/cql/cql_singlefile.html";

/// The CQL help topics and the anchor of each in the CQL reference, as
/// cqlsh's `CQL3HelpTopics` maps them.
pub const CQL_TOPICS: &[(&str, &str)] = &[
    ("aggregates", "aggregates"),
    ("alter_keyspace", "alterKeyspaceStmt"),
    ("alter_materialized_view", "alterMVStmt"),
    ("alter_table", "alterTableStmt"),
    ("alter_type", "alterTypeStmt"),
    ("alter_user", "alterUserStmt"),
    ("apply", "batchStmt"),
    ("ascii", "constants"),
    ("batch", "batchStmt"),
    ("begin", "batchStmt"),
    ("blob", "constants"),
    ("boolean", "constants"),
    ("counter", "counters"),
    ("create_aggregate", "createAggregateStmt"),
    ("create_columnfamily", "createTableStmt"),
    ("create_function", "createFunctionStmt"),
    ("create_index", "createIndexStmt"),
    ("create_keyspace", "createKeyspaceStmt"),
    ("create_materialized_view", "createMVStmt"),
    ("create_role", "createRoleStmt"),
    ("create_table", "createTableStmt"),
    ("create_trigger", "createTriggerStmt"),
    ("create_type", "createTypeStmt"),
    ("create_user", "createUserStmt"),
    ("date", "usingdates"),
    ("delete", "deleteStmt"),
    ("drop_aggregate", "dropAggregateStmt"),
    ("drop_columnfamily", "dropTableStmt"),
    ("drop_function", "dropFunctionStmt"),
    ("drop_index", "dropIndexStmt"),
    ("drop_keyspace", "dropKeyspaceStmt"),
    ("drop_materialized_view", "dropMVStmt"),
    ("drop_role", "dropRoleStmt"),
    ("drop_table", "dropTableStmt"),
    ("drop_trigger", "dropTriggerStmt"),
    ("drop_type", "dropTypeStmt"),
    ("drop_user", "dropUserStmt"),
    ("functions", "functions"),
    ("grant", "grantRoleStmt"),
    ("insert", "insertStmt"),
    ("insert_json", "insertJson"),
    ("int", "constants"),
    ("json", "json"),
    ("keywords", "appendixA"),
    ("list_permissions", "listPermissionsStmt"),
    ("list_roles", "listRolesStmt"),
    ("list_users", "listUsersStmt"),
    ("permissions", "permissions"),
    ("revoke", "revokeRoleStmt"),
    ("select", "selectStmt"),
    ("select_json", "selectJson"),
    ("text", "constants"),
    ("time", "usingtime"),
    ("timestamp", "usingtimestamps"),
    ("truncate", "truncateStmt"),
    ("types", "types"),
    ("update", "updateStmt"),
    ("use", "useStmt"),
    ("uuid", "constants"),
];

/// The help text for `topic` (the topic lists without one). `Err` holds
/// what goes to standard error: `*** No help on foo` for an unknown topic,
/// and cqlsh's no-browser line for a CQL topic. Several topics
/// (`HELP EXPAND PAGING`) are answered in turn; if any goes to standard
/// error, the whole answer does, in order.
pub fn help(topic: Option<&str>) -> Result<String, String> {
    let Some(topic) = topic.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(topic_lists());
    };
    let mut out = String::new();
    let mut failed = false;
    for word in topic.split_whitespace() {
        match one_topic(word) {
            Ok(text) => out.push_str(&text),
            Err(text) => {
                out.push_str(&text);
                failed = true;
            }
        }
    }
    if failed {
        Err(out)
    } else {
        Ok(out)
    }
}

/// The answer for one topic word, as typed.
fn one_topic(word: &str) -> Result<String, String> {
    let lower = word.to_ascii_lowercase();
    if let Some(text) = texts::shell_help(&lower) {
        return Ok(docstring(text));
    }
    match CQL_TOPICS.iter().find(|(name, _)| *name == lower) {
        Some((_, anchor)) => Err(format!(
            "*** No browser to display CQL help. URL for help topic {word} : {CQL_HELP_URL}#{anchor}\n"
        )),
        None => Err(format!("*** No help on {word}\n")),
    }
}

/// A help text laid out as cqlsh prints a command's docstring: a blank
/// line, every line indented eight spaces, and the docstring's closing
/// line of eight spaces.
fn docstring(text: &str) -> String {
    let mut out = String::from("\n");
    for line in text.lines() {
        if !line.is_empty() {
            out.push_str("        ");
            out.push_str(line);
        }
        out.push('\n');
    }
    out.push_str("        \n");
    out
}

/// `HELP` alone: the documented shell commands, then the CQL topics.
fn topic_lists() -> String {
    let shell: Vec<String> = texts::SHELL_TOPICS
        .iter()
        .map(|t| t.to_ascii_uppercase())
        .collect();
    let cql: Vec<String> = CQL_TOPICS
        .iter()
        .map(|(t, _)| t.to_ascii_uppercase())
        .collect();
    let mut out = print_topics("\nDocumented shell commands:", shell);
    out.push_str(&print_topics("CQL help topics:", cql));
    out
}

/// Python's `cmd.Cmd.print_topics(header, names, 15, 80)` as cqlsh calls
/// it: the ruler is as long as the header (a leading newline counts), and
/// cqlsh's `columnize` sorts the upper-cased names first.
fn print_topics(header: &str, mut names: Vec<String>) -> String {
    names.sort();
    let mut out = format!("{header}\n{}\n", "=".repeat(header.chars().count()));
    out.push_str(&columnize(&names, 79));
    out.push('\n');
    out
}

/// Python's `cmd.Cmd.columnize`: `names` in as few rows as fit in `width`
/// columns, filled column by column, columns two spaces apart and every
/// one (the last too) padded to its width. cqlsh uses it for the HELP
/// topics and for the names DESCRIBE lists.
pub fn columnize(names: &[String], width: usize) -> String {
    match names.len() {
        0 => return "<empty>\n".to_string(),
        1 => return format!("{}\n", names[0]),
        _ => {}
    }
    let (rows, widths) = layout(names, width);
    let mut out = String::new();
    for row in 0..rows {
        let mut texts: Vec<&str> = (0..widths.len())
            .map(|col| names.get(row + rows * col).map_or("", String::as_str))
            .collect();
        while texts.last().is_some_and(|t| t.is_empty()) {
            texts.pop();
        }
        let padded: Vec<String> = texts
            .iter()
            .zip(&widths)
            .map(|(text, w)| format!("{text:<w$}"))
            .collect();
        out.push_str(&padded.join("  "));
        out.push('\n');
    }
    out
}

/// The row count and column widths `columnize` settles on: the fewest rows
/// whose columns fit, else one name per row.
fn layout(names: &[String], width: usize) -> (usize, Vec<usize>) {
    let size = names.len();
    let len = |i: usize| names.get(i).map_or(0, |n| n.chars().count());
    for rows in 1..size {
        let cols = size.div_ceil(rows);
        let mut widths = Vec::with_capacity(cols);
        let mut total: isize = -2;
        for col in 0..cols {
            let w = (0..rows)
                .map(|row| row + rows * col)
                .take_while(|&i| i < size)
                .map(len)
                .max()
                .unwrap_or(0);
            widths.push(w);
            total += w as isize + 2;
            if total > width as isize {
                break;
            }
        }
        if total <= width as isize {
            return (rows, widths);
        }
    }
    (size, vec![0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columnize_pads_every_column_and_fills_down_first() {
        let names: Vec<String> = ["a", "bbb", "cc", "d"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(columnize(&names, 8), "a    cc\nbbb  d \n");
        assert_eq!(columnize(&names, 80), "a  bbb  cc  d\n");
        assert_eq!(columnize(&names[..1], 80), "a\n");
        assert_eq!(columnize(&[], 80), "<empty>\n");
    }

    #[test]
    fn one_name_per_row_when_nothing_fits() {
        let names = vec!["x".repeat(50), "y".repeat(50)];
        assert_eq!(
            columnize(&names, 79),
            format!("{}\n{}\n", names[0], names[1])
        );
    }
}
