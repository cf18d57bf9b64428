//! CREATE / ALTER / DROP TABLE and TRUNCATE, following Cassandra 5.0's
//! `CreateTableStatement`, `AlterTableStatement` and `DropTableStatement`.

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;

use crate::error::Error;
use crate::syntax::ast::{
    ColumnDef, CqlType, CreateTable, Drop, Ident, NativeType, Order, Property, TableElement,
    TableOption, Truncate,
};
use crate::types::DataType;

use super::super::catalog::Catalog;
use super::super::keyspace::Keyspace;
use super::super::table::{Column, ColumnKind, Table};
use super::options::{
    build_params, check_table_properties, default_options, merge_options, Props, TableParams,
};
use super::{
    check_modifiable, config, ire, is_word, keyspace_for, table_exists, written_name, SchemaChange,
    SchemaObject, TABLE_NAME_LENGTH,
};

/// The message of a CREATE TABLE / VIEW whose name is not a valid table
/// name (`TableMetadata.validate`, a ConfigurationException prefixed with
/// the unquoted `ks.name`).
pub(super) fn check_table_name(keyspace: &str, name: &str) -> Result<(), Error> {
    if name.is_empty() || !is_word(name) {
        return Err(config(format!(
            "{keyspace}.{name}: Table name must not be empty or not contain non-alphanumeric-underscore characters (got \"{name}\")"
        )));
    }
    if name.len() > TABLE_NAME_LENGTH {
        return Err(config(format!(
            "{keyspace}.{name}: Table name must not be more than {TABLE_NAME_LENGTH} characters long (got {} characters for \"{name}\")",
            name.len()
        )));
    }
    Ok(())
}

/// Refuses a user type from another keyspace (`CQL3Type.Raw.RawUT.prepare`).
pub(super) fn check_type_keyspace(ty: &CqlType, keyspace: &str) -> Result<(), Error> {
    match ty {
        CqlType::Udt(name) => match &name.keyspace {
            Some(ks) if ks.name != keyspace => Err(ire(format!(
                "Statement on keyspace {keyspace} cannot refer to a user type in keyspace {}; user types can only be used in the keyspace they are defined in",
                ks.name
            ))
            .with_span(name.span)),
            _ => Ok(()),
        },
        CqlType::List(t) | CqlType::Set(t) | CqlType::Frozen(t) | CqlType::Vector(t, _) => {
            check_type_keyspace(t, keyspace)
        }
        CqlType::Map(k, v) => {
            check_type_keyspace(k, keyspace)?;
            check_type_keyspace(v, keyspace)
        }
        CqlType::Tuple(items) => items.iter().try_for_each(|t| check_type_keyspace(t, keyspace)),
        CqlType::Native(_) | CqlType::Custom(_) => Ok(()),
    }
}

/// A written type resolved in `keyspace`, with the span of `at` on errors.
pub(super) fn resolve_type(
    catalog: &Catalog,
    ty: &CqlType,
    keyspace: &str,
    at: &Ident,
) -> Result<DataType, Error> {
    check_type_keyspace(ty, keyspace)?;
    DataType::resolve(ty, keyspace, catalog).map_err(|e| {
        if e.span().is_some() {
            e
        } else {
            e.with_span(at.span)
        }
    })
}

/// A non-frozen UDT with a non-frozen collection (or UDT) among its fields,
/// which Cassandra cannot store as a column.
pub(super) fn has_nested_multi_cell(ty: &DataType) -> bool {
    match ty {
        DataType::Udt {
            frozen: false,
            fields,
            ..
        } => fields.iter().any(|(_, t)| t.is_multi_cell()),
        _ => false,
    }
}

/// The materialized views built on `table`.
pub(super) fn views_of<'a>(keyspace: &'a Keyspace, table: &'a str) -> Vec<&'a Table> {
    keyspace
        .tables
        .values()
        .filter(|t| t.view_of.as_deref() == Some(table))
        .collect()
}

/// The table's primary key as the column definitions give it.
struct PrimaryKeyColumns<'a> {
    partition: Vec<&'a Ident>,
    clustering: Vec<&'a Ident>,
}

