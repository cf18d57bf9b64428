//! DESCRIBE: Cassandra 5.0's server output as cqlsh prints it
//! (cqlsh.md §2.1), and the round trip that makes it useful — the text
//! DESCRIBE SCHEMA prints for any schema is CQL that widerow reads back to
//! the same schema, and describes again identically.

use std::collections::BTreeMap;
use std::path::PathBuf;

use widerow::schema::Replication;
use widerow::session::Session;
use widerow::shell::describe::describe;
use widerow::shell::{Settings, Shell, LINE_COMMANDS};
use widerow::syntax::ast::IndexTargetKind;
use widerow::syntax::script::split_statements_with_line_commands;
use widerow::ErrorKind;

/// The option lines of a table with every option at its 5.0 default.
const DEFAULT_OPTIONS: &str = "additional_write_policy = '99p'
    AND allow_auto_snapshot = true
    AND bloom_filter_fp_chance = 0.01
    AND caching = {'keys': 'ALL', 'rows_per_partition': 'NONE'}
    AND cdc = false
    AND comment = ''
    AND compaction = {'class': 'org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy', 'max_threshold': '32', 'min_threshold': '4'}
    AND compression = {'chunk_length_in_kb': '16', 'class': 'org.apache.cassandra.io.compress.LZ4Compressor'}
    AND memtable = 'default'
    AND crc_check_chance = 1.0
    AND default_time_to_live = 0
    AND extensions = {}
    AND gc_grace_seconds = 864000
    AND incremental_backups = true
    AND max_index_interval = 2048
    AND memtable_flush_period_in_ms = 0
    AND min_index_interval = 128
    AND read_repair = 'BLOCKING'
    AND speculative_retry = '99p';";

fn session(script: &str) -> Session {
    let mut session = Session::new().with_settings(widerow::schema::SchemaSettings::permissive());
    session
        .execute_script(script)
        .unwrap_or_else(|e| panic!("{}", e.message()));
    session
}

fn desc(session: &Session, rest: &str) -> String {
    describe(session, rest).unwrap_or_else(|e| panic!("DESCRIBE {rest}: {}", e.message()))
}

fn desc_error(session: &Session, rest: &str) -> String {
    let error = describe(session, rest).expect_err(rest);
    assert_eq!(error.kind(), ErrorKind::InvalidRequest, "{rest}");
    error.message().to_string()
}

/// The first line of every statement of a DESCRIBE output.
fn heads(output: &str) -> Vec<String> {
    output
        .split("\n\n")
        .map(|s| s.trim_start_matches('\n'))
        .filter(|s| !s.is_empty())
        .map(|s| s.lines().next().unwrap_or_default().to_string())
        .collect()
}

const KS: &str =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};";

#[test]
fn a_table_is_described_in_the_server_layout() {
    let s = session(&format!(
        "{KS} CREATE TABLE ks.events (day date, ts timestamp, kind text, payload text, \
         PRIMARY KEY (day, ts, kind)) WITH CLUSTERING ORDER BY (ts DESC, kind ASC);"
    ));
    let expected = format!(
        "\nCREATE TABLE ks.events (
    day date,
    ts timestamp,
    kind text,
    payload text,
    PRIMARY KEY (day, ts, kind)
) WITH CLUSTERING ORDER BY (ts DESC, kind ASC)
    AND {DEFAULT_OPTIONS}\n"
    );
    assert_eq!(desc(&s, "TABLE ks.events"), expected);
    assert_eq!(desc(&s, "columnfamily ks.events"), expected);
    assert_eq!(desc(&s, "ks.events"), expected);
}

#[test]
fn the_keyspace_line_has_two_spaces_before_durable_writes() {
    let s = session(KS);
    assert_eq!(
        desc(&s, "KEYSPACE ks"),
        "\nCREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': '1'}  AND durable_writes = true;\n"
    );
    let s = session(
        "CREATE KEYSPACE nts WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 3} \
         AND durable_writes = false;",
    );
    assert_eq!(
        desc(&s, "ONLY KEYSPACE nts"),
        "\nCREATE KEYSPACE nts WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': '3'}  AND durable_writes = false;\n"
    );
}

