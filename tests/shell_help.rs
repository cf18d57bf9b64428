//! HELP and `?`: cqlsh's topic lists laid out by Python's `cmd` rules with
//! widerow's SAVE and CLUSTER among the shell commands, one text per shell
//! command, cqlsh's no-browser line for CQL topics and its message for
//! unknown ones.

use widerow::session::Session;
use widerow::shell::help::{columnize, help, CQL_TOPICS};
use widerow::shell::{Settings, Shell, LINE_COMMANDS};
use widerow::syntax::script::split_statements_with_line_commands;

/// What Python's `cmd.Cmd.print_topics` prints for the two lists, as
/// cqlsh calls it (produced by running Python 3's `cmd` module on the same
/// names; each column, the last too, padded to its width).
const TOPIC_LISTS: &[&str] = &[
    "\n",
    "Documented shell commands:\n",
    "===========================\n",
    "CAPTURE  CLUSTER      DESC      EXPAND   LOGIN   SERIAL  TRACING\n",
    "CLEAR    CONSISTENCY  DESCRIBE  HELP     PAGING  SHOW    UNICODE\n",
    "CLS      COPY         EXIT      HISTORY  SAVE    SOURCE\n",
    "\n",
    "CQL help topics:\n",
    "================\n",
    "AGGREGATES               CREATE_KEYSPACE           DROP_TRIGGER      TEXT     \n",
    "ALTER_KEYSPACE           CREATE_MATERIALIZED_VIEW  DROP_TYPE         TIME     \n",
    "ALTER_MATERIALIZED_VIEW  CREATE_ROLE               DROP_USER         TIMESTAMP\n",
    "ALTER_TABLE              CREATE_TABLE              FUNCTIONS         TRUNCATE \n",
    "ALTER_TYPE               CREATE_TRIGGER            GRANT             TYPES    \n",
    "ALTER_USER               CREATE_TYPE               INSERT            UPDATE   \n",
    "APPLY                    CREATE_USER               INSERT_JSON       USE      \n",
    "ASCII                    DATE                      INT               UUID     \n",
    "BATCH                    DELETE                    JSON            \n",
    "BEGIN                    DROP_AGGREGATE            KEYWORDS        \n",
    "BLOB                     DROP_COLUMNFAMILY         LIST_PERMISSIONS\n",
    "BOOLEAN                  DROP_FUNCTION             LIST_ROLES      \n",
    "COUNTER                  DROP_INDEX                LIST_USERS      \n",
    "CREATE_AGGREGATE         DROP_KEYSPACE             PERMISSIONS     \n",
    "CREATE_COLUMNFAMILY      DROP_MATERIALIZED_VIEW    REVOKE          \n",
    "CREATE_FUNCTION          DROP_ROLE                 SELECT          \n",
    "CREATE_INDEX             DROP_TABLE                SELECT_JSON     \n",
    "\n",
];

/// The CQL topics block of cqlsh.md §2 "HELP output" (trailing spaces
/// trimmed there).
const CQLSH_MD_CQL_TOPICS: &str = "\
AGGREGATES               CREATE_KEYSPACE           DROP_TRIGGER      TEXT
ALTER_KEYSPACE           CREATE_MATERIALIZED_VIEW  DROP_TYPE         TIME
ALTER_MATERIALIZED_VIEW  CREATE_ROLE               DROP_USER         TIMESTAMP
ALTER_TABLE              CREATE_TABLE              FUNCTIONS         TRUNCATE
ALTER_TYPE               CREATE_TRIGGER            GRANT             TYPES
ALTER_USER               CREATE_TYPE               INSERT            UPDATE
APPLY                    CREATE_USER               INSERT_JSON       USE
ASCII                    DATE                      INT               UUID
BATCH                    DELETE                    JSON
BEGIN                    DROP_AGGREGATE            KEYWORDS
BLOB                     DROP_COLUMNFAMILY         LIST_PERMISSIONS
BOOLEAN                  DROP_FUNCTION             LIST_ROLES
COUNTER                  DROP_INDEX                LIST_USERS
CREATE_AGGREGATE         DROP_KEYSPACE             PERMISSIONS
CREATE_COLUMNFAMILY      DROP_MATERIALIZED_VIEW    REVOKE
CREATE_FUNCTION          DROP_ROLE                 SELECT
CREATE_INDEX             DROP_TABLE                SELECT_JSON
";

const URL: &str = "https://cassandra.apache.org/doc/latest/cassandra/cql/cql_singlefile.html";

#[test]
fn help_alone_prints_both_topic_lists() {
    assert_eq!(help(None).unwrap(), TOPIC_LISTS.concat());
}

