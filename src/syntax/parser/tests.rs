//! Unit tests per production of the grammar (language.md §2 and §3.1).
//!
//! Each statement and clause has an accepting test that pins its canonical
//! printed form (and checks that the form parses back to the same tree) and,
//! where the grammar refuses something, a refusing test. The last module
//! covers the places where the same words have two readings and the lexer or
//! parser must pick one.

use super::*;
use crate::syntax::ast::*;

/// Parses `text`, checks that its canonical form parses back to an equal
/// tree, and returns the canonical form.
#[track_caller]
fn canonical(text: &str) -> String {
    let ast = parse(text);
    let printed = ast.to_string();
    let again = parse_statement(&printed)
        .unwrap_or_else(|e| panic!("{text} printed as {printed}, refused: {}", e.message()));
    assert_eq!(ast, again, "{text} printed as {printed}");
    printed
}

/// Asserts that `text` is accepted and that its canonical form is `expected`.
#[track_caller]
fn assert_canonical(text: &str, expected: &str) {
    assert_eq!(canonical(text), expected, "canonical form of {text}");
}

#[track_caller]
fn parse(text: &str) -> Statement {
    parse_statement(text).unwrap_or_else(|e| panic!("{text} refused: {}", e.message()))
}

/// Asserts that `text` is refused with a message containing `expected`.
#[track_caller]
fn assert_refused(text: &str, expected: &str) {
    match parse_statement(text) {
        Ok(statement) => panic!("{text} accepted as {statement}"),
        Err(e) => assert!(
            e.message().contains(expected),
            "{text}: message {:?} lacks {expected:?}",
            e.message()
        ),
    }
}

#[track_caller]
fn select(text: &str) -> Select {
    match parse(text) {
        Statement::Select(s) => s,
        other => panic!("{text} is not a SELECT: {other:?}"),
    }
}

/// The shape of the first selector of a SELECT.
#[track_caller]
fn first_selector(text: &str) -> SelectorKind {
    match select(text).selection {
        SelectClause::Items(items) => items[0].selector.kind.clone(),
        SelectClause::Star => panic!("{text} selects *"),
    }
}

/// The shape of `value` read as a term (the one value of an INSERT).
#[track_caller]
fn term(value: &str) -> TermKind {
    let text = format!("INSERT INTO t (a) VALUES ({value})");
    match parse(&text) {
        Statement::Insert(Insert {
            source: InsertSource::Values { values, .. },
            ..
        }) => values[0].kind.clone(),
        other => panic!("{text} is not an INSERT … VALUES: {other:?}"),
    }
}

fn literal(l: Literal) -> TermKind {
    TermKind::Literal(l)
}

fn int(text: &str) -> TermKind {
    literal(Literal::Integer(text.into()))
}

fn boxed(kind: TermKind) -> Box<Term> {
    Box::new(Term {
        kind,
        span: Default::default(),
    })
}

fn binary(op: ArithmeticOp, left: TermKind, right: TermKind) -> TermKind {
    TermKind::Binary {
        op,
        left: boxed(left),
        right: boxed(right),
    }
}

fn column(name: &str) -> SelectorKind {
    SelectorKind::Column(Ident::new(name))
}

fn sel(kind: SelectorKind) -> Box<Selector> {
    Box::new(Selector {
        kind,
        span: Default::default(),
    })
}

/// §2.1: names, constants, markers, literals, terms, properties, USING.
mod shared {
    use super::*;