#[test]
fn columns_follow_the_create_order_rules() {
    let s = session(&format!(
        "{KS} CREATE TABLE ks.wide (id int, c1 int, s_b text static, s_a list<int> static, \
         s_c int static, z int, a set<text>, m map<int, int>, b frozen<list<int>>, \
         v vector<float, 3>, PRIMARY KEY (id, c1));
         CREATE TABLE ks.single (k int PRIMARY KEY);
         CREATE TABLE ks.composite (a int, b int, c counter, PRIMARY KEY ((a, b)));"
    ));
    assert_eq!(
        desc(&s, "TABLE ks.wide"),
        format!(
            "\nCREATE TABLE ks.wide (
    id int,
    c1 int,
    s_b text static,
    s_c int static,
    s_a list<int> static,
    b frozen<list<int>>,
    v vector<float, 3>,
    z int,
    a set<text>,
    m map<int, int>,
    PRIMARY KEY (id, c1)
) WITH CLUSTERING ORDER BY (c1 ASC)
    AND {DEFAULT_OPTIONS}\n"
        )
    );
    assert_eq!(
        desc(&s, "TABLE ks.single"),
        format!("\nCREATE TABLE ks.single (\n    k int PRIMARY KEY\n) WITH {DEFAULT_OPTIONS}\n")
    );
    assert_eq!(
        desc(&s, "TABLE ks.composite"),
        format!(
            "\nCREATE TABLE ks.composite (\n    a int,\n    b int,\n    c counter,\n    \
             PRIMARY KEY ((a, b))\n) WITH {DEFAULT_OPTIONS}\n"
        )
    );
}

#[test]
fn options_are_printed_as_the_server_holds_them() {
    let s = session(&format!(
        "{KS} CREATE TABLE ks.t (k int PRIMARY KEY, v text) WITH comment = 'it''s' \
         AND gc_grace_seconds = '100' AND speculative_retry = '99PERCENTILE' \
         AND compaction = {{'class': 'LeveledCompactionStrategy'}} \
         AND caching = {{'rows_per_partition': 'all'}} AND default_time_to_live = 60 \
         AND cdc = 'yes' AND read_repair = 'none' AND crc_check_chance = 1;"
    ));
    let text = desc(&s, "TABLE ks.t");
    for line in [
        "    AND bloom_filter_fp_chance = 0.1\n",
        // A caching map without 'keys' caches none (checked on a 5.0.8 node).
        "    AND caching = {'keys': 'NONE', 'rows_per_partition': 'ALL'}\n",
        "    AND cdc = true\n",
        "    AND comment = 'it''s'\n",
        "    AND compaction = {'class': 'org.apache.cassandra.db.compaction.LeveledCompactionStrategy', 'max_threshold': '32', 'min_threshold': '4'}\n",
        "    AND crc_check_chance = 1.0\n",
        "    AND default_time_to_live = 60\n",
        "    AND gc_grace_seconds = 100\n",
        "    AND read_repair = 'NONE'\n",
        "    AND speculative_retry = '99p';\n",
    ] {
        assert!(text.contains(line), "{line}in\n{text}");
    }
}

