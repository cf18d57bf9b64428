//! Schema statements applied to a [`Catalog`]: CREATE / ALTER / DROP of
//! keyspaces, tables, indexes, types and materialized views, plus USE and
//! TRUNCATE (which only look the schema up).
//!
//! Every check follows Cassandra 5.0's `cql3/statements/schema` classes, in
//! the order the server runs them, so that a statement with several problems
//! reports the same one a real node would. That order is: errors raised while
//! parsing (duplicate columns, several primary keys), then while preparing
//! (resolving the keyspace, a missing primary key), then the checks every
//! schema statement makes (system keyspaces, the keyspace name), then the
//! statement's own `apply`.
//!
//! A statement that fails leaves the catalog untouched: every handler builds
//! the new objects aside and only writes them once nothing can fail any more.

mod access;
mod alter_table;
mod index;
mod keyspace;
mod options;
mod table;
mod types;
mod view;

use crate::error::{Error, ErrorKind};
use crate::syntax::ast::{write_name, DropObject, QualifiedName, Statement};
use crate::syntax::span::Span;

use super::catalog::Catalog;

pub(crate) use options::option_str;
pub use options::{option_text, table_option_default, TABLE_OPTIONS};

/// A schema object a statement created, altered or dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchemaObject {
    /// A keyspace.
    Keyspace(String),
    /// A table.
    Table {
        /// Its keyspace.
        keyspace: String,
        /// Its name.
        name: String,
    },
    /// A materialized view.
    MaterializedView {
        /// Its keyspace.
        keyspace: String,
        /// Its name.
        name: String,
        /// The table it is built from.
        base: String,
    },
    /// A secondary index.
    Index {
        /// Its keyspace.
        keyspace: String,
        /// The indexed table.
        table: String,
        /// The index name.
        name: String,
    },
    /// A user-defined type.
    Type {
        /// Its keyspace.
        keyspace: String,
        /// Its name.
        name: String,
    },
}

/// What a schema statement did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchemaChange {
    /// A new object exists.
    Created(SchemaObject),
    /// An existing object changed.
    Altered(SchemaObject),
    /// An object is gone.
    Dropped(SchemaObject),
    /// Nothing changed: `IF NOT EXISTS` on an existing object, `IF EXISTS`
    /// on a missing one, or an ALTER that left everything as it was. Cassandra
    /// answers these with a plain `Void` result, not a schema change.
    NoOp,
    /// `USE ks` succeeded: the session's keyspace becomes `ks`.
    UseKeyspace(String),
    /// `TRUNCATE` names an existing table; the caller empties it.
    Truncated {
        /// The table's keyspace.
        keyspace: String,
        /// The table.
        table: String,
    },
}

/// The kind of change in a native-protocol schema-change event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeKind {
    /// `CREATED`
    Created,
    /// `UPDATED`
    Updated,
    /// `DROPPED`
    Dropped,
}

/// The target of a native-protocol schema-change event. Views are reported
/// as tables, and index changes as an update of their table, as Cassandra
/// does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventTarget {
    /// `KEYSPACE`
    Keyspace,
    /// `TABLE`
    Table,
    /// `TYPE`
    Type,
}

/// The schema-change event Cassandra would push for a change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaEvent {
    /// Created, updated or dropped.
    pub change: ChangeKind,
    /// What kind of object.
    pub target: EventTarget,
    /// The keyspace.
    pub keyspace: String,
    /// The table or type (none for a keyspace event).
    pub name: Option<String>,
}

impl SchemaChange {
    /// The event Cassandra sends for this change (`None` for no-ops, USE and
    /// TRUNCATE, which send none).
    pub fn event(&self) -> Option<SchemaEvent> {
        let (change, object) = match self {
            SchemaChange::Created(o) => (ChangeKind::Created, o),
            SchemaChange::Altered(o) => (ChangeKind::Updated, o),
            SchemaChange::Dropped(o) => (ChangeKind::Dropped, o),
            _ => return None,
        };
        let event = |change, target, keyspace: &str, name: Option<&str>| SchemaEvent {
            change,
            target,
            keyspace: keyspace.to_string(),
            name: name.map(str::to_string),
        };
        Some(match object {
            SchemaObject::Keyspace(ks) => event(change, EventTarget::Keyspace, ks, None),
            SchemaObject::Table { keyspace, name }
            | SchemaObject::MaterializedView { keyspace, name, .. } => {
                event(change, EventTarget::Table, keyspace, Some(name))
            }
            SchemaObject::Index {
                keyspace, table, ..
            } => event(
                ChangeKind::Updated,
                EventTarget::Table,
                keyspace,
                Some(table),
            ),
            SchemaObject::Type { keyspace, name } => {
                event(change, EventTarget::Type, keyspace, Some(name))
            }
        })
    }
}

