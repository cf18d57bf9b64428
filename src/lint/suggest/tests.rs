use super::*;
use crate::parse_statement;

/// A context with `schema` applied, statement by statement.
fn context(schema: &str) -> PlanContext {
    let mut ctx = PlanContext::new();
    for statement in crate::split_statements(schema) {
        let parsed = parse_statement(&statement.text).expect("schema parses");
        ctx.apply_schema(&parsed).expect("schema applies");
    }
    ctx
}

fn select(cql: &str) -> Select {
    match parse_statement(cql).expect("query parses") {
        Statement::Select(select) => select,
        other => panic!("not a SELECT: {other:?}"),
    }
}

fn suggest(ctx: &PlanContext, cql: &str) -> Option<Suggestion> {
    suggest_query_table(ctx, &select(cql))
}

/// Applies the suggestion to a copy of `ctx` and plans the rewritten query.
fn class_on_new_table(ctx: &PlanContext, suggestion: &Suggestion) -> QueryClass {
    let mut scratch = ctx.clone();
    let create = parse_statement(&suggestion.create_table).expect("CREATE TABLE parses");
    scratch.apply_schema(&create).expect("CREATE TABLE applies");
    let query = parse_statement(&suggestion.rewritten_query).expect("query parses");
    plan_statement(&scratch, &query).expect("query plans").class
}

const USERS: &str = "
    CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
    USE ks;
    CREATE TABLE users (user_id uuid PRIMARY KEY, email text, name text, country text);
    CREATE INDEX users_email_idx ON users (email);
";

const SENSORS: &str = "
    CREATE KEYSPACE iot WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
    USE iot;
    CREATE TABLE sensor_readings (
        sensor_id text, reading_date date, reading_ts timestamp,
        temperature double, humidity double,
        PRIMARY KEY ((sensor_id, reading_date), reading_ts)
    ) WITH CLUSTERING ORDER BY (reading_ts DESC);
    CREATE TABLE readings_by_sensor_and_ts (
        sensor_id text, reading_ts timestamp, temperature double,
        PRIMARY KEY ((sensor_id, reading_ts))
    );
";

#[test]
fn an_index_lookup_gets_a_lookup_table() {
    let ctx = context(USERS);
    let s = suggest(
        &ctx,
        "SELECT * FROM users WHERE email = 'alice@example.com'",
    )
    .expect("a suggestion");
    assert_eq!(s.table_name, "users_by_email");
    assert_eq!(
        s.create_table,
        "CREATE TABLE ks.users_by_email (\n    email text,\n    user_id uuid,\n    name text,\n    country text,\n    PRIMARY KEY (email, user_id)\n) WITH CLUSTERING ORDER BY (user_id ASC);"
    );
    assert_eq!(
        s.rewritten_query,
        "SELECT * FROM ks.users_by_email WHERE email = 'alice@example.com';"
    );
    assert_eq!(
        s.help,
        "serve this query from a table partitioned by (email): users_by_email"
    );
    assert_eq!(class_on_new_table(&ctx, &s), QueryClass::PartitionScan);
}

#[test]
fn a_filtered_query_keeps_its_selection_and_drops_allow_filtering() {
    let ctx = context(USERS);
    let s = suggest(
        &ctx,
        "SELECT name FROM users WHERE country = 'TW' AND email = 'a@b' ALLOW FILTERING",
    )
    .expect("a suggestion");
    assert_eq!(s.table_name, "users_by_country_email");
    assert_eq!(
        s.create_table,
        "CREATE TABLE ks.users_by_country_email (\n    country text,\n    email text,\n    user_id uuid,\n    name text,\n    PRIMARY KEY ((country, email), user_id)\n) WITH CLUSTERING ORDER BY (user_id ASC);"
    );
    assert_eq!(
        s.rewritten_query,
        "SELECT name FROM ks.users_by_country_email WHERE country = 'TW' AND email = 'a@b';"
    );
    assert_eq!(class_on_new_table(&ctx, &s), QueryClass::PartitionScan);
}