    #[test]
    fn unquoted_names_fold_and_quoted_names_keep_their_case() {
        assert_canonical(
            r#"SELECT MyCol, "MyCol", "my""col", "with space" FROM MyKs."MyTable""#,
            r#"SELECT mycol, "MyCol", "my""col", "with space" FROM myks."MyTable""#,
        );
        assert_canonical(r#"SELECT "lower" FROM t"#, "SELECT lower FROM t");
    }

    #[test]
    fn unreserved_keywords_are_names() {
        assert_canonical(
            "SELECT key, ttl, count, writetime, cast, type, values, static FROM keyspaces.tables",
            "SELECT key, ttl, count, writetime, cast, type, values, static FROM keyspaces.tables",
        );
    }

    #[test]
    fn reserved_keywords_must_be_quoted() {
        assert_canonical(
            r#"SELECT "select", "from" FROM "table""#,
            r#"SELECT "select", "from" FROM "table""#,
        );
        assert_refused(
            "SELECT select FROM t",
            "no viable alternative at input 'select'",
        );
        assert_refused("CREATE TABLE from (a int PRIMARY KEY)", "input 'from'");
        assert_refused("SELECT a FROM t WHERE token = 1", "input '='");
    }

    #[test]
    fn names_that_would_lex_as_something_else_are_quoted() {
        assert_canonical(
            r#"SELECT "true", "nan", "P1D", "1h", "columnfamily", "Key" FROM t"#,
            r#"SELECT "true", "nan", "P1D", "1h", "columnfamily", "Key" FROM t"#,
        );
    }

    #[test]
    fn constants_print_in_canonical_spelling() {
        assert_canonical(
            "INSERT INTO t (a) VALUES ('it''s', -5, 12345678901234567890123456789, 1.5, -2.5E-3, \
             1., 1.e5, 1e10, TRUE, False, 0xCAFE, 0x, 123E4567-E89B-12D3-A456-426614174000, \
             1h30m, NULL)",
            "INSERT INTO t (a) VALUES ('it''s', -5, 12345678901234567890123456789, 1.5, -2.5E-3, \
             1., 1.e5, 1e10, true, false, 0xcafe, 0x, 123e4567-e89b-12d3-a456-426614174000, \
             1h30m, NULL)",
        );
    }

    #[test]
    fn float_specials_are_single_tokens() {
        assert_canonical(
            "INSERT INTO t (a) VALUES (nan, -nan, INFINITY, -infinity, - NaN)",
            "INSERT INTO t (a) VALUES (NaN, -NaN, Infinity, -Infinity, -NaN)",
        );
        assert_eq!(
            term("-Infinity"),
            literal(Literal::Float("-Infinity".into()))
        );
    }

    #[test]
    fn strings_keep_newlines_unicode_and_dollar_bodies() {
        assert_eq!(
            term("'line\ntwo ''日本'' \\n'"),
            literal(Literal::String("line\ntwo '日本' \\n".into()))
        );
        assert_canonical(
            "INSERT INTO t (a) VALUES ($$it's \"raw\"$$, '')",
            "INSERT INTO t (a) VALUES ('it''s \"raw\"', '')",
        );
    }

    #[test]
    fn bind_markers() {
        assert_canonical(
            r#"INSERT INTO t (a, b, c) VALUES (?, :Name, :"Name")"#,
            r#"INSERT INTO t (a, b, c) VALUES (?, :name, :"Name")"#,
        );
    }

    #[test]
    fn collection_tuple_and_udt_literals() {
        assert_canonical(
            "INSERT INTO t (a) VALUES ([], [1, 2], {1, 2}, {'k': 1, 'l': 2}, {}, (1, 'a'), (1), \
             {street: 'x', \"Zip\": 1})",
            "INSERT INTO t (a) VALUES ([], [1, 2], {1, 2}, {'k': 1, 'l': 2}, {}, (1, 'a'), (1), \
             {street: 'x', \"Zip\": 1})",
        );
        assert_refused("INSERT INTO t (a) VALUES (())", "input ')'");
        assert_refused("INSERT INTO t (a) VALUES ({1: 2, 3})", "input '}'");
    }

    #[test]
    fn arithmetic_binds_products_tighter_and_associates_left() {
        use ArithmeticOp::*;
        assert_eq!(
            term("1 + 2 * 3"),
            binary(Add, int("1"), binary(Mul, int("2"), int("3")))
        );
        assert_eq!(
            term("1 - 2 - 3"),
            binary(Sub, binary(Sub, int("1"), int("2")), int("3"))
        );
        assert_eq!(
            term("8 / 4 % 3 * 2"),
            binary(
                Mul,
                binary(Rem, binary(Div, int("8"), int("4")), int("3")),
                int("2")
            )
        );
        assert_canonical(
            "INSERT INTO t (a) VALUES (1+2*3-4/5%6)",
            "INSERT INTO t (a) VALUES (1 + 2 * 3 - 4 / 5 % 6)",
        );
    }

    #[test]
    fn a_minus_folds_into_a_number_and_negates_anything_else() {
        assert_eq!(term("-5"), int("-5"));
        assert_eq!(term("- 5"), int("-5"));
        assert_eq!(term("- -5"), TermKind::Negate(boxed(int("-5"))));
        assert_eq!(
            term("-?"),
            TermKind::Negate(boxed(TermKind::Marker(BindMarker::Anonymous)))
        );
        assert_canonical(
            "INSERT INTO t (a) VALUES (-(1), - ?, -f(1), - -1, - 3w, - P1D, - 0x01)",
            "INSERT INTO t (a) VALUES (-(1), -?, -f(1), - -1, - 3w, - P1D, - 0x01)",
        );
        assert_refused("INSERT INTO t (a) VALUES (- - 1)", "input '-'");
    }

    #[test]
    fn function_calls_type_hints_and_casts() {
        assert_canonical(
            "INSERT INTO t (a) VALUES (now(), ks.f(1, 'a'), token(1), (int) ?, (frozen<list<int>>) [1], \
             ('org.Custom') 0x01, CAST(1 + 2 AS text))",
            "INSERT INTO t (a) VALUES (now(), ks.f(1, 'a'), token(1), (int) ?, (frozen<list<int>>) [1], \
             ('org.Custom') 0x01, CAST(1 + 2 AS text))",
        );
        assert_refused(
            "INSERT INTO t (a) VALUES (CAST(1 AS list<int>))",
            "input 'list'",
        );
        assert_refused(
            "INSERT INTO t (a) VALUES (CAST(1 text))",
            "mismatched input 'text' expecting K_AS",
        );
    }

    #[test]
    fn properties_take_constants_keywords_and_maps_of_constants() {
        assert_canonical(
            "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1} \
             AND durable_writes = false AND \"Odd\" = -1.5 AND x = static AND y = {}",
            "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1} \
             AND durable_writes = false AND \"Odd\" = -1.5 AND x = static AND y = {}",
        );
    }

    #[test]
    fn properties_refuse_markers_names_and_repeats() {
        assert_refused(
            "CREATE KEYSPACE ks WITH replication = {'class': ?}",
            "Invalid property value: ? for property: 'class' (bind variables are not supported in DDL queries)",
        );
        assert_refused("CREATE KEYSPACE ks WITH x = y", "input 'y'");
        assert_refused("CREATE KEYSPACE ks WITH x = NULL", "input 'NULL'");
        assert_refused(
            "CREATE KEYSPACE ks WITH durable_writes = true AND DURABLE_WRITES = false",
            "Multiple definitions for property 'durable_writes'",
        );
    }

    #[test]
    fn using_takes_integers_and_markers() {
        assert_canonical(
            "UPDATE t USING TTL 10 AND TIMESTAMP :ts SET a = 1 WHERE k = 1",
            "UPDATE t USING TTL 10 AND TIMESTAMP :ts SET a = 1 WHERE k = 1",
        );
        assert_refused(
            "UPDATE t USING TTL 'x' SET a = 1 WHERE k = 1",
            "line 1:19 no viable alternative at input 'x' (UPDATE t USING TTL [']...)",
        );
        assert_refused(
            "UPDATE t USING TTL 1.5 SET a = 1 WHERE k = 1",
            "input '1.5'",
        );
        assert_refused(
            "UPDATE t USING LIMIT 1 SET a = 1 WHERE k = 1",
            "input 'LIMIT'",
        );
    }
}

/// §2.2: CREATE / ALTER / DROP KEYSPACE, USE.
mod keyspaces {
    use super::*;

    #[test]
    fn create_keyspace() {
        assert_canonical(
            "create keyspace if not exists Ks with replication = {'class': 'NetworkTopologyStrategy', 'dc1': '3'}",
            "CREATE KEYSPACE IF NOT EXISTS ks WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': '3'}",
        );
        assert_canonical(
            "CREATE SCHEMA ks WITH durable_writes = true",
            "CREATE KEYSPACE ks WITH durable_writes = true",
        );
        assert_refused(
            "CREATE KEYSPACE ks",
            "mismatched input '<EOF>' expecting K_WITH",
        );
        assert_refused(
            "CREATE KEYSPACE ks.x WITH durable_writes = true",
            "input '.'",
        );
    }