impl Catalog {
    /// Applies a schema statement (or checks a USE / TRUNCATE) the way a
    /// Cassandra 5.0 node would, with `current_keyspace` the session's
    /// keyspace for unqualified names.
    ///
    /// On error the catalog is unchanged and the error carries Cassandra's
    /// kind and exact message. Data statements (SELECT, INSERT, …) are not
    /// schema statements and are refused.
    pub fn apply(
        &mut self,
        statement: &Statement,
        current_keyspace: Option<&str>,
    ) -> Result<SchemaChange, Error> {
        let current = current_keyspace;
        self.authorize(statement, current)?;
        match statement {
            Statement::CreateKeyspace(s) => self.create_keyspace(s),
            Statement::AlterKeyspace(s) => self.alter_keyspace(s),
            Statement::Drop(s) => match s.object {
                DropObject::Keyspace => self.drop_keyspace(s),
                DropObject::Table => self.drop_table(s, current),
                DropObject::Index => self.drop_index(s, current),
                DropObject::Type => self.drop_type(s, current),
                DropObject::MaterializedView => self.drop_view(s, current),
            },
            Statement::Use(s) => self.use_keyspace(s),
            Statement::CreateTable(s) => self.create_table(s, current),
            Statement::AlterTable(s) => self.alter_table(s, current),
            Statement::Truncate(s) => self.truncate(s, current),
            Statement::CreateIndex(s) => self.create_index(s, current),
            Statement::CreateType(s) => self.create_type(s, current),
            Statement::AlterType(s) => self.alter_type(s, current),
            Statement::CreateMaterializedView(s) => self.create_view(s, current),
            Statement::AlterMaterializedView(s) => self.alter_view(s, current),
            // Roles are not schema: a session runs them against its roles
            // (`crate::auth`); tools that keep only a catalog (lint,
            // explain) pass over them.
            Statement::Role(_) => Ok(SchemaChange::NoOp),
            Statement::Select(_)
            | Statement::Insert(_)
            | Statement::Update(_)
            | Statement::Delete(_)
            | Statement::Batch(_) => {
                Err(Error::new(ErrorKind::ServerError, "not a schema statement")
                    .with_span(statement.span()))
            }
        }
    }
}

/// Keyspace and index names: Java's `\w+` (ASCII), at most 48
/// characters (`SchemaConstants.NAME_LENGTH`).
pub(crate) const NAME_LENGTH: usize = 48;
/// Table names may be longer in 5.0 (`SchemaConstants.TABLE_NAME_LENGTH`).
pub(crate) const TABLE_NAME_LENGTH: usize = 222;

/// Whether `name` is a valid keyspace or table name.
pub(crate) fn is_valid_name(name: &str) -> bool {
    !name.is_empty() && name.len() <= NAME_LENGTH && is_word(name)
}

/// Whether every character is Java's `\w`: `[A-Za-z0-9_]`.
pub(crate) fn is_word(name: &str) -> bool {
    name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// An `InvalidRequest` error.
pub(crate) fn ire(message: impl Into<String>) -> Error {
    Error::invalid(message)
}

/// A `ConfigurationException`.
pub(crate) fn config(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::ConfigurationException, message)
}

/// An `AlreadyExists` error for a table or view (Cassandra's
/// `AlreadyExistsException(ks, table)`). cqlsh does not print this text: it
/// prints `Table 'ks.t' already exists`, built from the keyspace and table
/// the error carries.
pub(crate) fn table_exists(keyspace: &str, table: &str) -> Error {
    Error::new(
        ErrorKind::AlreadyExists,
        format!("Cannot add already existing table \"{table}\" to keyspace \"{keyspace}\""),
    )
}