/// The WITH clause of CREATE TABLE or CREATE MATERIALIZED VIEW, sorted.
pub(super) struct WithOptions<'a> {
    /// `CLUSTERING ORDER BY` items, in the order written.
    pub(super) clustering_order: Vec<(&'a Ident, Order)>,
    /// `COMPACT STORAGE` was given.
    pub(super) compact_storage: bool,
    /// `name = value` properties.
    pub(super) properties: Vec<&'a Property>,
}

/// Sorts `options`, refusing a column named twice in CLUSTERING ORDER BY
/// (the message names the `object` kind and its name as `written`), and
/// COMPACT STORAGE where `compact_refused` gives the error for it.
pub(super) fn sort_options<'a>(
    options: &'a [TableOption],
    object: &str,
    written: &str,
    compact_refused: Option<&dyn Fn() -> Error>,
) -> Result<WithOptions<'a>, Error> {
    let mut sorted = WithOptions {
        clustering_order: Vec::new(),
        compact_storage: false,
        properties: Vec::new(),
    };
    for option in options {
        match option {
            TableOption::ClusteringOrder(items) => {
                for (column, order) in items {
                    if sorted
                        .clustering_order
                        .iter()
                        .any(|(c, _)| c.name == column.name)
                    {
                        return Err(ire(format!(
                            "Duplicate column '{}' in CLUSTERING ORDER BY clause for {object} '{written}'",
                            column.name
                        ))
                        .with_span(column.span));
                    }
                    sorted.clustering_order.push((column, *order));
                }
            }
            TableOption::CompactStorage => match compact_refused {
                Some(refusal) => return Err(refusal()),
                None => sorted.compact_storage = true,
            },
            TableOption::Property(p) => sorted.properties.push(p),
        }
    }
    Ok(sorted)
}