    #[test]
    fn alter_keyspace() {
        assert_canonical(
            "ALTER KEYSPACE IF EXISTS ks WITH durable_writes = false",
            "ALTER KEYSPACE IF EXISTS ks WITH durable_writes = false",
        );
        assert_refused("ALTER KEYSPACE ks", "expecting K_WITH");
    }

    #[test]
    fn drop_keyspace() {
        assert_canonical("drop keyspace if exists ks", "DROP KEYSPACE IF EXISTS ks");
        assert_refused("DROP KEYSPACE ks.t", "input '.'");
    }

    #[test]
    fn use_keyspace() {
        assert_canonical(r#"use "MyKs""#, r#"USE "MyKs""#);
        assert_refused("USE", "line 0:-1 no viable alternative at input '<EOF>'");
        assert_refused("USE ks.t", "input '.'");
    }
}

/// §2.3: CREATE / ALTER / DROP TABLE, TRUNCATE.
mod tables {
    use super::*;

    #[test]
    fn create_table_with_every_element_and_option() {
        assert_canonical(
            "create table if not exists ks.t (k int, c text, s set<int> static, \
             primary key ((k, c), s)) with clustering order by (s desc) and comment = 'x' \
             and compact storage",
            "CREATE TABLE IF NOT EXISTS ks.t (k int, c text, s set<int> STATIC, \
             PRIMARY KEY ((k, c), s)) WITH CLUSTERING ORDER BY (s DESC) AND comment = 'x' \
             AND COMPACT STORAGE",
        );
        assert_canonical(
            "CREATE COLUMNFAMILY t (k int PRIMARY KEY, v text)",
            "CREATE TABLE t (k int PRIMARY KEY, v text)",
        );
    }

    #[test]
    fn primary_key_forms() {
        for (written, printed) in [
            ("(a)", "(a)"),
            ("((a))", "(a)"),
            ("(a, b, c)", "(a, b, c)"),
            ("((a, b), c, d)", "((a, b), c, d)"),
            ("((a, b))", "((a, b))"),
        ] {
            assert_canonical(
                &format!("CREATE TABLE t (a int, b int, c int, d int, PRIMARY KEY {written})"),
                &format!("CREATE TABLE t (a int, b int, c int, d int, PRIMARY KEY {printed})"),
            );
        }
        assert_refused("CREATE TABLE t (a int, PRIMARY KEY ())", "input ')'");
        assert_refused("CREATE TABLE t (a int, PRIMARY KEY a)", "input 'a'");
    }

    #[test]
    fn create_table_refusals() {
        assert_refused("CREATE TABLE t ()", "input ')'");
        assert_refused("CREATE TABLE t (a)", "input ')'");
        assert_refused(
            "CREATE TABLE t (a int PRIMARY KEY) WITH CLUSTERING ORDER BY (a)",
            "input ')'",
        );
        assert_refused(
            "CREATE TABLE t (a int PRIMARY KEY) WITH comment = 'a' AND comment = 'b'",
            "Multiple definitions for property 'comment'",
        );
    }

    #[test]
    fn alter_table_actions() {
        for (written, printed) in [
            ("add v int static", "ADD v int STATIC"),
            (
                "add if not exists (v int, w list<text>)",
                "ADD IF NOT EXISTS (v int, w list<text>)",
            ),
            ("drop v", "DROP v"),
            (
                "drop if exists (v, w) using timestamp 123",
                "DROP IF EXISTS (v, w) USING TIMESTAMP 123",
            ),
            (
                "rename if exists a to b and c to d",
                "RENAME IF EXISTS a TO b AND c TO d",
            ),
            (
                "with comment = 'x' and gc_grace_seconds = 10",
                "WITH comment = 'x' AND gc_grace_seconds = 10",
            ),
            ("alter v type bigint", "ALTER v TYPE bigint"),
            ("drop compact storage", "DROP COMPACT STORAGE"),
            ("drop compact", "DROP compact"),
        ] {
            assert_canonical(
                &format!("alter table if exists ks.t {written}"),
                &format!("ALTER TABLE IF EXISTS ks.t {printed}"),
            );
        }
        assert_canonical("ALTER COLUMNFAMILY t ADD v int", "ALTER TABLE t ADD v int");
    }

    #[test]
    fn alter_table_refusals() {
        assert_refused("ALTER TABLE t", "input '<EOF>'");
        assert_refused("ALTER TABLE t ADD v int, w int", "input ','");
        assert_refused("ALTER TABLE t DROP v USING TTL 1", "input 'TTL'");
        assert_refused(
            "ALTER TABLE t WITH CLUSTERING ORDER BY (c DESC)",
            "input 'ORDER'",
        );
    }

    #[test]
    fn drop_table_and_truncate() {
        assert_canonical("drop table if exists ks.t", "DROP TABLE IF EXISTS ks.t");
        assert_canonical("DROP COLUMNFAMILY t", "DROP TABLE t");
        assert_canonical("truncate ks.t", "TRUNCATE TABLE ks.t");
        assert_canonical("TRUNCATE TABLE t", "TRUNCATE TABLE t");
        assert_canonical("TRUNCATE COLUMNFAMILY t", "TRUNCATE TABLE t");
        assert_refused("TRUNCATE", "input '<EOF>'");
        assert_refused("DROP TABLE", "input '<EOF>'");
    }
}

/// §2.4: CREATE INDEX, DROP INDEX.
mod indexes {
    use super::*;

