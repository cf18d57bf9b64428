//! ALTER TABLE, following Cassandra 5.0's `AlterTableStatement`: ADD, DROP,
//! RENAME and WITH, and the refusals of ALTER … TYPE and DROP COMPACT
//! STORAGE. Each action builds the altered keyspace aside, so a failure in
//! the middle of a multi-column statement changes nothing.

use std::collections::HashSet;

use crate::error::Error;
use crate::syntax::ast::{
    AddedColumn, AlterTable, AlterTableAction, Ident, Literal, Property, TableOption,
};
use crate::types::DataType;

use super::super::catalog::Catalog;
use super::super::keyspace::Keyspace;
use super::super::table::{Column, ColumnKind, DroppedColumn, Table};
use super::options::{build_params, check_table_properties, merge_options, Props, TableParams};
use super::table::{has_nested_multi_cell, resolve_type, views_of};
use super::{
    check_modifiable, config, ire, keyspace_for, quote, table_display, SchemaChange, SchemaObject,
};

impl Catalog {
    /// `ALTER TABLE`.
    pub(super) fn alter_table(
        &mut self,
        s: &AlterTable,
        current: Option<&str>,
    ) -> Result<SchemaChange, Error> {
        let keyspace = keyspace_for(&s.name, current)?.to_string();
        let with_properties: Vec<&Property> = match &s.action {
            AlterTableAction::With(options) => options
                .iter()
                .filter_map(|o| match o {
                    TableOption::Property(p) => Some(p),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        let props = Props::new(with_properties.iter().copied());
        // `AlterOptions.validate` reads the values before the table is
        // looked up.
        build_params(&props, &TableParams::default())?;
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
                "Cannot use ALTER TABLE on a materialized view; use ALTER MATERIALIZED VIEW instead",
            )
            .with_span(s.name.span));
        }
        let Some(ks) = self.keyspaces.get(&keyspace) else {
            return Ok(SchemaChange::NoOp);
        };
        let new_keyspace = match &s.action {
            AlterTableAction::AlterType { column, .. } => {
                return Err(
                    ire("Altering column types is no longer supported").with_span(column.span)
                );
            }
            AlterTableAction::DropCompactStorage => {
                return Err(ire(
                    "DROP COMPACT STORAGE is disabled. Enable in cassandra.yaml to use.",
                )
                .with_span(s.span));
            }
            AlterTableAction::Add {
                if_not_exists,
                columns,
                ..
            } => self.add_columns(ks, table, columns, *if_not_exists)?,
            AlterTableAction::Drop {
                if_exists,
                columns,
                timestamp,
                ..
            } => drop_columns(ks, table, columns, *if_exists, timestamp.as_ref())?,
            AlterTableAction::Rename { renames, .. } => rename_columns(ks, table, renames)?,
            AlterTableAction::With(_) => alter_options(ks, table, &props)?,
        };
        if *ks == new_keyspace {
            return Ok(SchemaChange::NoOp);
        }
        self.keyspaces.insert(keyspace.clone(), new_keyspace);
        Ok(SchemaChange::Altered(SchemaObject::Table {
            keyspace,
            name,
        }))
    }