/// The checks `AlterSchemaStatement.execute` makes for every schema
/// statement before applying it: system keyspaces are read-only, and the
/// keyspace name must be valid even when the statement only drops or alters.
pub(crate) fn check_modifiable(keyspace: &str, span: Span) -> Result<(), Error> {
    let lower = keyspace.to_ascii_lowercase();
    let virtual_keyspace = keyspace == "system_views" || keyspace == "system_virtual_schema";
    if lower == "system" || lower == "system_schema" || virtual_keyspace {
        // A 5.0.8 node says "System keyspace" for the virtual ones too
        // (`CREATE KEYSPACE system_views …`).
        return Err(ire(format!(
            "System keyspace '{keyspace}' is not user-modifiable"
        ))
        .with_span(span));
    }
    if keyspace.is_empty() || !is_word(keyspace) {
        return Err(ire(format!(
            "Keyspace name must not be empty and must contain alphanumeric or underscore characters only (got \"{keyspace}\")"
        ))
        .with_span(span));
    }
    if keyspace.len() > NAME_LENGTH {
        return Err(ire(format!(
            "Keyspace name must not be more than {NAME_LENGTH} characters long (got {} characters for \"{keyspace}\")",
            keyspace.len()
        ))
        .with_span(span));
    }
    Ok(())
}

/// A name quoted where CQL needs it (`ColumnIdentifier.maybeQuote`).
pub(crate) fn quote(name: &str) -> String {
    let mut out = String::new();
    let _ = write_name(&mut out, name);
    out
}

/// `ks.t` as `TableMetadata.toString()` prints it: each part quoted where
/// needed.
pub(crate) fn table_display(keyspace: &str, table: &str) -> String {
    format!("{}.{}", quote(keyspace), quote(table))
}

/// A name as Cassandra's `QualifiedName.toString()` prints it in parse-time
/// messages: `ks.t` when qualified, else `t`, unquoted.
pub(crate) fn written_name(name: &QualifiedName) -> String {
    match &name.keyspace {
        Some(ks) => format!("{}.{}", ks.name, name.name.name),
        None => name.name.name.clone(),
    }
}

/// The keyspace a statement works in: the one written, else the session's.
pub(crate) fn keyspace_for<'a>(
    name: &'a QualifiedName,
    current: Option<&'a str>,
) -> Result<&'a str, Error> {
    Catalog::keyspace_of(current, name)
}

/// Java's `Integer.parseInt`: the value, or the `NumberFormatException`
/// message Cassandra passes on.
pub(crate) fn java_parse_int(text: &str) -> Result<i32, String> {
    let fail = || format!("For input string: \"{text}\"");
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(fail());
    }
    text.parse::<i32>().map_err(|_| fail())
}

/// Java's `Double.parseDouble` for the forms property values take.
pub(crate) fn java_parse_double(text: &str) -> Option<f64> {
    let t = text.trim_matches(|c: char| c <= ' ');
    let unsigned = t.strip_prefix(['+', '-']).unwrap_or(t);
    let negative = t.starts_with('-');
    match unsigned {
        "NaN" => return Some(f64::NAN),
        "Infinity" => {
            return Some(if negative {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            })
        }
        _ => {}
    }
    let body = t.strip_suffix(['d', 'D', 'f', 'F']).unwrap_or(t);
    if body.is_empty()
        || !body
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
        || !body.bytes().any(|b| b.is_ascii_digit())
    {
        return None;
    }
    body.parse().ok()
}

/// Java's `Double.toString`: `0.01`, `1.0`, `1.0E-7`, as messages print
/// doubles.
pub(crate) fn java_double(value: f64) -> String {
    if value.is_nan() {
        return "NaN".to_string();
    }
    if value.is_infinite() {
        return if value > 0.0 { "Infinity" } else { "-Infinity" }.to_string();
    }
    if value == 0.0 {
        return if value.is_sign_negative() {
            "-0.0"
        } else {
            "0.0"
        }
        .to_string();
    }
    let magnitude = value.abs();
    if (1e-3..1e7).contains(&magnitude) {
        let text = format!("{value}");
        if text.contains('.') {
            text
        } else {
            format!("{text}.0")
        }
    } else {
        let text = format!("{value:e}");
        let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
        if mantissa.contains('.') {
            format!("{mantissa}E{exponent}")
        } else {
            format!("{mantissa}.0E{exponent}")
        }
    }
}