    #[test]
    fn create_index_forms() {
        assert_canonical("create index on t (v)", "CREATE INDEX ON t (v)");
        assert_canonical(
            "create index if not exists idx on ks.t (keys(m))",
            "CREATE INDEX IF NOT EXISTS idx ON ks.t (KEYS(m))",
        );
        assert_canonical(
            "create custom index i on t (values(s), entries(m), full(f), keys) \
             using 'StorageAttachedIndex' with options = {'case_sensitive': 'false'}",
            "CREATE CUSTOM INDEX i ON t (VALUES(s), ENTRIES(m), FULL(f), keys) \
             USING 'StorageAttachedIndex' WITH options = {'case_sensitive': 'false'}",
        );
        assert_canonical("CREATE INDEX ON t ()", "CREATE INDEX ON t ()");
    }

    #[test]
    fn create_index_refusals() {
        assert_refused("CREATE INDEX i ON t v", "input 'v'");
        assert_refused("CREATE INDEX ks.i ON t (v)", "input '.'");
        assert_refused(
            "CREATE INDEX ON t (v) USING StorageAttachedIndex",
            "input 'StorageAttachedIndex'",
        );
    }

    #[test]
    fn drop_index() {
        assert_canonical("drop index if exists ks.i", "DROP INDEX IF EXISTS ks.i");
        assert_refused("DROP INDEX", "input '<EOF>'");
    }
}

/// §2.10 (parsed, refused later): types and materialized views.
mod out_of_subset {
    use super::*;

    #[test]
    fn types() {
        assert_canonical(
            "create type if not exists ks.addr (street text, zip int,)",
            "CREATE TYPE IF NOT EXISTS ks.addr (street text, zip int)",
        );
        assert_canonical(
            "alter type ks.addr add if not exists country text",
            "ALTER TYPE ks.addr ADD IF NOT EXISTS country text",
        );
        assert_canonical(
            "alter type if exists addr rename a to b and c to d",
            "ALTER TYPE IF EXISTS addr RENAME a TO b AND c TO d",
        );
        assert_canonical(
            "alter type addr alter zip type bigint",
            "ALTER TYPE addr ALTER zip TYPE bigint",
        );
        assert_canonical("drop type if exists ks.addr", "DROP TYPE IF EXISTS ks.addr");
        assert_refused("CREATE TYPE addr", "input '<EOF>'");
        assert_refused("ALTER TYPE addr DROP zip", "input 'DROP'");
    }

    #[test]
    fn materialized_views() {
        assert_canonical(
            "create materialized view if not exists ks.v as select a, b from ks.t \
             where a is not null and b is not null primary key (b, a) \
             with clustering order by (a desc) and comment = 'x'",
            "CREATE MATERIALIZED VIEW IF NOT EXISTS ks.v AS SELECT a, b FROM ks.t \
             WHERE a IS NOT NULL AND b IS NOT NULL PRIMARY KEY (b, a) \
             WITH CLUSTERING ORDER BY (a DESC) AND comment = 'x'",
        );
        assert_canonical(
            "alter materialized view ks.v with comment = 'x'",
            "ALTER MATERIALIZED VIEW ks.v WITH comment = 'x'",
        );
        assert_canonical(
            "drop materialized view if exists ks.v",
            "DROP MATERIALIZED VIEW IF EXISTS ks.v",
        );
        assert_refused(
            "CREATE MATERIALIZED VIEW v AS SELECT * FROM t WHERE a IS NOT NULL",
            "input '<EOF>'",
        );
    }
}

/// §3.1: type syntax, written in CREATE TABLE.
mod type_syntax {
    use super::*;

    fn column_type(ty: &str) -> String {
        let printed = canonical(&format!("CREATE TABLE t (k int PRIMARY KEY, v {ty})"));
        printed
            .strip_prefix("CREATE TABLE t (k int PRIMARY KEY, v ")
            .and_then(|rest| rest.strip_suffix(')'))
            .unwrap_or_else(|| panic!("unexpected shape: {printed}"))
            .to_string()
    }

    #[test]
    fn every_native_type() {
        for native in NativeType::ALL {
            assert_eq!(column_type(&native.name().to_uppercase()), native.name());
        }
    }

    #[test]
    fn constructed_types() {
        for ty in [
            "list<frozen<set<int>>>",
            "map<text, frozen<map<int, list<blob>>>>",
            "frozen<tuple<int, text, tuple<date>>>",
            "vector<float, 3>",
            "addr",
            "ks.addr",
            "\"Addr\"",
            "\"int\"",
            "\"frozen\"",
            "int.addr",
            "'org.example.Custom'",
        ] {
            assert_eq!(column_type(ty), ty);
        }
    }

    #[test]
    fn type_refusals() {
        let refused = |ty: &str, expected: &str| {
            assert_refused(
                &format!("CREATE TABLE t (k int PRIMARY KEY, v {ty})"),
                expected,
            )
        };
        refused("list<int", "input ')'");
        refused("map<int>", "input '>'");
        refused(
            "tuple<>",
            "reason: NullPointerException Cannot invoke \"org.apache.cassandra.cql3.CQL3Type$Raw.supportsFreezing()\"",
        );
        refused("vector<float>", "input '>'");
        refused("vector<float, x>", "input 'x'");
        // A dimension below 1 parses: Cassandra refuses it once the
        // statement's keyspace is known (see conformance vector_dimensions).
        assert_canonical(
            "CREATE TABLE t (k int PRIMARY KEY, v vector<float, 0>)",
            "CREATE TABLE t (k int PRIMARY KEY, v vector<float, 0>)",
        );
    }
}

/// §2.5: INSERT.
mod insert {
    use super::*;

    #[test]
    fn insert_values() {
        assert_canonical(
            "insert into ks.t (k, v) values (1, 'a') if not exists using ttl 10 and timestamp 123",
            "INSERT INTO ks.t (k, v) VALUES (1, 'a') IF NOT EXISTS USING TTL 10 AND TIMESTAMP 123",
        );
        assert_canonical(
            "INSERT INTO t (k, v) VALUES (?, :v) USING TTL ?",
            "INSERT INTO t (k, v) VALUES (?, :v) USING TTL ?",
        );
    }