#[test]
fn a_time_range_gets_a_day_bucket() {
    let ctx = context(SENSORS);
    let s = suggest(
        &ctx,
        "SELECT * FROM readings_by_sensor_and_ts WHERE sensor_id = 's-001' \
         AND reading_ts >= '2025-06-01T08:00:00Z' AND reading_ts < '2025-06-01T09:00:00Z'",
    )
    .expect("a suggestion");
    assert_eq!(s.table_name, "readings_by_sensor_id_reading_ts_date");
    assert!(
        s.create_table
            .contains("PRIMARY KEY ((sensor_id, reading_ts_date), reading_ts)"),
        "{}",
        s.create_table
    );
    assert!(s.create_table.contains("reading_ts_date date,"));
    assert!(s.rewritten_query.ends_with("AND reading_ts_date = ?;"));
    assert!(s.help.contains("to_date(reading_ts)"), "{}", s.help);
    assert_eq!(class_on_new_table(&ctx, &s), QueryClass::PartitionScan);
}

#[test]
fn a_date_like_equality_needs_no_bucket() {
    let ctx = context(SENSORS);
    let s = suggest(
        &ctx,
        "SELECT * FROM sensor_readings WHERE reading_date = '2025-06-01' \
         AND reading_ts > '2025-06-01T08:00:00Z' ALLOW FILTERING",
    )
    .expect("a suggestion");
    assert!(
        s.create_table
            .contains("PRIMARY KEY (reading_date, reading_ts, sensor_id)"),
        "{}",
        s.create_table
    );
    // reading_ts keeps the source's DESC; sensor_id, a partition key column
    // there, is ASC.
    assert!(s
        .create_table
        .ends_with("WITH CLUSTERING ORDER BY (reading_ts DESC, sensor_id ASC);"));
    assert!(!s.rewritten_query.contains('?'));
    assert_eq!(class_on_new_table(&ctx, &s), QueryClass::PartitionScan);
}

#[test]
fn order_by_sets_the_clustering_order() {
    let ctx = context(
        "CREATE KEYSPACE a WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
         CREATE TABLE a.user_activity (user_id uuid, activity_date date, activity_ts timestamp,
             activity_type text, details text,
             PRIMARY KEY ((user_id, activity_date), activity_ts))
             WITH CLUSTERING ORDER BY (activity_ts DESC);",
    );
    let s = suggest(
        &ctx,
        "SELECT * FROM a.user_activity WHERE user_id = 550e8400-e29b-41d4-a716-446655440000 \
         AND activity_date = '2025-06-15' ORDER BY activity_type DESC",
    )
    .expect("a suggestion");
    assert!(s.create_table.contains(
        "PRIMARY KEY ((user_id, activity_date), activity_type, activity_ts)\n) \
         WITH CLUSTERING ORDER BY (activity_type DESC, activity_ts DESC);"
    ));
    assert_eq!(class_on_new_table(&ctx, &s), QueryClass::PartitionScan);
}

#[test]
fn distinct_becomes_a_table_of_the_distinct_rows() {
    let ctx = context(SENSORS);
    let s = suggest(
        &ctx,
        "SELECT DISTINCT sensor_id, reading_date FROM sensor_readings \
         WHERE reading_date = '2025-06-01' ALLOW FILTERING",
    )
    .expect("a suggestion");
    assert!(s
        .create_table
        .contains("PRIMARY KEY (reading_date, sensor_id)"));
    assert!(s
        .rewritten_query
        .starts_with("SELECT sensor_id, reading_date FROM"));
    assert_eq!(class_on_new_table(&ctx, &s), QueryClass::PartitionScan);
}

#[test]
fn contains_becomes_an_element_column() {
    let ctx = context(
        "CREATE KEYSPACE m WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
         CREATE TABLE m.inbox_by_user (user_id uuid, message_id timeuuid, subject text,
             labels set<text>, PRIMARY KEY (user_id, message_id))
             WITH CLUSTERING ORDER BY (message_id DESC);",
    );
    let s = suggest(
        &ctx,
        "SELECT message_id, subject FROM m.inbox_by_user WHERE labels CONTAINS 'work'",
    )
    .expect("a suggestion");
    assert_eq!(s.table_name, "inbox_by_labels_element");
    assert_eq!(
        s.rewritten_query,
        "SELECT message_id, subject FROM m.inbox_by_labels_element WHERE labels_element = 'work';"
    );
    assert_eq!(class_on_new_table(&ctx, &s), QueryClass::PartitionScan);
}

