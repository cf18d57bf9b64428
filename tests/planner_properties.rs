//! Properties of the planner over generated queries: every combination of
//! restriction kinds on partition, clustering, static and regular columns
//! of a few schemas (with and without secondary indexes).
//!
//! * planning never panics;
//! * adding ALLOW FILTERING never turns an accepted query into a refusal
//!   and never changes its class;
//! * a query refused only for needing filtering is accepted with ALLOW
//!   FILTERING.

use proptest::prelude::*;
use widerow::planner::{plan, PlanContext, ALLOW_FILTERING_MESSAGE};

/// The schemas of restrictions.md §9: T (no index), U (legacy index on a
/// regular column), V (SAI on two regular columns), W (legacy index on a
/// clustering column), S (a static column).
const SCHEMAS: [&str; 5] = [
    "CREATE TABLE t (a int, b int, c int, d int, e int, f int, s int STATIC, PRIMARY KEY ((a, b), c, d))",
    "CREATE TABLE t (a int, b int, c int, d int, e int, f int, s int STATIC, PRIMARY KEY ((a, b), c, d)); CREATE INDEX ON t (e)",
    "CREATE TABLE t (a int, b int, c int, d int, e int, f int, s int STATIC, PRIMARY KEY ((a, b), c, d)); CREATE CUSTOM INDEX ON t (e) USING 'StorageAttachedIndex'; CREATE CUSTOM INDEX ON t (f) USING 'StorageAttachedIndex'",
    "CREATE TABLE t (a int, b int, c int, d int, e int, f int, s int STATIC, PRIMARY KEY ((a, b), c, d)); CREATE INDEX ON t (d)",
    "CREATE TABLE t (a int, b int, c int, d int, e int, f int, s int STATIC, PRIMARY KEY ((a, b), c, d)); CREATE INDEX ON t (s)",
];

fn context(schema: &str) -> PlanContext {
    let mut ctx = PlanContext::new();
    let setup = format!(
        "CREATE KEYSPACE ks WITH replication = {{'class': 'SimpleStrategy', 'replication_factor': 1}}; USE ks; {schema};"
    );
    for statement in widerow::split_statements(&setup) {
        let parsed = widerow::parse_statement(&statement.text).expect("schema parses");
        ctx.apply_schema(&parsed).expect("schema applies");
    }
    ctx
}

/// One restriction on one column, as CQL text (empty: none).
fn restriction(column: &'static str) -> impl Strategy<Value = Vec<String>> {
    prop_oneof![
        3 => Just(vec![]),
        3 => (0..5i32).prop_map(move |v| vec![format!("{column} = {v}")]),
        1 => Just(vec![format!("{column} IN (1)")]),
        2 => Just(vec![format!("{column} IN (1, 2)")]),
        1 => Just(vec![format!("{column} IN ?")]),
        2 => Just(vec![format!("{column} > 1")]),
        1 => Just(vec![format!("{column} >= 1"), format!("{column} < 9")]),
        1 => Just(vec![format!("{column} <= 3")]),
    ]
}

/// Extra relation shapes that span columns.
fn extra() -> impl Strategy<Value = Vec<String>> {
    prop_oneof![
        6 => Just(vec![]),
        1 => Just(vec!["token(a, b) > 0".to_string()]),
        1 => Just(vec!["token(a, b) = token(1, 2)".to_string()]),
        1 => Just(vec!["(c, d) > (1, 2)".to_string()]),
        1 => Just(vec!["(c, d) = (1, 2)".to_string()]),
        1 => Just(vec!["(c, d) IN ((1, 2), (3, 4))".to_string()]),
    ]
}

fn tail() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => Just(String::new()),
        1 => Just(" ORDER BY c DESC".to_string()),
        1 => Just(" ORDER BY c ASC, d ASC".to_string()),
        1 => Just(" LIMIT 10".to_string()),
        1 => Just(" PER PARTITION LIMIT 2".to_string()),
    ]
}