    #[test]
    fn insert_json() {
        assert_canonical(
            "insert into t json '{\"k\": 1}' default unset",
            "INSERT INTO t JSON '{\"k\": 1}' DEFAULT UNSET",
        );
        assert_canonical(
            "INSERT INTO t JSON ? DEFAULT NULL IF NOT EXISTS USING TIMESTAMP 1",
            "INSERT INTO t JSON ? DEFAULT NULL IF NOT EXISTS USING TIMESTAMP 1",
        );
        assert_canonical("INSERT INTO t JSON :doc", "INSERT INTO t JSON :doc");
        assert_refused(
            "INSERT INTO t JSON 1",
            "line 1:19 no viable alternative at input '1' (INSERT INTO t JSON [1])",
        );
        assert_refused("INSERT INTO t JSON '{}' DEFAULT 1", "input '1'");
    }

    #[test]
    fn using_comes_after_if_not_exists() {
        assert_refused(
            "INSERT INTO t (k) VALUES (1) USING TTL 1 IF NOT EXISTS",
            "mismatched input 'IF' expecting EOF",
        );
    }

    #[test]
    fn insert_refusals() {
        assert_refused("INSERT INTO t (k) VALUES ()", "input ')'");
        assert_refused("INSERT INTO t () VALUES (1)", "input ')'");
        assert_refused("INSERT INTO t VALUES (1)", "input 'VALUES'");
        assert_refused("INSERT t (k) VALUES (1)", "input 't'");
    }
}

/// §2.6: UPDATE, its assignments and IF conditions.
mod update {
    use super::*;

    #[test]
    fn every_assignment_form() {
        assert_canonical(
            "update ks.t using ttl 5 and timestamp 6 set a = 1, b = b + [1], c = [0] + c, \
             d = d - {'x'}, e += 1, f -= 2, m['k'] = 'v', u.f = 3 where k = 1",
            "UPDATE ks.t USING TTL 5 AND TIMESTAMP 6 SET a = 1, b = b + [1], c = [0] + c, \
             d = d - {'x'}, e += 1, f -= 2, m['k'] = 'v', u.f = 3 WHERE k = 1",
        );
    }

    #[test]
    fn the_other_column_must_be_the_assigned_one() {
        assert_refused(
            "UPDATE t SET x = y + 1 WHERE k = 1",
            "Only expressions of the form X = X +<value> are supported.",
        );
        assert_refused(
            "UPDATE t SET x = y - 1 WHERE k = 1",
            "Only expressions of the form X = X -<value> are supported.",
        );
        assert_refused(
            "UPDATE t SET x = y -1 WHERE k = 1",
            "Only expressions of the form X = X - <value> are supported.",
        );
        assert_refused(
            "UPDATE t SET x = 1 + y WHERE k = 1",
            "Only expressions of the form X = <value> + X are supported.",
        );
    }

    #[test]
    fn every_condition_form() {
        assert_canonical(
            "update t set a = 1 where k = 1 if a = 1 and m['x'] in (1, 2) and s contains 3 \
             and m contains key 'k' and u.f != 2 and l[0] > 1 and a in ? and b <= 2 and u.g in ()",
            "UPDATE t SET a = 1 WHERE k = 1 IF a = 1 AND m['x'] IN (1, 2) AND s CONTAINS 3 \
             AND m CONTAINS KEY 'k' AND u.f != 2 AND l[0] > 1 AND a IN ? AND b <= 2 AND u.g IN ()",
        );
        assert_canonical(
            "UPDATE t SET a = 1 WHERE k = 1 IF EXISTS",
            "UPDATE t SET a = 1 WHERE k = 1 IF EXISTS",
        );
    }

    #[test]
    fn update_refusals() {
        assert_refused("UPDATE t SET a = 1", "input '<EOF>'");
        assert_refused(
            "UPDATE t SET a = 1 WHERE k = 1 USING TTL 5",
            "no viable alternative at input 'USING'",
        );
        assert_refused("UPDATE t SET WHERE k = 1", "input 'WHERE'");
        assert_refused("UPDATE t SET m[1] += 1 WHERE k = 1", "input '+='");
        assert_refused(
            "UPDATE t SET a = 1 WHERE k = 1 IF NOT EXISTS",
            "input 'NOT'",
        );
        assert_refused("UPDATE t SET a = 1 WHERE k = 1 IF", "input '<EOF>'");
    }
}

/// §2.7: DELETE.
mod delete {
    use super::*;

    #[test]
    fn delete_forms() {
        assert_canonical(
            "delete from ks.t using timestamp 1 where k = 1 if exists",
            "DELETE FROM ks.t USING TIMESTAMP 1 WHERE k = 1 IF EXISTS",
        );
        assert_canonical(
            "delete a, m['k'], u.f from t where k = 1 and c > 2 if a = 1",
            "DELETE a, m['k'], u.f FROM t WHERE k = 1 AND c > 2 IF a = 1",
        );
    }

    #[test]
    fn delete_refusals() {
        assert_refused(
            "DELETE FROM t USING TTL 1 WHERE k = 1",
            "mismatched input 'TTL' expecting K_TIMESTAMP",
        );
        assert_refused("DELETE FROM t", "input '<EOF>'");
        assert_refused("DELETE a FROM t WHERE k = 1 IF a", "input '<EOF>'");
    }
}

/// §2.8: BATCH.
mod batch {
    use super::*;

    #[test]
    fn batch_kinds_using_and_optional_semicolons() {
        assert_canonical(
            "begin batch insert into t (k) values (1); update t set a = 1 where k = 1 \
             delete from t where k = 2;; apply batch",
            "BEGIN BATCH INSERT INTO t (k) VALUES (1); UPDATE t SET a = 1 WHERE k = 1; \
             DELETE FROM t WHERE k = 2; APPLY BATCH",
        );
        assert_canonical(
            "BEGIN UNLOGGED BATCH USING TIMESTAMP 1 INSERT INTO t (k) VALUES (1) APPLY BATCH",
            "BEGIN UNLOGGED BATCH USING TIMESTAMP 1 INSERT INTO t (k) VALUES (1); APPLY BATCH",
        );
        assert_canonical(
            "BEGIN COUNTER BATCH UPDATE t SET c = c + 1 WHERE k = 1; APPLY BATCH;",
            "BEGIN COUNTER BATCH UPDATE t SET c = c + 1 WHERE k = 1; APPLY BATCH",
        );
        assert_canonical("BEGIN BATCH APPLY BATCH", "BEGIN BATCH APPLY BATCH");
    }