#[test]
fn an_in_list_leads_the_clustering_columns() {
    let ctx = context(USERS);
    let s = suggest(
        &ctx,
        "SELECT * FROM users WHERE email = 'a@b' AND name IN ('a', 'b') ALLOW FILTERING",
    )
    .expect("a suggestion");
    assert!(s
        .create_table
        .contains("PRIMARY KEY (email, name, user_id)"));
    assert_eq!(class_on_new_table(&ctx, &s), QueryClass::PartitionScan);
}

#[test]
fn a_key_of_few_values_is_not_offered() {
    // users_by_country would be the hot partition of rule M002; the query
    // has nothing else to key by, so the cache says why instead.
    let ctx = context(USERS);
    let query = select("SELECT * FROM users WHERE country = 'TW' ALLOW FILTERING");
    assert_eq!(suggest_query_table(&ctx, &query), None);
    let key = SuggestionKey {
        file: "q.cql",
        offset: 0,
        generation: 0,
    };
    let config = LintConfig::default();
    let s = SuggestionCache::default()
        .get(key, &ctx, &query, &config)
        .expect("a reason");
    assert!(!s.has_design());
    assert_eq!(s.script(), "");
    assert!(
        s.help.contains("(country) would draw hot-partition (M002)"),
        "{}",
        s.help
    );
}

#[test]
fn a_taken_name_gets_a_number() {
    let ctx = context(&format!(
        "{USERS} CREATE TABLE users_by_email (email text PRIMARY KEY, user_id uuid);"
    ));
    let s = suggest(&ctx, "SELECT * FROM users WHERE email = 'a@b'").expect("a suggestion");
    assert_eq!(s.table_name, "users_by_email_2");
}

#[test]
fn long_names_are_cut_to_48_characters() {
    let ctx = context(
        "CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
         CREATE TABLE k.t (id int PRIMARY KEY,
             a_very_long_column_name_number_one int, a_very_long_column_name_number_two int);",
    );
    let s = suggest(
        &ctx,
        "SELECT * FROM k.t WHERE a_very_long_column_name_number_one = 1 \
         AND a_very_long_column_name_number_two = 2 ALLOW FILTERING",
    )
    .expect("a suggestion");
    assert!(s.table_name.len() <= 48, "{}", s.table_name);
    assert!(!s.table_name.ends_with('_'), "{}", s.table_name);
    assert_eq!(class_on_new_table(&ctx, &s), QueryClass::PartitionScan);
}

#[test]
fn no_suggestion_for_good_queries_full_scans_or_unknown_tables() {
    let ctx = context(SENSORS);
    for query in [
        // Already single-partition.
        "SELECT * FROM sensor_readings WHERE sensor_id = 's' AND reading_date = '2025-06-01'",
        // Multi-partition: named partitions.
        "SELECT * FROM sensor_readings WHERE sensor_id = 's' AND reading_date IN ('2025-06-01', '2025-06-02')",
        // Restricts nothing.
        "SELECT * FROM sensor_readings LIMIT 100",
        "SELECT * FROM sensor_readings ORDER BY reading_ts DESC LIMIT 10",
        // No equality: no partition to name.
        "SELECT * FROM sensor_readings WHERE temperature > 40 ALLOW FILTERING",
        // A token range has no query table.
        "SELECT * FROM sensor_readings WHERE token(sensor_id, reading_date) > 0",
        // Unknown table, unknown column.
        "SELECT * FROM nowhere WHERE a = 1",
        "SELECT * FROM sensor_readings WHERE nothing = 1",
    ] {
        assert_eq!(suggest(&ctx, query), None, "{query}");
    }
}
