//! What `DESCRIBE SCHEMA` prints on a Cassandra 5.0 cluster must read back:
//! a dump is the usual way a real schema reaches widerow.
//!
//! The fixture `tests/describe_schema/cassandra_5_0.cql` follows the
//! server's output format: keyspaces with their replication map (values as
//! strings, two spaces before `AND durable_writes`), types and tables over
//! several lines, every table option 5.0 prints in its order, lower-case
//! `static`, `keys(…)`-style index targets, storage-attached indexes as
//! `CREATE CUSTOM INDEX … USING 'StorageAttachedIndex'`, and materialized
//! views with their ` WITH` one space in.

use std::collections::BTreeMap;

use widerow::schema::ddl::TABLE_OPTIONS;
use widerow::syntax::ast::{Statement, TableOption};
use widerow::{parse_statement, split_statements};

const FIXTURE: &str = include_str!("describe_schema/cassandra_5_0.cql");

/// The property names of `options`, in order.
fn property_names(options: &[TableOption]) -> Vec<&str> {
    options
        .iter()
        .filter_map(|o| match o {
            TableOption::Property(p) => Some(p.name.name.as_str()),
            _ => None,
        })
        .collect()
}

fn parsed_fixture() -> Vec<(usize, Statement)> {
    split_statements(FIXTURE)
        .into_iter()
        .map(|s| {
            let statement = parse_statement(&s.text).unwrap_or_else(|e| {
                panic!(
                    "cassandra_5_0.cql:{}:{}: {}\n{}",
                    s.line,
                    s.column,
                    e.message(),
                    s.text
                )
            });
            (s.line, statement)
        })
        .collect()
}

#[test]
fn every_statement_parses_and_round_trips() {
    let statements = parsed_fixture();
    for (line, statement) in &statements {
        let printed = statement.to_string();
        let again = parse_statement(&printed)
            .unwrap_or_else(|e| panic!("line {line}: {printed}\n{}", e.message()));
        assert_eq!(&again, statement, "line {line}: {printed}");
    }

    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, statement) in &statements {
        let kind = match statement {
            Statement::CreateKeyspace(_) => "keyspace",
            Statement::CreateType(_) => "type",
            Statement::CreateTable(_) => "table",
            Statement::CreateIndex(i) if i.custom => "custom index",
            Statement::CreateIndex(_) => "index",
            Statement::CreateMaterializedView(_) => "view",
            other => panic!("DESCRIBE SCHEMA prints no {other}"),
        };
        *kinds.entry(kind).or_default() += 1;
    }
    let expected = BTreeMap::from([
        ("custom index", 4),
        ("index", 5),
        ("keyspace", 3),
        ("table", 8),
        ("type", 3),
        ("view", 2),
    ]);
    assert_eq!(kinds, expected);
}

#[test]
fn tables_and_views_carry_every_5_0_option_in_order() {
    for (line, statement) in parsed_fixture() {
        let (options, is_view) = match &statement {
            Statement::CreateTable(t) => (&t.options, false),
            Statement::CreateMaterializedView(v) => (&v.options, true),
            _ => continue,
        };
        // Views have no time to live of their own, so DESCRIBE leaves it out.
        let expected: Vec<&str> = TABLE_OPTIONS
            .iter()
            .copied()
            .filter(|name| !(is_view && *name == "default_time_to_live"))
            .collect();
        assert_eq!(
            property_names(options),
            expected,
            "statement at line {line}"
        );
    }
}