    /// `ALTER TABLE … ADD`: the keyspace with the columns added to `table`
    /// (and to the `SELECT *` views built on it).
    fn add_columns(
        &self,
        keyspace: &Keyspace,
        table: &Table,
        columns: &[AddedColumn],
        if_not_exists: bool,
    ) -> Result<Keyspace, Error> {
        let mut new = table.clone();
        let mut added: Vec<Column> = Vec::new();
        for column in columns {
            let col = column.name.name.as_str();
            let ty = resolve_type(self, &column.ty, &keyspace.name, &column.name)?;
            if new.columns.contains_key(col) {
                if if_not_exists {
                    continue;
                }
                return Err(ire(format!("Column with name '{col}' already exists"))
                    .with_span(column.name.span));
            }
            if column.is_static && table.clustering.is_empty() {
                return Err(ire(
                    "Static columns are only useful (and thus allowed) if the table has at least one clustering column",
                )
                .with_span(column.name.span));
            }
            if has_nested_multi_cell(&ty) {
                return Err(ire(format!(
                    "Non-frozen UDTs with nested non-frozen collections are not supported for column {col}"
                ))
                .with_span(column.name.span));
            }
            if let Some(dropped) = table.dropped_columns.get(col) {
                if dropped.data_type != ty {
                    return Err(ire(format!(
                        "Cannot re-add previously dropped column '{col}' of type {ty}, incompatible with previous type {}",
                        dropped.data_type
                    ))
                    .with_span(column.name.span));
                }
                if dropped.is_static != column.is_static {
                    let kind = |s: bool| if s { "STATIC" } else { "REGULAR" };
                    return Err(ire(format!(
                        "Cannot re-add previously dropped column '{col}' of kind {}, incompatible with previous kind {}",
                        kind(column.is_static),
                        kind(dropped.is_static)
                    ))
                    .with_span(column.name.span));
                }
                if table.is_counter_table() {
                    return Err(ire(format!(
                        "Cannot re-add previously dropped counter column {col}"
                    ))
                    .with_span(column.name.span));
                }
            }
            let added_column = Column {
                name: col.to_string(),
                data_type: ty,
                kind: if column.is_static {
                    ColumnKind::Static
                } else {
                    ColumnKind::Regular
                },
            };
            new.columns.insert(col.to_string(), added_column.clone());
            added.push(added_column);
        }
        check_counter_columns(table, &new)?;
        let mut keyspace = keyspace.clone();
        for view in keyspace.tables.values_mut() {
            let follows = view.view_of.as_deref() == Some(table.name.as_str())
                && view.view.as_ref().is_some_and(|v| v.include_all_columns);
            if follows {
                for column in added.iter().filter(|c| !c.is_static()) {
                    view.columns.insert(column.name.clone(), column.clone());
                }
            }
        }
        keyspace.tables.insert(table.name.clone(), new);
        Ok(keyspace)
    }
}

/// `TableMetadata.validate` after columns were added: a counter table takes
/// only counters, any other table none.
fn check_counter_columns(before: &Table, after: &Table) -> Result<(), Error> {
    let is_counter = before.is_counter_table();
    let mut others: Vec<&Column> = after
        .columns
        .values()
        .filter(|c| !c.is_primary_key())
        .collect();
    others.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
    let prefix = format!("{}.{}", before.keyspace, before.name);
    for column in others {
        if is_counter && !column.data_type.is_counter() {
            return Err(config(format!(
                "{prefix}: Cannot have a non counter column (\"{}\") in a counter table",
                column.name
            )));
        }
        if !is_counter && column.data_type.is_counter() {
            return Err(config(format!(
                "{prefix}: Cannot have a counter column (\"{}\") in a non counter column table",
                column.name
            )));
        }
    }
    Ok(())
}

/// The names of the indexes of `table` on `column`.
fn dependent_indexes(table: &Table, column: &str) -> Vec<String> {
    table
        .indexes
        .iter()
        .filter(|i| i.column == column)
        .map(|i| i.name.clone())
        .collect()
}