impl Catalog {
    /// `CREATE TABLE`.
    pub(super) fn create_table(
        &mut self,
        s: &CreateTable,
        current: Option<&str>,
    ) -> Result<SchemaChange, Error> {
        let written = written_name(&s.name);

        // Raised by the grammar's actions, in the order the text is read.
        let mut definitions: Vec<&ColumnDef> = Vec::new();
        let mut primary_key: Option<PrimaryKeyColumns<'_>> = None;
        let multiple = |span| {
            ire(format!(
                "Multiple PRIMARY KEY specified for table '{written}' (exactly one required)"
            ))
            .with_span(span)
        };
        for element in &s.elements {
            match element {
                TableElement::Column(c) => {
                    if definitions.iter().any(|d| d.name.name == c.name.name) {
                        return Err(ire(format!(
                            "Duplicate column '{}' declaration for table '{written}'",
                            c.name.name
                        ))
                        .with_span(c.name.span));
                    }
                    definitions.push(c);
                    if c.primary_key {
                        if primary_key.is_some() {
                            return Err(multiple(c.span));
                        }
                        primary_key = Some(PrimaryKeyColumns {
                            partition: vec![&c.name],
                            clustering: Vec::new(),
                        });
                    }
                }
                TableElement::PrimaryKey(pk) => {
                    if primary_key.is_some() {
                        return Err(multiple(pk.span));
                    }
                    primary_key = Some(PrimaryKeyColumns {
                        partition: pk.partition.iter().collect(),
                        clustering: pk.clustering.iter().collect(),
                    });
                }
            }
        }
        let WithOptions {
            clustering_order,
            compact_storage,
            properties,
        } = sort_options(&s.options, "table", &written, None)?;

        // Prepare.
        let keyspace = keyspace_for(&s.name, current)?;
        let Some(key) = primary_key else {
            return Err(ire(format!(
                "No PRIMARY KEY specifed for table '{written}' (exactly one required)"
            ))
            .with_span(s.span));
        };

        // Validate: new COMPACT STORAGE tables are refused as by the
        // `compact_tables` guardrail; then the option values are read.
        if compact_storage {
            return Err(ire(
                "Guardrail compact_tables violated: Creation of new COMPACT STORAGE tables is not allowed",
            )
            .with_span(s.span));
        }
        let props = Props::new(properties.iter().copied());
        build_params(&props, &TableParams::default())?;

        // Execute.
        check_modifiable(keyspace, s.name.span)?;

        // Apply.
        let name = s.name.name.name.as_str();
        let ks = self.existing_keyspace(keyspace, s.name.span)?;
        if ks.tables.contains_key(name) {
            if s.if_not_exists {
                return Ok(SchemaChange::NoOp);
            }
            return Err(table_exists(keyspace, name).with_span(s.name.span));
        }
        check_table_properties(&props)?;
        let params = build_params(&props, &TableParams::default())?;
        params.validate()?;

        // Column types, in the byte order of their names as Cassandra
        // prepares them.
        let mut sorted = definitions.clone();
        sorted.sort_by(|a, b| a.name.name.as_bytes().cmp(b.name.name.as_bytes()));
        let mut types: HashMap<&str, DataType> = HashMap::new();
        for def in &sorted {
            let ty = resolve_type(self, &def.ty, keyspace, &def.name)?;
            types.insert(def.name.name.as_str(), ty);
        }
        for def in &sorted {
            if types
                .get(def.name.name.as_str())
                .is_some_and(has_nested_multi_cell)
            {
                return Err(ire(
                    "Non-frozen UDTs with nested non-frozen collections are not supported",
                )
                .with_span(def.span));
            }
        }

        let statics: HashSet<&str> = definitions
            .iter()
            .filter(|d| d.is_static)
            .map(|d| d.name.name.as_str())
            .collect();
        let mut key_columns: HashSet<&str> = HashSet::new();
        for column in key.partition.iter().chain(&key.clustering) {
            let col = column.name.as_str();
            let Some(ty) = types.get(col) else {
                return Err(ire(format!(
                    "Unknown column '{col}' referenced in PRIMARY KEY for table '{name}'"
                ))
                .with_span(column.span));
            };
            if !key_columns.insert(col) {
                return Err(ire(format!(
                    "Duplicate column '{col}' in PRIMARY KEY clause for table '{name}'"
                ))
                .with_span(column.span));
            }
            check_key_type(ty, col).map_err(|e| e.with_span(column.span))?;
            if statics.contains(col) {
                return Err(ire(format!(
                    "Static column '{col}' cannot be part of the PRIMARY KEY"
                ))
                .with_span(column.span));
            }
        }

        let not_clustering: Vec<&str> = clustering_order
            .iter()
            .filter(|(c, _)| !key.clustering.iter().any(|k| k.name == c.name))
            .map(|(c, _)| c.name.as_str())
            .collect();
        if !not_clustering.is_empty() {
            return Err(ire(format!(
                "Only clustering key columns can be defined in CLUSTERING ORDER directive: [{}] are not clustering columns",
                not_clustering.join(", ")
            ))
            .with_span(s.span));
        }
        for (n, (column, _)) in clustering_order.iter().enumerate() {
            // Every listed column is a distinct clustering column, so there
            // are at least as many clustering columns as listed ones.
            let Some(expected) = key.clustering.get(n) else {
                break;
            };
            if expected.name != column.name {
                let message = if clustering_order
                    .iter()
                    .any(|(c, _)| c.name == expected.name)
                {
                    format!(
                        "The order of columns in the CLUSTERING ORDER directive must match that of the clustering columns ({} must appear before {})",
                        expected.name, column.name
                    )
                } else {
                    format!("Missing CLUSTERING ORDER for column {}", expected.name)
                };
                return Err(ire(message).with_span(column.span));
            }
        }

        if key.clustering.is_empty() && !statics.is_empty() {
            return Err(ire(
                "Static columns are only useful (and thus allowed) if the table has at least one clustering column",
            )
            .with_span(s.span));
        }

        let is_counter = |d: &ColumnDef| d.ty == CqlType::Native(NativeType::Counter);
        if definitions.iter().any(|d| is_counter(d)) {
            if definitions
                .iter()
                .any(|d| !key_columns.contains(d.name.name.as_str()) && !is_counter(d))
            {
                return Err(
                    ire("Cannot mix counter and non counter columns in the same table")
                        .with_span(s.span),
                );
            }
            if params.default_time_to_live > 0 {
                return Err(
                    ire("Cannot set default_time_to_live on a table with counters")
                        .with_span(s.span),
                );
            }
        }

        check_table_name(keyspace, name).map_err(|e| e.with_span(s.name.span))?;

        let mut columns = crate::schema::NameMap::default();
        for def in &definitions {
            let col = def.name.name.as_str();
            let kind = if let Some(i) = key.partition.iter().position(|k| k.name == col) {
                ColumnKind::PartitionKey(i)
            } else if let Some(i) = key.clustering.iter().position(|k| k.name == col) {
                let order = clustering_order
                    .iter()
                    .find(|(c, _)| c.name == col)
                    .map_or(Order::Asc, |(_, o)| *o);
                ColumnKind::Clustering(i, order)
            } else if def.is_static {
                ColumnKind::Static
            } else {
                ColumnKind::Regular
            };
            let data_type = types
                .remove(col)
                .unwrap_or(DataType::Native(NativeType::Blob));
            columns.insert(
                col.to_string(),
                Column {
                    name: col.to_string(),
                    data_type,
                    kind,
                },
            );
        }
        let table = Table {
            keyspace: keyspace.to_string(),
            name: name.to_string(),
            columns,
            partition_key: key.partition.iter().map(|k| k.name.clone()).collect(),
            clustering: key.clustering.iter().map(|k| k.name.clone()).collect(),
            indexes: Vec::new(),
            options: merge_options(&default_options(&params), &props),
            view_of: None,
            view: None,
            dropped_columns: IndexMap::new(),
        };
        let keyspace = keyspace.to_string();
        if let Some(ks) = self.keyspaces.get_mut(&keyspace) {
            ks.tables.insert(name.to_string(), table);
        }
        Ok(SchemaChange::Created(SchemaObject::Table {
            keyspace,
            name: name.to_string(),
        }))
    }
}