#[cfg(test)]
pub(crate) mod test_support {
    //! Running CQL text against a catalog in tests.

    use super::SchemaChange;
    use crate::error::{Error, ErrorKind};
    use crate::schema::Catalog;

    /// An error's kind and text, comparable in assertions.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct Failure {
        kind: ErrorKind,
        message: String,
    }

    impl Failure {
        /// The error's kind.
        pub fn kind(&self) -> ErrorKind {
            self.kind
        }

        /// The error's message.
        pub fn message(&self) -> &str {
            &self.message
        }
    }

    impl From<Error> for Failure {
        fn from(e: Error) -> Failure {
            Failure {
                kind: e.kind(),
                message: e.message().to_string(),
            }
        }
    }

    /// Parses `cql` and applies it with `ks` as the current keyspace.
    pub fn run(catalog: &mut Catalog, cql: &str) -> Result<SchemaChange, Failure> {
        run_in(catalog, Some("ks"), cql)
    }

    /// Parses `cql` and applies it with the given current keyspace.
    pub fn run_in(
        catalog: &mut Catalog,
        current: Option<&str>,
        cql: &str,
    ) -> Result<SchemaChange, Failure> {
        let statement = crate::parse_statement(cql)
            .unwrap_or_else(|e| panic!("{cql} does not parse: {}", e.message()));
        catalog.apply(&statement, current).map_err(Failure::from)
    }

    /// Runs every statement, panicking on the first failure.
    pub fn setup(catalog: &mut Catalog, statements: &[&str]) {
        for cql in statements {
            if let Err(e) = run(catalog, cql) {
                panic!("{cql} failed: {}", e.message());
            }
        }
    }

    /// A catalog with keyspace `ks` (SimpleStrategy, factor 1).
    pub fn catalog_with_ks() -> Catalog {
        let mut catalog = Catalog::with_settings(crate::schema::SchemaSettings::permissive());
        setup(
            &mut catalog,
            &["CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}"],
        );
        catalog
    }

    /// Asserts that `cql` fails with `kind` and exactly `message`, and that
    /// the catalog is unchanged afterwards.
    #[track_caller]
    pub fn assert_error(catalog: &mut Catalog, cql: &str, kind: ErrorKind, message: &str) {
        let before = catalog.clone();
        match run(catalog, cql) {
            Ok(change) => panic!("{cql} succeeded with {change:?}, expected {message}"),
            Err(e) => {
                assert_eq!(e.message(), message, "message of {cql}");
                assert_eq!(e.kind(), kind, "kind of {cql}");
            }
        }
        assert_eq!(
            *catalog, before,
            "{cql} changed the catalog although it failed"
        );
    }

    /// [`assert_error`] for an `InvalidRequest`.
    #[track_caller]
    pub fn assert_invalid(catalog: &mut Catalog, cql: &str, message: &str) {
        assert_error(catalog, cql, ErrorKind::InvalidRequest, message);
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::*;
    use super::*;

    #[test]
    fn java_number_forms() {
        assert_eq!(java_parse_int("12"), Ok(12));
        assert_eq!(java_parse_int("+3"), Ok(3));
        assert_eq!(java_parse_int("-3"), Ok(-3));
        assert_eq!(
            java_parse_int("x"),
            Err("For input string: \"x\"".to_string())
        );
        assert_eq!(
            java_parse_int("1.5"),
            Err("For input string: \"1.5\"".to_string())
        );
        assert_eq!(
            java_parse_int("99999999999"),
            Err("For input string: \"99999999999\"".to_string())
        );
        assert_eq!(java_parse_double("0.01"), Some(0.01));
        assert_eq!(java_parse_double("1e-7"), Some(1e-7));
        assert_eq!(java_parse_double("abc"), None);
        assert_eq!(java_double(0.01), "0.01");
        assert_eq!(java_double(1.0), "1.0");
        assert_eq!(java_double(1.1), "1.1");
        assert_eq!(java_double(1e-7), "1.0E-7");
        assert_eq!(java_double(6.71e-5), "6.71E-5");
        assert_eq!(java_double(12345678.0), "1.2345678E7");
    }

    #[test]
    fn names() {
        assert!(is_valid_name("abc_1"));
        assert!(!is_valid_name(""));
        assert!(!is_valid_name("a-b"));
        assert!(!is_valid_name(&"a".repeat(49)));
        assert!(is_valid_name(&"a".repeat(48)));
        assert_eq!(table_display("ks", "My"), "ks.\"My\"");
    }

    #[test]
    fn events_follow_cassandra() {
        let change = SchemaChange::Created(SchemaObject::Index {
            keyspace: "ks".into(),
            table: "t".into(),
            name: "i".into(),
        });
        let event = change.event().expect("an event");
        assert_eq!(event.change, ChangeKind::Updated);
        assert_eq!(event.target, EventTarget::Table);
        assert_eq!(event.name.as_deref(), Some("t"));
        assert_eq!(SchemaChange::NoOp.event(), None);
    }

    #[test]
    fn data_statements_are_refused() {
        let mut catalog = catalog_with_ks();
        let err = run(&mut catalog, "SELECT * FROM t").unwrap_err();
        assert_eq!(err.kind(), ErrorKind::ServerError);
    }

    /// A statement that fails part-way (after some of its columns, fields or
    /// renames were fine) leaves everything as it was.
    #[test]
    fn failing_statements_change_nothing() {
        let mut catalog = catalog_with_ks();
        setup(
            &mut catalog,
            &[
                "CREATE TYPE addr (street text, zip int)",
                "CREATE TABLE t (k int, c int, v int, w int, PRIMARY KEY (k, c))",
                "CREATE INDEX ON t (w)",
                "CREATE TABLE u (k int PRIMARY KEY, a frozen<addr>)",
            ],
        );
        let failing = [
            "ALTER TABLE t ADD (x int, v int)",
            "ALTER TABLE t ADD (x int, y nope)",
            "ALTER TABLE t DROP (v, w)",
            "ALTER TABLE t DROP (v, k)",
            "ALTER TABLE t RENAME k TO k2 AND v TO v2",
            "ALTER TABLE t WITH comment = 'x' AND nope = 1",
            "ALTER TYPE addr RENAME street TO s AND zip TO s",
            "CREATE TABLE x (a int PRIMARY KEY, b nope)",
            "CREATE INDEX ON t (nope)",
            "CREATE TYPE addr2 (a int, b frozen<nope>)",
            "CREATE MATERIALIZED VIEW v AS SELECT * FROM t WHERE k IS NOT NULL PRIMARY KEY (k, c)",
            "DROP TYPE addr",
            "CREATE KEYSPACE k2 WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 'x'}",
        ];
        for cql in failing {
            let before = catalog.clone();
            assert!(run(&mut catalog, cql).is_err(), "{cql} should fail");
            assert_eq!(catalog, before, "{cql} changed the catalog");
        }
    }

    #[test]
    fn string_ttl_is_read() {
        let mut catalog = catalog_with_ks();
        setup(
            &mut catalog,
            &["CREATE TABLE t (k int PRIMARY KEY) WITH default_time_to_live = '60'"],
        );
        assert_eq!(catalog.table("ks", "t").map(|t| t.default_ttl()), Some(60));
    }

    #[test]
    fn system_keyspaces_are_read_only() {
        // A 5.0.8 node's answers: `Unauthorized` before anything else.
        let mut catalog = Catalog::new();
        for (cql, message) in [
            (
                "CREATE TABLE system.t (k int PRIMARY KEY)",
                "system keyspace is not user-modifiable.",
            ),
            (
                "DROP KEYSPACE system_schema",
                "system_schema keyspace is not user-modifiable.",
            ),
            (
                "CREATE TABLE system_views.t (k int PRIMARY KEY)",
                "system_views keyspace is not user-modifiable.",
            ),
            (
                "DROP TABLE system_auth.nope",
                "Cannot DROP <table system_auth.nope>",
            ),
            (
                "CREATE TYPE system_traces.x (a int)",
                "Cannot CREATE <all tables in system_traces>",
            ),
        ] {
            let statement = crate::parse_statement(cql).unwrap();
            let error = catalog.apply(&statement, None).unwrap_err();
            assert_eq!(error.kind(), ErrorKind::Unauthorized, "{cql}");
            assert_eq!(error.message(), message, "{cql}");
        }
        assert_invalid(
            &mut catalog,
            "CREATE KEYSPACE system_views WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}",
            "System keyspace 'system_views' is not user-modifiable",
        );
    }
}