const APP: &str = "
    CREATE KEYSPACE app WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
    CREATE TYPE app.zaddr (street text, \"Zip\" int);
    CREATE TYPE app.account (home frozen<zaddr>, tags set<text>);
    CREATE TABLE app.users (id int PRIMARY KEY, name text, email text);
    CREATE INDEX users_name ON app.users (name);
    CREATE INDEX by_email ON app.users (email);
    CREATE CUSTOM INDEX tags_sai ON app.users (name) USING 'StorageAttachedIndex' WITH OPTIONS = {'case_sensitive': 'false', 'ascii': 'true'};
    CREATE MATERIALIZED VIEW app.users_by_name AS SELECT * FROM app.users
        WHERE name IS NOT NULL AND id IS NOT NULL PRIMARY KEY (name, id);
    CREATE MATERIALIZED VIEW app.emails AS SELECT email, id FROM app.users
        WHERE email IS NOT NULL AND id IS NOT NULL PRIMARY KEY (email, id) WITH CLUSTERING ORDER BY (id DESC);
    CREATE TABLE app.accounts (id int PRIMARY KEY, acct frozen<account>);
";

#[test]
fn a_keyspace_lists_types_by_dependency_then_tables_with_their_indexes_and_views() {
    let s = session(APP);
    let text = desc(&s, "KEYSPACE app");
    assert_eq!(
        heads(&text),
        [
            "CREATE KEYSPACE app WITH replication = {'class': 'SimpleStrategy', 'replication_factor': '1'}  AND durable_writes = true;",
            "CREATE TYPE app.zaddr (",
            "CREATE TYPE app.account (",
            "CREATE TABLE app.accounts (",
            "CREATE TABLE app.users (",
            "CREATE INDEX by_email ON app.users (email);",
            "CREATE CUSTOM INDEX tags_sai ON app.users (name) USING 'StorageAttachedIndex' WITH OPTIONS = {'ascii': 'true', 'case_sensitive': 'false'};",
            "CREATE INDEX users_name ON app.users (name);",
            "CREATE MATERIALIZED VIEW app.emails AS",
            "CREATE MATERIALIZED VIEW app.users_by_name AS",
        ]
    );
    assert!(text.contains("\nCREATE TYPE app.zaddr (\n    street text,\n    \"Zip\" int\n);\n"));
    assert!(text.contains(
        "\nCREATE TYPE app.account (\n    home frozen<zaddr>,\n    tags set<text>\n);\n"
    ));
    assert!(text.contains(
        "\nCREATE MATERIALIZED VIEW app.emails AS\n    SELECT email, id\n    FROM app.users\n    \
         WHERE email IS NOT NULL AND id IS NOT NULL\n    PRIMARY KEY (email, id)\n \
         WITH CLUSTERING ORDER BY (id DESC)\n    AND additional_write_policy = '99p'\n"
    ));
    let views = text.split("CREATE MATERIALIZED VIEW").skip(1);
    assert!(views
        .into_iter()
        .all(|v| !v.contains("default_time_to_live")));
    assert_eq!(desc(&s, "app"), text);
    assert_eq!(heads(&desc(&s, "ONLY KEYSPACE app")).len(), 1);
}

#[test]
fn single_objects_and_the_generic_form() {
    let mut s = session(APP);
    let table = desc(&s, "TABLE app.users");
    assert_eq!(
        heads(&table)[1..],
        [
            "CREATE INDEX by_email ON app.users (email);",
            "CREATE CUSTOM INDEX tags_sai ON app.users (name) USING 'StorageAttachedIndex' WITH OPTIONS = {'ascii': 'true', 'case_sensitive': 'false'};",
            "CREATE INDEX users_name ON app.users (name);",
        ]
    );
    assert_eq!(
        desc(&s, "INDEX app.by_email"),
        "\nCREATE INDEX by_email ON app.users (email);\n"
    );
    assert!(desc(&s, "MATERIALIZED VIEW app.emails")
        .starts_with("\nCREATE MATERIALIZED VIEW app.emails AS\n"));
    assert_eq!(
        desc(&s, "TYPE app.zaddr"),
        "\nCREATE TYPE app.zaddr (\n    street text,\n    \"Zip\" int\n);\n"
    );
    s.execute("USE app").unwrap();
    assert_eq!(desc(&s, "users"), table);
    assert_eq!(desc(&s, "by_email"), desc(&s, "INDEX by_email"));
    assert_eq!(desc(&s, "emails"), desc(&s, "MATERIALIZED VIEW emails"));
    assert_eq!(desc(&s, "KEYSPACE"), desc(&s, "KEYSPACE app"));
    assert_eq!(desc(&s, "table users WITH INTERNALS"), table);
}

#[test]
fn listings_are_column_packed_per_keyspace() {
    let mut s = session(&format!("{APP} {KS} CREATE KEYSPACE empty WITH replication = {{'class': 'SimpleStrategy', 'replication_factor': 1}};"));
    // The system keyspaces are listed with the session's own, as a node
    // lists them.
    assert_eq!(
        desc(&s, "KEYSPACES"),
        "\napp    ks      system_auth         system_schema  system_views         \n\
         empty  system  system_distributed  system_traces  system_virtual_schema\n\n"
    );
    // Tables of every keyspace, the system keyspaces' after the session's.
    assert!(desc(&s, "TABLES")
        .starts_with("\nKeyspace app\n------------\naccounts  users\n\nKeyspace system\n"));
    assert_eq!(
        desc(&s, "TYPES"),
        "\nKeyspace app\n------------\naccount  zaddr\n\n"
    );
    assert_eq!(desc(&s, "FUNCTIONS"), "");
    s.execute("CREATE TABLE ks.t1 (k int PRIMARY KEY)").unwrap();
    assert!(desc(&s, "COLUMNFAMILIES").starts_with(
        "\nKeyspace app\n------------\naccounts  users\n\nKeyspace ks\n-----------\nt1\n\nKeyspace system\n"
    ));
    s.execute("USE app").unwrap();
    assert_eq!(desc(&s, "TABLES"), "\naccounts  users\n\n");
    s.execute("USE empty").unwrap();
    assert_eq!(desc(&s, "TABLES"), "");
    assert_eq!(
        desc(&Session::new(), "KEYSPACES"),
        "\nsystem       system_distributed  system_traces  system_virtual_schema\n\
         system_auth  system_schema       system_views \n\n"
    );
}

#[test]
fn long_listings_wrap_at_eighty_columns() {
    let mut script = String::from(KS);
    for i in 0..12 {
        script.push_str(&format!(
            "CREATE TABLE ks.a_rather_long_table_name_{i:02} (k int PRIMARY KEY);"
        ));
    }
    let mut s = session(&script);
    s.execute("USE ks").unwrap();
    let names: Vec<String> = (0..12)
        .map(|i| format!("a_rather_long_table_name_{i:02}"))
        .collect();
    // Python's cmd.Cmd().columnize(names) with 80 columns: three columns
    // of 27 characters need 85, so 6 rows of 2.
    let mut expected = String::from("\n");
    for row in 0..6 {
        expected.push_str(&format!("{}  {}\n", names[row], names[row + 6]));
    }
    expected.push('\n');
    assert_eq!(desc(&s, "TABLES"), expected);
}

#[test]
fn errors_are_the_server_s() {
    let mut s = session(APP);
    assert_eq!(
        desc_error(&s, "KEYSPACE nope"),
        "'nope' not found in keyspaces"
    );
    assert_eq!(desc_error(&s, "nope"), "'nope' not found in keyspaces");
    assert_eq!(
        desc_error(&s, "TABLE app.nope"),
        "Table 'nope' not found in keyspace 'app'"
    );
    assert_eq!(
        desc_error(&s, "TABLE t"),
        "No keyspace specified and no current keyspace"
    );
    assert_eq!(
        desc_error(&s, "KEYSPACE"),
        "No keyspace specified and no current keyspace"
    );
    assert_eq!(
        desc_error(&s, "INDEX app.nope"),
        "Table for existing index 'nope' not found in 'app'"
    );
    assert_eq!(
        desc_error(&s, "MATERIALIZED VIEW app.users"),
        "Materialized view 'users' not found in 'app'"
    );
    assert_eq!(
        desc_error(&s, "TYPE app.nope"),
        "User defined type 'nope' not found in 'app'"
    );
    assert_eq!(
        desc_error(&s, "FUNCTION app.f"),
        "User defined function 'f' not found in 'app'"
    );
    assert_eq!(
        desc_error(&s, "AGGREGATE app.f"),
        "User defined aggregate 'f' not found in 'app'"
    );
    s.execute("USE app").unwrap();
    assert_eq!(desc_error(&s, "nope"), "'nope' not found in keyspace 'app'");
    assert_eq!(desc_error(&s, "nope.t"), "'nope' not found in keyspaces");
    let syntax = describe(&s, "TABLE a b").unwrap_err();
    assert_eq!(syntax.kind(), ErrorKind::SyntaxException);
}

#[test]
fn cluster_shows_range_ownership_with_a_keyspace_in_use() {
    let mut s = session(KS);
    let head =
        "\nCluster: widerow\nPartitioner: Murmur3Partitioner\nSnitch: DynamicEndpointSnitch\n\n";
    assert_eq!(desc(&s, "CLUSTER"), head);
    s.execute("USE ks").unwrap();
    assert_eq!(
        desc(&s, "CLUSTER"),
        format!(
            "{head}Range ownership:
                    -4611686018427387904  [127.0.0.2:7000]
                    -9223372036854775808  [127.0.0.1:7000]
                                       0  [127.0.0.3:7000]
                     4611686018427387904  [127.0.0.4:7000]

"
        )
    );
}

#[test]
fn the_shell_prints_describe_output() {
    let mut shell = Shell::new(session(APP), Settings::default());
    let statements =
        split_statements_with_line_commands("DESC KEYSPACES;\nDESCRIBE TYPES", LINE_COMMANDS);
    let first = shell.run("<stdin>", &statements[0]);
    assert_eq!(
        first.stdout(),
        "\napp     system_auth         system_schema  system_views         \n\
         system  system_distributed  system_traces  system_virtual_schema\n\n"
    );
    let second = shell.run("<stdin>", &statements[1]);
    assert_eq!(
        second.stdout(),
        "\nKeyspace app\n------------\naccount  zaddr\n\n"
    );
}

/// The round trip: for every schema in the corpora, DESCRIBE SCHEMA's text
/// loads into a fresh session without error, describes to the same text,
/// and gives the same keyspaces, types, tables, columns, keys, indexes and
/// views.
#[test]
fn describe_schema_round_trips_for_every_corpus_schema() {
    let files = corpus_files();
    assert!(files.len() > 40, "{files:?}");
    let mut described = 0;
    for path in files {
        let source = std::fs::read_to_string(&path).unwrap();
        let original = load_ignoring_errors(&source);
        let first = desc(&original, "SCHEMA");
        let mut copy = Session::new().with_settings(widerow::schema::SchemaSettings::permissive());
        if let Err(e) = copy.execute_script(&first) {
            panic!(
                "{}: the DESCRIBE output does not load: {}\n{first}",
                path.display(),
                e.message()
            );
        }
        let second = desc(&copy, "SCHEMA");
        assert_eq!(first, second, "{}", path.display());
        assert_eq!(
            catalog_shape(&original),
            catalog_shape(&copy),
            "{}",
            path.display()
        );
        // FULL SCHEMA: the same, then the system keyspaces, as a node.
        let full = desc(&original, "FULL SCHEMA");
        assert!(full.starts_with(&first), "{}", path.display());
        assert!(full.contains("\nCREATE KEYSPACE system WITH"));
        described += usize::from(!first.is_empty());
    }
    assert!(described > 30, "{described}");
}

/// Every schema script of the corpora: conformance, planner, examples and
/// the real-format DESCRIBE fixture.
fn corpus_files() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in [
        "tests/conformance",
        "tests/planner",
        "examples",
        "tests/describe_schema",
    ] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "cql") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// A session with every statement of `source` run; failing statements