/// `ALTER TABLE … DROP`.
fn drop_columns(
    keyspace: &Keyspace,
    table: &Table,
    columns: &[Ident],
    if_exists: bool,
    timestamp: Option<&Literal>,
) -> Result<Keyspace, Error> {
    let mut new = table.clone();
    let mut seen: HashSet<&str> = HashSet::new();
    for column in columns {
        let col = column.name.as_str();
        if !seen.insert(col) {
            continue;
        }
        let Some(current) = table.columns.get(col) else {
            if if_exists {
                continue;
            }
            return Err(ire(format!(
                "Column {col} was not found in table '{}'",
                table_display(&table.keyspace, &table.name)
            ))
            .with_span(column.span));
        };
        if current.is_primary_key() {
            return Err(ire(format!("Cannot drop PRIMARY KEY column {col}")).with_span(column.span));
        }
        if matches!(current.data_type, DataType::Udt { frozen: false, .. }) {
            return Err(ire(format!(
                "Cannot drop non-frozen column {col} of user type {}",
                current.data_type
            ))
            .with_span(column.span));
        }
        let indexes = dependent_indexes(table, col);
        if !indexes.is_empty() {
            return Err(ire(format!(
                "Cannot drop column {col} because it has dependent secondary indexes ({})",
                indexes.join(", ")
            ))
            .with_span(column.span));
        }
        if !views_of(keyspace, &table.name).is_empty() {
            return Err(ire(format!(
                "Cannot drop column {col} on base table {} with materialized views",
                table.name
            ))
            .with_span(column.span));
        }
        new.columns.shift_remove(col);
        new.dropped_columns.insert(
            col.to_string(),
            DroppedColumn {
                data_type: current.data_type.clone(),
                is_static: current.is_static(),
                timestamp: timestamp.map(super::options::literal_text),
            },
        );
    }
    let mut keyspace = keyspace.clone();
    keyspace.tables.insert(table.name.clone(), new);
    Ok(keyspace)
}

/// Renames a column of `table` in place, keeping its position.
pub(super) fn rename_in(table: &mut Table, old: &str, new: &str) {
    table.columns = std::mem::take(&mut table.columns)
        .into_iter()
        .map(|(name, mut column)| {
            if name == old {
                column.name = new.to_string();
                (new.to_string(), column)
            } else {
                (name, column)
            }
        })
        .collect();
    for key in table
        .partition_key
        .iter_mut()
        .chain(table.clustering.iter_mut())
    {
        if key == old {
            *key = new.to_string();
        }
    }
}

/// `ALTER TABLE … RENAME`: only primary key columns, and the views that
/// include them follow.
fn rename_columns(
    keyspace: &Keyspace,
    table: &Table,
    renames: &[(Ident, Ident)],
) -> Result<Keyspace, Error> {
    let mut keyspace = keyspace.clone();
    let mut new = table.clone();
    for (old, to) in renames {
        let (from, target) = (old.name.as_str(), to.name.as_str());
        let Some(column) = table.columns.get(from) else {
            return Err(ire(format!(
                "Undefined column name {} in table {}",
                quote(from),
                table_display(&table.keyspace, &table.name)
            ))
            .with_span(old.span));
        };
        if !column.is_primary_key() {
            return Err(
                ire(format!("Cannot rename non PRIMARY KEY column {from}")).with_span(old.span)
            );
        }
        if table.columns.contains_key(target) {
            return Err(ire(format!(
                "Cannot rename column {from} to {target} in table '{}'; another column with that name already exists",
                table_display(&table.keyspace, &table.name)
            ))
            .with_span(to.span));
        }
        let indexes = dependent_indexes(table, from);
        if !indexes.is_empty() {
            return Err(ire(format!(
                "Cannot rename column {from} because it has dependent secondary indexes ({})",
                indexes.join(", ")
            ))
            .with_span(old.span));
        }
        for view in keyspace.tables.values_mut() {
            if view.view_of.as_deref() == Some(table.name.as_str())
                && view.columns.contains_key(from)
            {
                rename_in(view, from, target);
            }
        }
        rename_in(&mut new, from, target);
    }
    keyspace.tables.insert(table.name.clone(), new);
    Ok(keyspace)
}