/// The checks `CreateTableStatement` makes on each primary key column's
/// type.
pub(super) fn check_key_type(ty: &DataType, column: &str) -> Result<(), Error> {
    if ty.is_multi_cell() {
        let what = if ty.is_collection() {
            "collection"
        } else {
            "user-defined"
        };
        return Err(ire(format!(
            "Invalid non-frozen {what} type {ty} for PRIMARY KEY column '{column}'"
        )));
    }
    if ty.is_counter() {
        return Err(ire(format!(
            "counter type is not supported for PRIMARY KEY column '{column}'"
        )));
    }
    if ty.contains_duration() {
        return Err(ire(format!(
            "duration type is not supported for PRIMARY KEY column '{column}'"
        )));
    }
    Ok(())
}

impl Catalog {
    /// `DROP TABLE`.
    pub(super) fn drop_table(
        &mut self,
        s: &Drop,
        current: Option<&str>,
    ) -> Result<SchemaChange, Error> {
        let keyspace = keyspace_for(&s.name, current)?.to_string();
        check_modifiable(&keyspace, s.name.span)?;
        let name = s.name.name.name.clone();
        let Some(table) = self.table(&keyspace, &name) else {
            if s.if_exists {
                return Ok(SchemaChange::NoOp);
            }
            return Err(
                ire(format!("Table '{keyspace}.{name}' doesn't exist")).with_span(s.name.span)
            );
        };
        if table.is_view() {
            return Err(ire(
                "Cannot use DROP TABLE on a materialized view. Please use DROP MATERIALIZED VIEW instead.",
            )
            .with_span(s.name.span));
        }
        if let Some(ks) = self.keyspaces.get(&keyspace) {
            if !views_of(ks, &name).is_empty() {
                // 5.0's format string has one placeholder for two arguments,
                // so only the keyspace is printed.
                return Err(ire(format!(
                    "Cannot drop a table when materialized views still depend on it ({keyspace})"
                ))
                .with_span(s.name.span));
            }
        }
        if let Some(ks) = self.keyspaces.get_mut(&keyspace) {
            ks.tables.shift_remove(&name);
        }
        Ok(SchemaChange::Dropped(SchemaObject::Table {
            keyspace,
            name,
        }))
    }