/// (the corpora test errors too) are skipped.
fn load_ignoring_errors(source: &str) -> Session {
    let mut session = Session::new().with_settings(widerow::schema::SchemaSettings::permissive());
    for statement in widerow::split_statements(source) {
        let _ = session.execute(&statement.text);
    }
    session
}

/// What a schema is, independent of how it was written: per keyspace its
/// replication, durable writes and types; per table its columns (by name),
/// keys, indexes (an index on a whole non-frozen collection is on its
/// values) and view definition. Options are compared through DESCRIBE's
/// text, and dropped columns are not part of it (DESCRIBE omits them).
fn catalog_shape(session: &Session) -> BTreeMap<String, String> {
    let mut shape = BTreeMap::new();
    for ks in session.context().catalog.keyspaces() {
        shape.insert(
            ks.name.clone(),
            format!(
                "{} {} {:?}",
                replication(&ks.replication),
                ks.durable_writes,
                {
                    let mut types: Vec<_> = ks.types.values().collect();
                    types.sort_by(|a, b| a.name.cmp(&b.name));
                    types
                }
            ),
        );
        for table in ks.tables.values() {
            let columns: BTreeMap<_, _> = table.columns.iter().collect();
            let mut indexes: Vec<String> = table
                .indexes
                .iter()
                .map(|i| {
                    let multi = table.column(&i.column).is_some_and(|c| {
                        c.data_type.is_multi_cell() && c.data_type.is_collection()
                    });
                    let target = match i.target {
                        IndexTargetKind::Simple if multi => IndexTargetKind::Values,
                        t => t,
                    };
                    let options: BTreeMap<_, _> = i.options.iter().collect();
                    format!(
                        "{} {} {target:?} {:?} {:?} {options:?}",
                        i.name, i.column, i.kind, i.class_name
                    )
                })
                .collect();
            indexes.sort();
            let view = table.view.as_ref().map(|v| {
                let relations: Vec<String> = v.where_clause.iter().map(|r| r.to_string()).collect();
                format!("{} {}", v.include_all_columns, relations.join(" AND "))
            });
            shape.insert(
                table.qualified_name(),
                format!(
                    "{columns:?} {:?} {:?} {indexes:?} {:?} {view:?}",
                    table.partition_key, table.clustering, table.view_of
                ),
            );
        }
    }
    shape
}

/// The replication with data centres in name order (their order as written
/// is not part of the schema).
fn replication(r: &Replication) -> String {
    match r {
        Replication::NetworkTopology { factors } => {
            format!("NTS {:?}", factors.iter().collect::<BTreeMap<_, _>>())
        }
        other => format!("{other:?}"),
    }
}