/// `ALTER TABLE … WITH`.
fn alter_options(keyspace: &Keyspace, table: &Table, props: &Props<'_>) -> Result<Keyspace, Error> {
    check_table_properties(props)?;
    build_params(props, &TableParams::default())?.validate()?;
    if props.has("id") {
        return Err(props.located("id", config("Cannot alter table id.")));
    }
    let params = build_params(props, &TableParams::of_options(&table.options))?;
    if table.is_counter_table() && params.default_time_to_live > 0 {
        return Err(props.located(
            "default_time_to_live",
            ire("Cannot set default_time_to_live on a table with counters"),
        ));
    }
    if !views_of(keyspace, &table.name).is_empty() && params.gc_grace_seconds == 0 {
        return Err(props.located(
            "gc_grace_seconds",
            ire("Cannot alter gc_grace_seconds of the base table of a materialized view to 0, since this value is used to TTL undelivered updates. Setting gc_grace_seconds too low might cause undelivered updates to expire before being replayed."),
        ));
    }
    let mut new = table.clone();
    new.options = merge_options(&table.options, props);
    let mut keyspace = keyspace.clone();
    keyspace.tables.insert(table.name.clone(), new);
    Ok(keyspace)
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::*;
    use crate::error::ErrorKind;
    use crate::syntax::ast::{Literal, PropertyValue};

    #[test]
    fn alter_table_add() {
        let mut catalog = catalog_with_ks();
        setup(
            &mut catalog,
            &[
                "CREATE TABLE t (k int, c int, v int, PRIMARY KEY (k, c))",
                "CREATE TABLE s (k int PRIMARY KEY, v int)",
                "CREATE TABLE n (k int PRIMARY KEY, n counter)",
            ],
        );
        let change = run(&mut catalog, "ALTER TABLE t ADD (w text, st int STATIC)").expect("added");
        assert_eq!(
            change,
            SchemaChange::Altered(SchemaObject::Table {
                keyspace: "ks".into(),
                name: "t".into()
            })
        );
        let t = catalog.table("ks", "t").expect("t");
        assert_eq!(t.column("st").map(|c| c.kind), Some(ColumnKind::Static));
        assert_eq!(t.columns.keys().last().map(String::as_str), Some("st"));
        assert_invalid(
            &mut catalog,
            "ALTER TABLE t ADD v int",
            "Column with name 'v' already exists",
        );
        assert_eq!(
            run(&mut catalog, "ALTER TABLE t ADD IF NOT EXISTS v int"),
            Ok(SchemaChange::NoOp)
        );
        assert_invalid(
            &mut catalog,
            "ALTER TABLE s ADD st int STATIC",
            "Static columns are only useful (and thus allowed) if the table has at least one clustering column",
        );
        assert_error(
            &mut catalog,
            "ALTER TABLE s ADD c counter",
            ErrorKind::ConfigurationException,
            "ks.s: Cannot have a counter column (\"c\") in a non counter column table",
        );
        assert_error(
            &mut catalog,
            "ALTER TABLE n ADD v int",
            ErrorKind::ConfigurationException,
            "ks.n: Cannot have a non counter column (\"v\") in a counter table",
        );
        assert_invalid(
            &mut catalog,
            "ALTER TABLE nope ADD v int",
            "Table 'ks.nope' doesn't exist",
        );
        assert_eq!(
            run(&mut catalog, "ALTER TABLE IF EXISTS nope ADD v int"),
            Ok(SchemaChange::NoOp)
        );
        assert_invalid(
            &mut catalog,
            "ALTER TABLE t ADD x nope",
            "Unknown type ks.nope",
        );
        assert_invalid(
            &mut catalog,
            "ALTER TABLE t ALTER v TYPE bigint",
            "Altering column types is no longer supported",
        );
        assert_invalid(
            &mut catalog,
            "ALTER TABLE t DROP COMPACT STORAGE",
            "DROP COMPACT STORAGE is disabled. Enable in cassandra.yaml to use.",
        );
    }

    #[test]
    fn alter_table_drop_and_re_add() {
        let mut catalog = catalog_with_ks();
        setup(
            &mut catalog,
            &[
                "CREATE TABLE t (k int, c int, v int, w text, PRIMARY KEY (k, c))",
                "CREATE INDEX ON t (w)",
            ],
        );
        run(&mut catalog, "ALTER TABLE t DROP v USING TIMESTAMP 1000").expect("dropped");
        let t = catalog.table("ks", "t").expect("t");
        assert!(t.column("v").is_none());
        assert_eq!(
            t.dropped_columns.get("v").and_then(|d| d.timestamp.clone()),
            Some("1000".to_string())
        );
        assert_invalid(
            &mut catalog,
            "ALTER TABLE t DROP v",
            "Column v was not found in table 'ks.t'",
        );
        assert_eq!(
            run(&mut catalog, "ALTER TABLE t DROP IF EXISTS v"),
            Ok(SchemaChange::NoOp)
        );
        assert_invalid(
            &mut catalog,
            "ALTER TABLE t DROP c",
            "Cannot drop PRIMARY KEY column c",
        );
        assert_invalid(
            &mut catalog,
            "ALTER TABLE t DROP w",
            "Cannot drop column w because it has dependent secondary indexes (t_w_idx)",
        );
        assert_invalid(
            &mut catalog,
            "ALTER TABLE t ADD v text",
            "Cannot re-add previously dropped column 'v' of type text, incompatible with previous type int",
        );
        assert_invalid(
            &mut catalog,
            "ALTER TABLE t ADD v int STATIC",
            "Cannot re-add previously dropped column 'v' of kind STATIC, incompatible with previous kind REGULAR",
        );
        run(&mut catalog, "ALTER TABLE t ADD v int").expect("re-added");
    }

    #[test]
    fn alter_table_rename() {
        let mut catalog = catalog_with_ks();
        setup(
            &mut catalog,
            &["CREATE TABLE t (k int, c int, v int, PRIMARY KEY (k, c))"],
        );
        run(&mut catalog, "ALTER TABLE t RENAME c TO c2 AND k TO k2").expect("renamed");
        let t = catalog.table("ks", "t").expect("t");
        let names: Vec<&str> = t.columns.keys().map(String::as_str).collect();
        assert_eq!(names, ["k2", "c2", "v"]);
        assert_eq!(t.partition_key, ["k2"]);
        assert_eq!(t.clustering, ["c2"]);
        assert_invalid(
            &mut catalog,
            "ALTER TABLE t RENAME v TO w",
            "Cannot rename non PRIMARY KEY column v",
        );
        assert_invalid(
            &mut catalog,
            "ALTER TABLE t RENAME c2 TO v",
            "Cannot rename column c2 to v in table 'ks.t'; another column with that name already exists",
        );
        assert_invalid(
            &mut catalog,
            "ALTER TABLE t RENAME IF EXISTS zz TO w",
            "Undefined column name zz in table ks.t",
        );
    }

    #[test]
    fn alter_table_with() {
        let mut catalog = catalog_with_ks();
        setup(
            &mut catalog,
            &[
                "CREATE TABLE t (k int PRIMARY KEY, v int)",
                "CREATE TABLE n (k int PRIMARY KEY, n counter)",
            ],
        );
        run(
            &mut catalog,
            "ALTER TABLE t WITH comment = 'c' AND default_time_to_live = 9",
        )
        .expect("altered");
        let t = catalog.table("ks", "t").expect("t");
        assert_eq!(t.default_ttl(), 9);
        assert_eq!(
            t.options.get("comment"),
            Some(&PropertyValue::Constant(Literal::String("c".into())))
        );
        assert_eq!(
            run(&mut catalog, "ALTER TABLE t WITH comment = 'c'"),
            Ok(SchemaChange::NoOp)
        );
        assert_error(
            &mut catalog,
            "ALTER TABLE t WITH nope = 1",
            ErrorKind::SyntaxException,
            "Unknown property 'nope'",
        );
        assert_error(
            &mut catalog,
            "ALTER TABLE missing WITH gc_grace_seconds = 'x'",
            ErrorKind::SyntaxException,
            "Invalid integer value x for 'gc_grace_seconds'",
        );
        assert_invalid(
            &mut catalog,
            "ALTER TABLE n WITH default_time_to_live = 1",
            "Cannot set default_time_to_live on a table with counters",
        );
        assert_error(
            &mut catalog,
            "ALTER TABLE t WITH id = '5a1c395e-b41f-11e5-9f22-ba0be0483c18'",
            ErrorKind::ConfigurationException,
            "Cannot alter table id.",
        );
    }
}