#[test]
fn the_cql_topics_are_laid_out_as_cqlsh_md_shows() {
    let all = help(None).unwrap();
    let block = all
        .split("CQL help topics:\n================\n")
        .nth(1)
        .expect("a CQL topics block");
    let trimmed: String = block
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| format!("{}\n", l.trim_end()))
        .collect();
    assert_eq!(trimmed, CQLSH_MD_CQL_TOPICS);
}

#[test]
fn every_listed_shell_command_has_a_text_in_cqlsh_s_docstring_layout() {
    let lists = help(None).unwrap();
    let shell_block = lists.split("CQL help topics:").next().unwrap();
    let names: Vec<&str> = shell_block
        .lines()
        .skip(3)
        .flat_map(str::split_whitespace)
        .collect();
    assert_eq!(names.len(), 20, "{names:?}");
    for name in names {
        let text = help(Some(name)).unwrap_or_else(|e| panic!("HELP {name}: {e}"));
        assert!(text.starts_with("\n        "), "HELP {name}: {text:?}");
        assert!(text.ends_with("\n        \n"), "HELP {name}: {text:?}");
        for line in text.lines().filter(|l| !l.is_empty()) {
            assert!(line.starts_with("        "), "HELP {name}: {line:?}");
            assert!(line.len() <= 100, "HELP {name}: long line {line:?}");
        }
    }
}

#[test]
fn shell_help_texts_name_their_command() {
    let first_line = |topic: &str| {
        help(Some(topic))
            .unwrap()
            .lines()
            .nth(1)
            .unwrap()
            .trim()
            .to_string()
    };
    assert_eq!(first_line("expand"), "EXPAND [cqlsh]");
    assert_eq!(first_line("DESC"), "DESCRIBE [cqlsh only]");
    assert_eq!(first_line("cls"), "CLEAR/CLS [cqlsh only]");
    assert_eq!(first_line("SAVE"), "SAVE [widerow only]");
    assert_eq!(first_line("cluster"), "CLUSTER [widerow only]");
    assert_eq!(first_line("explain"), "EXPLAIN [widerow only]");
    assert_eq!(first_line("unicode"), "Textual input/output");
}

#[test]
fn cql_topics_give_the_url_cqlsh_prints_without_a_browser() {
    assert_eq!(
        help(Some("SELECT")),
        Err(format!(
            "*** No browser to display CQL help. URL for help topic SELECT : {URL}#selectStmt\n"
        ))
    );
    // The topic is echoed as typed; the anchor comes from cqlsh's table.
    assert_eq!(
        help(Some("create_table")),
        Err(format!(
            "*** No browser to display CQL help. URL for help topic create_table : {URL}#createTableStmt\n"
        ))
    );
    for (topic, anchor) in CQL_TOPICS {
        let text = help(Some(topic)).unwrap_err();
        assert!(text.ends_with(&format!("#{anchor}\n")), "{text}");
    }
}

#[test]
fn unknown_topics_have_no_help() {
    assert_eq!(help(Some("foo")), Err("*** No help on foo\n".to_string()));
    // QUIT is hidden from the topics, as in cqlsh.
    assert_eq!(help(Some("QUIT")), Err("*** No help on QUIT\n".to_string()));
}

#[test]
fn several_topics_are_answered_in_turn() {
    let both = help(Some("expand paging")).unwrap();
    assert_eq!(
        both,
        help(Some("expand")).unwrap() + &help(Some("paging")).unwrap()
    );
    let mixed = help(Some("expand nope")).unwrap_err();
    assert!(mixed.starts_with(&help(Some("expand")).unwrap()));
    assert!(mixed.ends_with("*** No help on nope\n"));
}

#[test]
fn columnize_matches_python_cmd() {
    let names: Vec<String> = (1..=12).map(|i| format!("name{i:02}")).collect();
    // Python: cmd.Cmd().columnize(names, 30)
    assert_eq!(
        columnize(&names, 30),
        "name01  name04  name07  name10\nname02  name05  name08  name11\nname03  name06  name09  name12\n"
    );
}

#[test]
fn the_shell_answers_help_and_question_mark() {
    let mut shell = Shell::new(Session::new(), Settings::default());
    for text in ["HELP", "?", "help;"] {
        let statements = split_statements_with_line_commands(text, LINE_COMMANDS);
        let reply = shell.run("<stdin>", &statements[0]);
        assert_eq!(reply.stdout(), TOPIC_LISTS.concat(), "{text}");
        assert!(!reply.failed);
    }
    let statements = split_statements_with_line_commands("HELP nope", LINE_COMMANDS);
    let reply = shell.run("<stdin>", &statements[0]);
    // Batch mode prefixes errors with `<stdin>:1:`; the text is cqlsh's.
    assert!(
        reply.err.ends_with("*** No help on nope\n"),
        "{}",
        reply.err
    );
    assert!(reply.failed);
}