fn selection() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => Just("*".to_string()),
        1 => Just("a, b, s".to_string()),
        1 => Just("DISTINCT a, b".to_string()),
        1 => Just("COUNT(*)".to_string()),
        1 => Just("a, e".to_string()),
    ]
}

/// A generated SELECT without ALLOW FILTERING, and the schema it runs on.
fn query() -> impl Strategy<Value = (usize, String)> {
    query_from(0..SCHEMAS.len(), selection(), extra(), tail())
}

/// Queries with nothing Cassandra refuses besides filtering: a `*`
/// selection, no clause after WHERE, no multi-column relation (it would be
/// filtered), and no index (IN with an indexed query is refused even with
/// ALLOW FILTERING).
fn plain_query() -> impl Strategy<Value = (usize, String)> {
    let extra = prop_oneof![
        4 => Just(vec![]),
        1 => Just(vec!["token(a, b) > 0".to_string()]),
    ];
    query_from(0..1usize, Just("*".to_string()), extra, Just(String::new()))
}

fn query_from(
    schemas: impl Strategy<Value = usize>,
    selection: impl Strategy<Value = String>,
    extra: impl Strategy<Value = Vec<String>>,
    tail: impl Strategy<Value = String>,
) -> impl Strategy<Value = (usize, String)> {
    let columns = (
        restriction("a"),
        restriction("b"),
        restriction("c"),
        restriction("d"),
        restriction("e"),
        restriction("f"),
        restriction("s"),
    );
    (schemas, selection, columns, extra, tail, any::<u64>()).prop_map(
        |(schema, selection, (a, b, c, d, e, f, s), extra, tail, seed)| {
            let mut relations: Vec<String> = [a, b, c, d, e, f, s, extra].concat();
            // Textual order matters to Cassandra's errors: shuffle it too.
            let n = relations.len();
            for i in (1..n).rev() {
                let j = (seed.rotate_left(i as u32) % (i as u64 + 1)) as usize;
                relations.swap(i, j);
            }
            let clause = if relations.is_empty() {
                String::new()
            } else {
                format!(" WHERE {}", relations.join(" AND "))
            };
            (schema, format!("SELECT {selection} FROM t{clause}{tail}"))
        },
    )
}

/// Refusals that ALLOW FILTERING lifts (restrictions.md §3.2, §3.3, §3.7,
/// §3.9): the filtering message itself, and the clustering checks that are
/// only made when the query may not filter.
fn is_filtering_refusal(message: &str) -> bool {
    message == ALLOW_FILTERING_MESSAGE
        || message.ends_with("is restricted by a non-EQ relation)")
        || message.contains("cannot be restricted as preceding column")
        || message
            == "Clustering columns can only be restricted with CONTAINS with a secondary index or filtering"
}

fn with_allow_filtering(query: &str) -> String {
    format!("{query} ALLOW FILTERING")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn allow_filtering_only_ever_widens((schema, query) in query()) {
        let ctx = context(SCHEMAS[schema]);
        let without = plan(&ctx, &query);
        let with = plan(&ctx, &with_allow_filtering(&query));
        match (&without, &with) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a.class, b.class, "{}", query),
            (Ok(_), Err(e)) => prop_assert!(false, "ALLOW FILTERING refused {}: {}", query, e.message()),
            (Err(e), Ok(_)) => prop_assert!(
                is_filtering_refusal(e.message()),
                "accepted with ALLOW FILTERING, but refused without for another reason: {}: {}", query, e.message()
            ),
            (Err(_), Err(e)) => prop_assert_ne!(e.message(), ALLOW_FILTERING_MESSAGE, "{}", query),
        }
    }

    /// A query refused only for needing filtering is accepted with it.
    #[test]
    fn refused_only_for_filtering_is_accepted_with_it((schema, query) in plain_query()) {
        let ctx = context(SCHEMAS[schema]);
        if let Err(e) = plan(&ctx, &query) {
            if is_filtering_refusal(e.message()) {
                let with = plan(&ctx, &with_allow_filtering(&query));
                prop_assert!(with.is_ok(), "{} refused with ALLOW FILTERING: {:?}", query, with.err().map(|e| e.message().to_string()));
            }
        }
    }
}