    #[test]
    fn batch_refusals() {
        assert_refused("BEGIN BATCH SELECT * FROM t; APPLY BATCH", "input 'SELECT'");
        assert_refused("BEGIN BATCH INSERT INTO t (k) VALUES (1)", "input '<EOF>'");
        assert_refused(
            "BEGIN BATCH BEGIN BATCH APPLY BATCH APPLY BATCH",
            "input 'BEGIN'",
        );
        assert_refused("BEGIN LOGGED BATCH APPLY BATCH", "input 'LOGGED'");
    }
}

/// §2.9: SELECT, its selectors and WHERE relations.
mod select {
    use super::*;

    #[test]
    fn every_clause_in_order() {
        assert_canonical(
            "select json distinct a as \"A\", b from ks.t where a = 1 group by a, floor(ts, 1h) \
             order by c asc, d desc, e per partition limit 2 limit ? allow filtering",
            "SELECT JSON DISTINCT a AS \"A\", b FROM ks.t WHERE a = 1 GROUP BY a, floor(ts, 1h) \
             ORDER BY c ASC, d DESC, e PER PARTITION LIMIT 2 LIMIT ? ALLOW FILTERING",
        );
        assert_canonical("SELECT * FROM t", "SELECT * FROM t");
    }

    #[test]
    fn every_relation_form() {
        assert_canonical(
            "select * from t where a = 1 and b in (1, 2) and b in () and c contains 3 \
             and m contains key 'k' and m['k'] = 1 and (c1, c2) > (1, 2) \
             and (c1, c2) in ((1, 2), (3, 4)) and (c1) in ? and (c1, c2) <= ? \
             and token(a, b) > token(1, 2) and t like 'a%' and v is not null and (x != 1)",
            "SELECT * FROM t WHERE a = 1 AND b IN (1, 2) AND b IN () AND c CONTAINS 3 \
             AND m CONTAINS KEY 'k' AND m['k'] = 1 AND (c1, c2) > (1, 2) \
             AND (c1, c2) IN ((1, 2), (3, 4)) AND (c1) IN ? AND (c1, c2) <= ? \
             AND token(a, b) > token(1, 2) AND t LIKE 'a%' AND v IS NOT NULL AND x != 1",
        );
    }

    #[test]
    fn every_selector_form() {
        assert_canonical(
            "select count(*), count(a), writetime(a), maxwritetime(l[1]), ttl(u.f), \
             cast(a as text), token(k), ks.f(a, 1), -a, a + b * c - d, (int) ?, m['a'..'c'], \
             m[..'c'], m['a'..], u.f.g, [a, 1], {a, b}, {a: 1}, {}, (a, b), null, 'x', :m, \
             (list<int>) [a] from t",
            "SELECT COUNT(*), count(a), WRITETIME(a), MAXWRITETIME(l[1]), TTL(u.f), \
             CAST(a AS text), token(k), ks.f(a, 1), -a, a + b * c - d, (int) ?, m['a'..'c'], \
             m[..'c'], m['a'..], u.f.g, [a, 1], {a, b}, {a: 1}, {}, (a, b), NULL, 'x', :m, \
             (list<int>) [a] FROM t",
        );
    }

    #[test]
    fn select_refusals() {
        assert_refused("SELECT FROM t", "no viable alternative at input 'FROM'");
        assert_refused("SELECT a, FROM t", "input 'FROM'");
        assert_refused("SELECT * FROM t ORDER BY a DESC ASC", "input 'ASC'");
        assert_refused(
            "SELECT * FROM t LIMIT 'x'",
            "no viable alternative at input 'x' (SELECT * FROM t LIMIT [']...)",
        );
        assert_refused(
            "SELECT * FROM t ALLOW",
            "mismatched input '<EOF>' expecting K_FILTERING",
        );
        assert_refused(
            "SELECT a AS from FROM t",
            "no viable alternative at input 'from' (SELECT a AS [from]...)",
        );
        assert_refused("SELECT * FROM t LIMIT 1 ORDER BY a", "input 'ORDER'");
        assert_refused("SELECT * FROM t WHERE", "input '<EOF>'");
        assert_refused("SELECT * FROM t WHERE a", "input '<EOF>'");
        assert_refused("SELECT * FROM t WHERE (a, b) = ", "input '<EOF>'");
        assert_refused("SELECT a[1 FROM t", "input 'FROM'");
        assert_refused("SELECT COUNT(*, a) FROM t", "input ','");
        assert_refused("SELECT WRITETIME(1) FROM t", "input '1'");
    }
}

/// Whole-statement rules: terminators, comments, limits, lexical errors.
mod statements {
    use super::*;

    #[test]
    fn trailing_semicolons_and_comments() {
        assert_canonical("SELECT /* c */ a -- x\nFROM t // y\n;;;", "SELECT a FROM t");
        assert_canonical("SELECT a FROM t -- no newline", "SELECT a FROM t");
    }

    #[test]
    fn one_statement_only() {
        assert_refused("SELECT * FROM t; SELECT * FROM u", "input 'SELECT'");
        assert_refused(
            "GRANT ALL ON t TO r",
            "no viable alternative at input 'GRANT'",
        );
        assert_refused("", "input '<EOF>'");
    }

    #[test]
    fn unterminated_tokens() {
        assert_refused(
            "SELECT * FROM t WHERE a = 'open",
            "mismatched character '<EOF>' expecting '''",
        );
        assert_refused("SELECT * FROM t WHERE a = $$open", "expecting '$'");
        // Cassandra's lexer leaves an unterminated $$ string's last
        // character for the closing `$$` to refuse (checked on a 5.0 node).
        for (text, message) in [
            (
                "SELECT * FROM t WHERE k = $$abc",
                "line 1:30 mismatched character 'c' expecting '$'",
            ),
            (
                "SELECT * FROM t WHERE k = $$",
                "line 1:28 mismatched character '<EOF>' expecting '$'",
            ),
            (
                "SELECT * FROM t WHERE k = $$a$",
                "line 1:30 mismatched character '<EOF>' expecting '$'",
            ),
            (
                "INSERT INTO t (k, b) VALUES (1, $$a body\nthat never ends);",
                "line 2:16 mismatched character ';' expecting '$'",
            ),
        ] {
            let error = parse_statement(text).expect_err(text);
            assert_eq!(error.message(), message, "{text}");
        }
        assert_refused("SELECT * FROM t WHERE \"open = 1", "expecting '\"'");
        assert_refused("SELECT * FROM t /* open", "expecting '*'");
    }