    /// `TRUNCATE`: checks the table exists (and is not a view); emptying it
    /// is the caller's.
    pub(super) fn truncate(
        &self,
        s: &Truncate,
        current: Option<&str>,
    ) -> Result<SchemaChange, Error> {
        let table = self.resolve_table(current, &s.table)?;
        if crate::schema::system::is_virtual_keyspace(&table.keyspace) {
            // `AbstractVirtualTable.truncate`: no virtual table widerow
            // models supports it.
            return Err(ire(format!(
                "Truncation is not supported by table {}",
                table.qualified_name()
            ))
            .with_span(s.table.span));
        }
        if table.is_view() {
            return Err(ire(
                "Cannot TRUNCATE materialized view directly; must truncate base table instead",
            )
            .with_span(s.table.span));
        }
        crate::auth::not_the_roles_table(&table.keyspace, &table.name)
            .map_err(|e| e.with_span(s.table.span))?;
        Ok(SchemaChange::Truncated {
            keyspace: table.keyspace.clone(),
            table: table.name.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::*;
    use crate::error::ErrorKind;
    use crate::syntax::ast::{Literal, PropertyValue};

    fn created(catalog: &mut Catalog, cql: &str) -> Table {
        let change = run(catalog, cql).unwrap_or_else(|e| panic!("{cql}: {}", e.message()));
        let SchemaChange::Created(SchemaObject::Table { keyspace, name }) = change else {
            panic!("{cql} gave {change:?}");
        };
        catalog
            .table(&keyspace, &name)
            .cloned()
            .expect("created table")
    }

    #[test]
    fn columns_keep_their_order_and_roles() {
        let mut catalog = catalog_with_ks();
        let t = created(
            &mut catalog,
            "CREATE TABLE t (z int, a text, k int, c1 int, c2 varchar, s int STATIC, PRIMARY KEY ((k, z), c1, c2)) WITH CLUSTERING ORDER BY (c1 DESC)",
        );
        let names: Vec<&str> = t.columns.keys().map(String::as_str).collect();
        assert_eq!(names, ["z", "a", "k", "c1", "c2", "s"]);
        assert_eq!(t.partition_key, ["k", "z"]);
        assert_eq!(t.clustering, ["c1", "c2"]);
        let kind = |c: &str| t.column(c).map(|c| c.kind);
        assert_eq!(kind("k"), Some(ColumnKind::PartitionKey(0)));
        assert_eq!(kind("z"), Some(ColumnKind::PartitionKey(1)));
        assert_eq!(kind("c1"), Some(ColumnKind::Clustering(0, Order::Desc)));
        assert_eq!(kind("c2"), Some(ColumnKind::Clustering(1, Order::Asc)));
        assert_eq!(kind("s"), Some(ColumnKind::Static));
        assert_eq!(kind("a"), Some(ColumnKind::Regular));
        assert_eq!(
            t.column("c2").map(|c| c.data_type.to_string()),
            Some("text".to_string())
        );
    }

    #[test]
    fn options_are_stored_with_defaults() {
        let mut catalog = catalog_with_ks();
        let t = created(
            &mut catalog,
            "CREATE TABLE t (k int PRIMARY KEY, v int) WITH comment = 'hi' AND default_time_to_live = 60 AND gc_grace_seconds = 10",
        );
        let names: Vec<&str> = t.options.keys().map(String::as_str).collect();
        assert_eq!(names, super::super::TABLE_OPTIONS);
        assert_eq!(
            t.options.get("comment"),
            Some(&PropertyValue::Constant(Literal::String("hi".into())))
        );
        assert_eq!(t.default_ttl(), 60);
        assert_eq!(
            t.option_or_default("speculative_retry"),
            Some(PropertyValue::Constant(Literal::String("99p".into())))
        );
        let lcs = created(
            &mut catalog,
            "CREATE TABLE l (k int PRIMARY KEY) WITH compaction = {'class': 'LeveledCompactionStrategy'}",
        );
        assert_eq!(
            lcs.options.get("bloom_filter_fp_chance"),
            Some(&PropertyValue::Constant(Literal::Float("0.1".into())))
        );
    }

    /// restrictions.md §9, examples 127–140.
    #[test]
    fn worked_examples_127_to_140() {
        let mut catalog = catalog_with_ks();
        assert_invalid(
            &mut catalog,
            "CREATE TABLE x (a int, b int)",
            "No PRIMARY KEY specifed for table 'x' (exactly one required)",
        );
        assert_invalid(
            &mut catalog,
            "CREATE TABLE x (a int PRIMARY KEY, b int, a text)",
            "Duplicate column 'a' declaration for table 'x'",
        );
        assert_invalid(
            &mut catalog,
            "CREATE TABLE x (a int PRIMARY KEY, b int, PRIMARY KEY (b))",
            "Multiple PRIMARY KEY specified for table 'x' (exactly one required)",
        );
        assert_invalid(
            &mut catalog,
            "CREATE TABLE x (a int, b int, PRIMARY KEY (a, z))",
            "Unknown column 'z' referenced in PRIMARY KEY for table 'x'",
        );
        assert_invalid(
            &mut catalog,
            "CREATE TABLE x (a int, b int, c int, PRIMARY KEY (a, b)) WITH CLUSTERING ORDER BY (c DESC)",
            "Only clustering key columns can be defined in CLUSTERING ORDER directive: [c] are not clustering columns",
        );
        assert_invalid(
            &mut catalog,
            "CREATE TABLE x (a int, b int, c int, PRIMARY KEY (a, b, c)) WITH CLUSTERING ORDER BY (c DESC)",
            "Missing CLUSTERING ORDER for column b",
        );
        assert_invalid(
            &mut catalog,
            "CREATE TABLE x (a int, b int, c int, PRIMARY KEY (a, b, c)) WITH CLUSTERING ORDER BY (c ASC, b DESC)",
            "The order of columns in the CLUSTERING ORDER directive must match that of the clustering columns (b must appear before c)",
        );
        assert_invalid(
            &mut catalog,
            "CREATE TABLE x (a int PRIMARY KEY, s int STATIC)",
            "Static columns are only useful (and thus allowed) if the table has at least one clustering column",
        );
        assert_invalid(
            &mut catalog,
            "CREATE TABLE x (a int, b int STATIC, PRIMARY KEY (a, b))",
            "Static column 'b' cannot be part of the PRIMARY KEY",
        );
        assert_invalid(
            &mut catalog,
            "CREATE TABLE x (a int PRIMARY KEY, c counter, v int)",
            "Cannot mix counter and non counter columns in the same table",
        );
        assert_invalid(
            &mut catalog,
            "CREATE TABLE x (a counter PRIMARY KEY, c counter)",
            "counter type is not supported for PRIMARY KEY column 'a'",
        );
        assert_invalid(
            &mut catalog,
            "CREATE TABLE x (a list<int> PRIMARY KEY, v int)",
            "Invalid non-frozen collection type list<int> for PRIMARY KEY column 'a'",
        );
        // 139, `CREATE TABLE x ()`, is a SyntaxException from the parser.
        assert!(crate::parse_statement("CREATE TABLE x ()").is_err());
        setup(
            &mut catalog,
            &["CREATE TABLE t (a int, b int, c int, d int, e int, PRIMARY KEY ((a, b), c, d))"],
        );
        assert_error(
            &mut catalog,
            "CREATE TABLE t (a int PRIMARY KEY)",
            ErrorKind::AlreadyExists,
            "Cannot add already existing table \"t\" to keyspace \"ks\"",
        );
    }

    /// restrictions.md §8, the rest of the list.
    #[test]
    fn create_table_section_8() {
        let mut catalog = catalog_with_ks();
        setup(
            &mut catalog,
            &["CREATE TYPE addr (street text, tags set<text>)"],
        );
        assert_invalid(
            &mut catalog,
            "CREATE TABLE ks.x (a int PRIMARY KEY, b int, b text)",
            "Duplicate column 'b' declaration for table 'ks.x'",
        );
        assert_invalid(
            &mut catalog,
            "CREATE TABLE x (a int, b int, PRIMARY KEY (a, b)) WITH CLUSTERING ORDER BY (b DESC, b ASC)",
            "Duplicate column 'b' in CLUSTERING ORDER BY clause for table 'x'",
        );
        assert_invalid(
            &mut catalog,
            "CREATE TABLE nope.x (a int PRIMARY KEY)",
            "Keyspace 'nope' doesn't exist",
        );
        assert_invalid(
            &mut catalog,
            "CREATE TABLE x (a int PRIMARY KEY, u addr)",
            "Non-frozen UDTs with nested non-frozen collections are not supported",
        );
        assert_invalid(
            &mut catalog,
            "CREATE TABLE x (a int, b int, PRIMARY KEY (a, b, a))",
            "Duplicate column 'a' in PRIMARY KEY clause for table 'x'",
        );
        setup(&mut catalog, &["CREATE TYPE point (x int, y int)"]);
        assert_invalid(
            &mut catalog,
            "CREATE TABLE x (a point PRIMARY KEY)",
            "Invalid non-frozen user-defined type point for PRIMARY KEY column 'a'",
        );
        assert_invalid(
            &mut catalog,
            "CREATE TABLE x (a int, d duration, PRIMARY KEY (a, d))",
            "duration type is not supported for PRIMARY KEY column 'd'",
        );
        assert_invalid(
            &mut catalog,
            "CREATE TABLE x (a int, d frozen<list<duration>>, PRIMARY KEY (a, d))",
            "duration type is not supported for PRIMARY KEY column 'd'",
        );
        assert_invalid(
            &mut catalog,
            "CREATE TABLE x (a int PRIMARY KEY, c counter) WITH default_time_to_live = 5",
            "Cannot set default_time_to_live on a table with counters",
        );
        created(
            &mut catalog,
            "CREATE TABLE fz (a frozen<point>, b frozen<list<int>>, c int, PRIMARY KEY ((a, b), c))",
        );
        created(
            &mut catalog,
            "CREATE TABLE cnt (a int, b int, c counter, s counter STATIC, PRIMARY KEY (a, b))",
        );
    }

    #[test]
    fn create_table_order_of_errors() {
        let mut catalog = catalog_with_ks();
        // Parse-time errors come before the keyspace is even looked at.
        assert_invalid(
            &mut catalog,
            "CREATE TABLE nope.x (a int PRIMARY KEY, a int)",
            "Duplicate column 'a' declaration for table 'nope.x'",
        );
        // The missing primary key is found before the keyspace.
        assert_invalid(
            &mut catalog,
            "CREATE TABLE nope.x (a int)",
            "No PRIMARY KEY specifed for table 'nope.x' (exactly one required)",
        );
        let err = run_in(&mut catalog, None, "CREATE TABLE x (a int PRIMARY KEY)").unwrap_err();
        assert_eq!(
            err.message(),
            "No keyspace has been specified. USE a keyspace, or explicitly specify keyspace.tablename"
        );
        // Unknown properties are only looked at once the table is new.
        setup(&mut catalog, &["CREATE TABLE t (a int PRIMARY KEY)"]);
        assert_eq!(
            run(
                &mut catalog,
                "CREATE TABLE IF NOT EXISTS t (a int PRIMARY KEY) WITH foo = 1"
            ),
            Ok(SchemaChange::NoOp)
        );
        // Unknown types are resolved in the byte order of column names.
        assert_invalid(
            &mut catalog,
            "CREATE TABLE x (k int PRIMARY KEY, z nope1, b nope2)",
            "Unknown type ks.nope2",
        );
    }

    #[test]
    fn create_table_option_errors() {
        let mut catalog = catalog_with_ks();
        let base = "CREATE TABLE x (k int PRIMARY KEY) WITH ";
        let syntax = ErrorKind::SyntaxException;
        let configuration = ErrorKind::ConfigurationException;
        assert_error(
            &mut catalog,
            &format!("{base}foo = 1"),
            syntax,
            "Unknown property 'foo'",
        );
        assert_error(
            &mut catalog,
            &format!("{base}gc_grace_seconds = 'x'"),
            syntax,
            "Invalid integer value x for 'gc_grace_seconds'",
        );
        assert_error(
            &mut catalog,
            &format!("{base}bloom_filter_fp_chance = 'x'"),
            syntax,
            "Invalid double value x for 'bloom_filter_fp_chance'",
        );
        assert_error(
            &mut catalog,
            &format!("{base}cdc = 'perhaps'"),
            syntax,
            "Invalid boolean value perhaps for 'cdc'. Positive values can be '1', 'true' or 'yes'. Negative values can be '0', 'false' or 'no'.",
        );
        assert_error(
            &mut catalog,
            &format!("{base}comment = {{'a': 'b'}}"),
            syntax,
            "Invalid value for property 'comment'. It should be a string",
        );
        assert_error(
            &mut catalog,
            &format!("{base}caching = 'ALL'"),
            syntax,
            "Invalid value for property 'caching'. It should be a map.",
        );
        assert_error(
            &mut catalog,
            &format!("{base}compaction = {{'min_threshold': 2}}"),
            configuration,
            "Missing sub-option 'class' for the 'compaction' option",
        );
        assert_error(
            &mut catalog,
            &format!("{base}compaction = {{'class': 'FancyStrategy'}}"),
            configuration,
            "Unable to find compaction strategy class 'org.apache.cassandra.db.compaction.FancyStrategy'",
        );
        assert_error(
            &mut catalog,
            &format!("{base}bloom_filter_fp_chance = 0.0000001"),
            configuration,
            "bloom_filter_fp_chance must be larger than 6.71E-5 and less than or equal to 1.0 (got 1.0E-7)",
        );
        assert_error(
            &mut catalog,
            &format!("{base}default_time_to_live = -1"),
            configuration,
            "default_time_to_live must be greater than or equal to 0 (got -1)",
        );
        assert_error(
            &mut catalog,
            &format!("{base}default_time_to_live = 630720001"),
            configuration,
            "default_time_to_live must be less than or equal to 630720000 (got 630720001)",
        );
        assert_error(
            &mut catalog,
            &format!("{base}gc_grace_seconds = -5"),
            configuration,
            "gc_grace_seconds must be greater than or equal to 0 (got -5)",
        );
        assert_error(
            &mut catalog,
            &format!("{base}min_index_interval = 4096"),
            configuration,
            "max_index_interval must be greater than or equal to min_index_interval (4096) (got 2048)",
        );
        assert_error(
            &mut catalog,
            &format!("{base}crc_check_chance = 2"),
            configuration,
            "crc_check_chance must be larger than or equal to 0 and smaller than or equal to 1.0 (got 2.0)",
        );
        assert_invalid(
            &mut catalog,
            "CREATE TABLE x (k int PRIMARY KEY) WITH COMPACT STORAGE",
            "Guardrail compact_tables violated: Creation of new COMPACT STORAGE tables is not allowed",
        );
    }

    #[test]
    fn table_names_are_checked() {
        let mut catalog = catalog_with_ks();
        // 5.0.8's messages: a table name may be 222 characters long.
        run(
            &mut catalog,
            &format!("CREATE TABLE {} (k int PRIMARY KEY)", "t".repeat(222)),
        )
        .expect("a 222-character table name");
        let long = "t".repeat(223);
        assert_error(
            &mut catalog,
            &format!("CREATE TABLE {long} (k int PRIMARY KEY)"),
            ErrorKind::ConfigurationException,
            &format!("ks.{long}: Table name must not be more than 222 characters long (got 223 characters for \"{long}\")"),
        );
        assert_error(
            &mut catalog,
            "CREATE TABLE \"a-b\" (k int PRIMARY KEY)",
            ErrorKind::ConfigurationException,
            "ks.a-b: Table name must not be empty or not contain non-alphanumeric-underscore characters (got \"a-b\")",
        );
        created(&mut catalog, "CREATE TABLE \"Mixed\" (k int PRIMARY KEY)");
        assert!(catalog.table("ks", "Mixed").is_some());
    }

    #[test]
    fn user_types_stay_in_their_keyspace() {
        let mut catalog = catalog_with_ks();
        setup(
            &mut catalog,
            &[
                "CREATE KEYSPACE other WITH replication = {'class': 'SimpleStrategy'}",
                "CREATE TYPE other.p (x int)",
            ],
        );
        assert_invalid(
            &mut catalog,
            "CREATE TABLE x (k int PRIMARY KEY, v frozen<other.p>)",
            "Statement on keyspace ks cannot refer to a user type in keyspace other; user types can only be used in the keyspace they are defined in",
        );
    }

    #[test]
    fn drop_table_and_truncate() {
        let mut catalog = catalog_with_ks();
        setup(&mut catalog, &["CREATE TABLE t (k int PRIMARY KEY, v int)"]);
        assert_eq!(
            run(&mut catalog, "TRUNCATE t"),
            Ok(SchemaChange::Truncated {
                keyspace: "ks".into(),
                table: "t".into()
            })
        );
        assert_invalid(&mut catalog, "TRUNCATE nope", "table nope does not exist");
        assert_invalid(
            &mut catalog,
            "TRUNCATE nope.t",
            "keyspace nope does not exist",
        );
        assert_eq!(
            run(&mut catalog, "DROP TABLE t"),
            Ok(SchemaChange::Dropped(SchemaObject::Table {
                keyspace: "ks".into(),
                name: "t".into()
            }))
        );
        assert_invalid(&mut catalog, "DROP TABLE t", "Table 'ks.t' doesn't exist");
        assert_invalid(
            &mut catalog,
            "DROP TABLE nope.t",
            "Table 'nope.t' doesn't exist",
        );
        assert_eq!(
            run(&mut catalog, "DROP TABLE IF EXISTS t"),
            Ok(SchemaChange::NoOp)
        );
    }
}