    #[test]
    fn invalid_characters() {
        assert_refused(
            "SELECT * FROM t WHERE a = @",
            "line 1:26 no viable alternative at character '@'",
        );
    }

    #[test]
    fn nesting_too_deep() {
        let depth = MAX_NESTING + 1;
        let deep = format!("SELECT {}1{} FROM t", "[".repeat(depth), "]".repeat(depth));
        assert_refused(&deep, &format!("nesting deeper than {MAX_NESTING} levels"));
        let ok = format!(
            "SELECT {}1{} FROM t",
            "[".repeat(MAX_NESTING - 1),
            "]".repeat(MAX_NESTING - 1)
        );
        canonical(&ok);
    }
}

/// Words and tokens with two readings, and which one the grammar takes.
mod ambiguities {
    use super::*;

    #[test]
    fn json_is_a_column_unless_a_selection_follows() {
        let s = select("SELECT json FROM t");
        assert!(!s.json);
        assert_eq!(first_selector("SELECT json FROM t"), column("json"));
        let s = select("SELECT JSON * FROM t");
        assert!(s.json && s.selection == SelectClause::Star);
        assert_canonical("SELECT json, a FROM t", "SELECT json, a FROM t");
        assert_canonical("SELECT JSON json FROM t", "SELECT JSON json FROM t");
        assert_canonical("SELECT JSON (int) ? FROM t", "SELECT JSON (int) ? FROM t");
        assert_canonical("SELECT json - 1 FROM t", "SELECT JSON -1 FROM t");
        assert_canonical(r#"SELECT "json" - 1 FROM t"#, r#"SELECT "json" - 1 FROM t"#);
    }

    #[test]
    fn distinct_is_a_column_unless_a_selection_follows() {
        let s = select("SELECT distinct FROM t");
        assert!(!s.distinct);
        assert_eq!(first_selector("SELECT distinct FROM t"), column("distinct"));
        let s = select("SELECT DISTINCT k FROM t");
        assert!(s.distinct);
        assert_eq!(first_selector("SELECT DISTINCT k FROM t"), column("k"));
        assert_canonical(
            "SELECT JSON DISTINCT k FROM t",
            "SELECT JSON DISTINCT k FROM t",
        );
        assert_canonical("SELECT JSON distinct FROM t", "SELECT JSON distinct FROM t");
        assert_canonical(
            "SELECT DISTINCT (a, b) FROM t",
            "SELECT DISTINCT (a, b) FROM t",
        );
    }

    #[test]
    fn a_leading_json_or_distinct_column_is_quoted_when_more_follows() {
        let minus_one = SelectorKind::Binary {
            op: ArithmeticOp::Sub,
            left: sel(column("json")),
            right: sel(SelectorKind::Term(Term {
                kind: int("1"),
                span: Default::default(),
            })),
        };
        assert_eq!(first_selector(r#"SELECT "json" - 1 FROM t"#), minus_one);
        assert_canonical(
            r#"SELECT "distinct"[1] FROM t"#,
            r#"SELECT "distinct"[1] FROM t"#,
        );
        assert_canonical(
            r#"SELECT DISTINCT json[1] FROM t"#,
            "SELECT DISTINCT json[1] FROM t",
        );
    }

    #[test]
    fn x_equals_x_minus_one_lexes_a_negative_integer() {
        let Statement::Update(u) = parse("UPDATE t SET x = x -1 WHERE k = 1") else {
            panic!("not an UPDATE");
        };
        assert_eq!(
            u.assignments[0].kind,
            AssignmentKind::Apply {
                column: Ident::new("x"),
                op: ArithmeticSign::Plus,
                value: Term {
                    kind: int("-1"),
                    span: Default::default()
                },
                shorthand: false,
            }
        );
        assert_canonical(
            "UPDATE t SET x = x -1 WHERE k = 1",
            "UPDATE t SET x = x + -1 WHERE k = 1",
        );
        assert_canonical(
            "UPDATE t SET x = x - -1 WHERE k = 1",
            "UPDATE t SET x = x - -1 WHERE k = 1",
        );
    }

    #[test]
    fn a_minus_one_in_terms_is_a_subtraction() {
        use ArithmeticOp::*;
        assert_eq!(term("2-1"), binary(Sub, int("2"), int("1")));
        assert_eq!(
            term("2 -1 * 3"),
            binary(Sub, int("2"), binary(Mul, int("1"), int("3")))
        );
        assert_eq!(term("f(1)-1"), term("f(1) - 1"));
        assert_canonical("SELECT a-1, a -1 FROM t", "SELECT a - 1, a - 1 FROM t");
    }

    #[test]
    fn dot_dot_between_integers_is_a_slice() {
        let SelectorKind::Sub { sub, .. } = first_selector("SELECT m[1..3] FROM t") else {
            panic!("not a sub-selection");
        };
        let bound = |t: &str| {
            Some(Box::new(Term {
                kind: int(t),
                span: Default::default(),
            }))
        };
        assert_eq!(sub, SubSelection::Slice(bound("1"), bound("3")));
        assert_canonical("SELECT m[1..3] FROM t", "SELECT m[1..3] FROM t");
        assert_canonical("SELECT m[1. ..2.] FROM t", "SELECT m[1. ..2.] FROM t");
        assert_refused("SELECT m[1...3] FROM t", "input '.'");
    }

    #[test]
    fn upper_case_iso_words_are_durations() {
        assert_eq!(term("P1D"), literal(Literal::Duration("P1D".into())));
        assert_eq!(term("-P1D"), literal(Literal::Duration("-P1D".into())));
        assert_eq!(first_selector("SELECT p1d FROM t"), column("p1d"));
        assert_canonical(
            "INSERT INTO t (d) VALUES (1h30m, -3w, PT5M, P2W, P1DT2H, P0001-02-03T04:05:06, 1µs, 2MO)",
            "INSERT INTO t (d) VALUES (1h30m, -3w, PT5M, P2W, P1DT2H, P0001-02-03T04:05:06, 1µs, 2MO)",
        );
    }

    #[test]
    fn type_names_are_column_names() {
        assert_canonical(
            "CREATE TABLE t (text text, key int PRIMARY KEY, date date, time time, list list<int>)",
            "CREATE TABLE t (text text, key int PRIMARY KEY, date date, time time, list list<int>)",
        );
    }

    #[test]
    fn a_trailing_comma_closes_create_table() {
        assert_canonical(
            "CREATE TABLE t (a int PRIMARY KEY, b text,)",
            "CREATE TABLE t (a int PRIMARY KEY, b text)",
        );
    }

    #[test]
    fn token_is_reserved_but_names_a_function() {
        assert_canonical(
            r#"SELECT token(k), "token"(k), ks.token(k) FROM t WHERE token(k) > token(1)"#,
            "SELECT token(k), token(k), ks.token(k) FROM t WHERE token(k) > token(1)",
        );
        assert_refused(
            "SELECT token FROM t",
            "line 1:13 mismatched input 'FROM' expecting '('",
        );
    }

    #[test]
    fn count_star_is_special_count_of_a_column_is_a_function() {
        assert_eq!(
            first_selector("SELECT count(*) FROM t"),
            SelectorKind::CountStar
        );
        assert!(matches!(
            first_selector("SELECT COUNT(k) FROM t"),
            SelectorKind::Function { .. }
        ));
        assert_canonical(
            "SELECT Count(*), count(k), count FROM t",
            "SELECT COUNT(*), count(k), count FROM t",
        );
    }

    #[test]
    fn braces_hold_a_udt_when_a_name_and_colon_open_them() {
        assert!(matches!(term("{a: 1}"), TermKind::Udt(_)));
        assert!(matches!(term("{\"A\": 1, key: 2}"), TermKind::Udt(_)));
        assert!(matches!(term("{'a': 1}"), TermKind::Map(_)));
        assert!(matches!(term("{:a: 1}"), TermKind::Map(_)));
        assert!(matches!(term("{?: 1}"), TermKind::Map(_)));
        assert_eq!(term("{}"), TermKind::Set(Vec::new()));
        assert!(matches!(term("{1}"), TermKind::Set(_)));
    }

    #[test]
    fn parentheses_hold_a_type_hint_when_a_term_follows() {
        assert!(matches!(term("(int) ?"), TermKind::TypeHint { .. }));
        assert!(matches!(
            term("('org.Custom') 1"),
            TermKind::TypeHint { .. }
        ));
        assert!(matches!(term("(1)"), TermKind::Tuple(_)));
        assert!(matches!(term("('a')"), TermKind::Tuple(_)));
        assert!(matches!(term("(int) (1)"), TermKind::TypeHint { .. }));
        assert_refused("INSERT INTO t (a) VALUES ((int))", "input ')'");
    }

    #[test]
    fn a_selector_type_hint_covers_a_primary_only() {
        let SelectorKind::Sub { selector, .. } = first_selector("SELECT (int) m[1] FROM t") else {
            panic!("the subscript should apply to the hinted value");
        };
        assert!(matches!(selector.kind, SelectorKind::TypeHint { .. }));
        assert!(matches!(
            first_selector("SELECT (a) - b FROM t"),
            SelectorKind::Binary { .. }
        ));
        assert_canonical(
            "SELECT (int) m[1], (a) - b FROM t",
            "SELECT (int) m[1], (a) - b FROM t",
        );
    }

    #[test]
    fn contains_key_takes_the_word_key() {
        let s = select("SELECT * FROM t WHERE m CONTAINS key(1)");
        assert!(matches!(
            &s.where_clause[0].kind,
            RelationKind::Contains { key: true, value, .. } if matches!(value.kind, TermKind::Tuple(_))
        ));
        assert_canonical(
            r#"SELECT * FROM t WHERE m CONTAINS "key"(1)"#,
            r#"SELECT * FROM t WHERE m CONTAINS "key"(1)"#,
        );
    }

    #[test]
    fn functions_named_like_special_forms_print_quoted() {
        assert!(matches!(
            first_selector(r#"SELECT "writetime"(a) FROM t"#),
            SelectorKind::Function { .. }
        ));
        assert_canonical(
            r#"SELECT "writetime"(a), "ttl"(), "cast"(a), ks.cast(a), WRITETIME(a) FROM t"#,
            r#"SELECT "writetime"(a), "ttl"(), "cast"(a), ks.cast(a), WRITETIME(a) FROM t"#,
        );
    }

    #[test]
    fn exists_after_if_is_a_column_when_a_condition_follows() {
        let Statement::Update(u) = parse("UPDATE t SET a = 1 WHERE k = 1 IF exists = 1") else {
            panic!("not an UPDATE");
        };
        assert!(matches!(u.if_clause, Some(IfClause::Conditions(_))));
        let Statement::Update(u) = parse("UPDATE t SET a = 1 WHERE k = 1 IF EXISTS") else {
            panic!("not an UPDATE");
        };
        assert_eq!(u.if_clause, Some(IfClause::Exists));
    }

    #[test]
    fn a_minus_or_dot_is_kept_apart_from_the_number_it_would_join() {
        assert!(matches!(term("- 3w"), TermKind::Negate(_)));
        assert_eq!(term("-3w"), literal(Literal::Duration("-3w".into())));
        assert!(matches!(
            first_selector("SELECT 5 .f FROM t"),
            SelectorKind::Sub { .. }
        ));
        assert_canonical(
            "SELECT 5 .f, 1.5.f, u.f FROM t",
            "SELECT 5 .f, 1.5.f, u.f FROM t",
        );
    }

    #[test]
    fn a_native_type_name_before_a_dot_is_a_keyspace() {
        assert_canonical(
            "CREATE TABLE t (k int PRIMARY KEY, v date.addr)",
            "CREATE TABLE t (k int PRIMARY KEY, v date.addr)",
        );
    }
}
