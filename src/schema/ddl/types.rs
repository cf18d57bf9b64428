//! CREATE / ALTER / DROP TYPE, following Cassandra 5.0's
//! `CreateTypeStatement`, `AlterTypeStatement` and `DropTypeStatement`.
//! Altering a type rewrites every column and type that uses it, since a
//! resolved [`DataType`] carries its fields.

use crate::error::Error;
use crate::syntax::ast::{
    AlterType, AlterTypeAction, CqlType, CreateType, Drop, Ident, NativeType, QualifiedName,
};
use crate::types::DataType;

use super::super::catalog::Catalog;
use super::super::keyspace::{Keyspace, UserType};
use super::table::resolve_type;
use super::{check_modifiable, ire, keyspace_for, table_display, SchemaChange, SchemaObject};

/// Whether `ty` uses the type `keyspace.name` anywhere inside.
pub(super) fn references_udt(ty: &DataType, keyspace: &str, name: &str) -> bool {
    match ty {
        DataType::Udt {
            keyspace: ks,
            name: n,
            fields,
            ..
        } => {
            (ks == keyspace && n == name)
                || fields
                    .iter()
                    .any(|(_, t)| references_udt(t, keyspace, name))
        }
        DataType::List { element, .. }
        | DataType::Set { element, .. }
        | DataType::Vector { element, .. } => references_udt(element, keyspace, name),
        DataType::Map { key, value, .. } => {
            references_udt(key, keyspace, name) || references_udt(value, keyspace, name)
        }
        DataType::Tuple(items) => items.iter().any(|t| references_udt(t, keyspace, name)),
        DataType::Native(_) | DataType::Custom(_) => false,
    }
}

/// `ty` with every use of `keyspace.name` given the new `fields` (frozen
/// where the use was frozen).
fn replace_udt(
    ty: &DataType,
    keyspace: &str,
    name: &str,
    fields: &[(String, DataType)],
) -> DataType {
    let replace = |t: &DataType| Box::new(replace_udt(t, keyspace, name, fields));
    match ty {
        DataType::Udt {
            keyspace: ks,
            name: n,
            fields: old,
            frozen,
        } => {
            let fields = if ks == keyspace && n == name {
                fields.to_vec()
            } else {
                old.iter()
                    .map(|(f, t)| (f.clone(), replace_udt(t, keyspace, name, fields)))
                    .collect()
            };
            let udt = DataType::Udt {
                keyspace: ks.clone(),
                name: n.clone(),
                fields,
                frozen: false,
            };
            if *frozen {
                udt.frozen()
            } else {
                udt
            }
        }
        DataType::List { element, frozen } => DataType::List {
            element: replace(element),
            frozen: *frozen,
        },
        DataType::Set { element, frozen } => DataType::Set {
            element: replace(element),
            frozen: *frozen,
        },
        DataType::Vector { element, dimension } => DataType::Vector {
            element: replace(element),
            dimension: *dimension,
        },
        DataType::Map { key, value, frozen } => DataType::Map {
            key: replace(key),
            value: replace(value),
            frozen: *frozen,
        },
        DataType::Tuple(items) => DataType::Tuple(
            items
                .iter()
                .map(|t| replace_udt(t, keyspace, name, fields))
                .collect(),
        ),
        DataType::Native(_) | DataType::Custom(_) => ty.clone(),
    }
}

/// `keyspace` with the type `ty` (new or changed) in place and every column
/// and type using it updated (`KeyspaceMetadata.withUpdatedUserType`).
fn with_updated_type(keyspace: &Keyspace, ty: UserType) -> Keyspace {
    let mut keyspace = keyspace.clone();
    let ks = keyspace.name.clone();
    for other in keyspace.types.values_mut() {
        for (_, field) in other.fields.iter_mut() {
            *field = replace_udt(field, &ks, &ty.name, &ty.fields);
        }
    }
    for table in keyspace.tables.values_mut() {
        for column in table.columns.values_mut() {
            column.data_type = replace_udt(&column.data_type, &ks, &ty.name, &ty.fields);
        }
    }
    keyspace.types.insert(ty.name.clone(), ty);
    keyspace
}

/// `UserType.getCqlTypeName()`: `ks.name`, quoted where needed.
fn cql_type_name(keyspace: &str, name: &str) -> String {
    table_display(keyspace, name)
}

/// A written type as `CQL3Type.Raw.toString()` prints it once prepared:
/// user types qualified with the statement's keyspace.
fn raw_type_text(ty: &CqlType, keyspace: &str) -> String {
    fn qualify(ty: &CqlType, keyspace: &str) -> CqlType {
        let q = |t: &CqlType| Box::new(qualify(t, keyspace));
        match ty {
            CqlType::Udt(name) if name.keyspace.is_none() => {
                CqlType::Udt(Box::new(QualifiedName {
                    keyspace: Some(Ident::new(keyspace)),
                    name: name.name.clone(),
                    span: name.span,
                }))
            }
            CqlType::List(t) => CqlType::List(q(t)),
            CqlType::Set(t) => CqlType::Set(q(t)),
            CqlType::Frozen(t) => CqlType::Frozen(q(t)),
            CqlType::Vector(t, n) => CqlType::Vector(q(t), *n),
            CqlType::Map(k, v) => CqlType::Map(q(k), q(v)),
            CqlType::Tuple(items) => {
                CqlType::Tuple(items.iter().map(|t| qualify(t, keyspace)).collect())
            }
            other => other.clone(),
        }
    }
    qualify(ty, keyspace).to_string()
}

impl Catalog {
    /// `CREATE TYPE`.
    pub(super) fn create_type(
        &mut self,
        s: &CreateType,
        current: Option<&str>,
    ) -> Result<SchemaChange, Error> {
        let keyspace = keyspace_for(&s.name, current)?.to_string();
        check_modifiable(&keyspace, s.name.span)?;
        let name = s.name.name.name.clone();
        let ks = self.existing_keyspace(&keyspace, s.name.span)?;
        if ks.types.contains_key(&name) {
            if s.if_not_exists {
                return Ok(SchemaChange::NoOp);
            }
            return Err(
                ire(format!("A user type with name '{name}' already exists"))
                    .with_span(s.name.span),
            );
        }
        for (i, (field, _)) in s.fields.iter().enumerate() {
            if s.fields[..i].iter().any(|(f, _)| f.name == field.name) {
                return Err(ire(format!(
                    "Duplicate field name '{}' in type '{name}'",
                    field.name
                ))
                .with_span(field.span));
            }
        }
        for (field, ty) in &s.fields {
            if *ty == CqlType::Native(NativeType::Counter) {
                return Err(ire("A user type cannot contain counters").with_span(field.span));
            }
            if matches!(ty, CqlType::Udt(_)) {
                return Err(ire("A user type cannot contain non-frozen UDTs").with_span(field.span));
            }
        }
        let mut fields = Vec::new();
        for (field, ty) in &s.fields {
            fields.push((
                field.name.clone(),
                resolve_type(self, ty, &keyspace, field)?,
            ));
        }
        if let Some(ks) = self.keyspaces.get_mut(&keyspace) {
            ks.types.insert(
                name.clone(),
                UserType {
                    name: name.clone(),
                    fields,
                },
            );
        }
        Ok(SchemaChange::Created(SchemaObject::Type { keyspace, name }))
    }

    /// `ALTER TYPE`.
    pub(super) fn alter_type(
        &mut self,
        s: &AlterType,
        current: Option<&str>,
    ) -> Result<SchemaChange, Error> {
        let keyspace = keyspace_for(&s.name, current)?.to_string();
        check_modifiable(&keyspace, s.name.span)?;
        let name = s.name.name.name.clone();
        let Some((ks, ty)) = self
            .keyspaces
            .get(&keyspace)
            .and_then(|ks| ks.types.get(&name).map(|t| (ks, t)))
        else {
            if s.if_exists {
                return Ok(SchemaChange::NoOp);
            }
            return Err(ire(format!("Type {keyspace}.{name} doesn't exist")).with_span(s.name.span));
        };
        let type_name = cql_type_name(&keyspace, &name);
        let mut new = ty.clone();
        match &s.action {
            AlterTypeAction::Add {
                if_not_exists,
                field,
                ty: field_type,
            } => {
                let f = field.name.as_str();
                if ty.fields.iter().any(|(n, _)| n == f) {
                    if *if_not_exists {
                        return Ok(SchemaChange::NoOp);
                    }
                    return Err(ire(format!(
                        "Cannot add field {f} to type {type_name}: a field with name {f} already exists"
                    ))
                    .with_span(field.span));
                }
                let resolved = resolve_type(self, field_type, &keyspace, field)?;
                let written = raw_type_text(field_type, &keyspace);
                if references_udt(&resolved, &keyspace, &name) {
                    return Err(ire(format!(
                        "Cannot add new field {f} of type {written} to user type {type_name} as it would create a circular reference"
                    ))
                    .with_span(field.span));
                }
                let keyed: Vec<String> = ks
                    .tables
                    .values()
                    .filter(|t| {
                        t.partition_key_columns()
                            .any(|c| references_udt(&c.data_type, &keyspace, &name))
                    })
                    .map(|t| table_display(&t.keyspace, &t.name))
                    .collect();
                if !keyed.is_empty() {
                    return Err(ire(format!(
                        "Cannot add new field {f} of type {written} to user type {type_name} as the type is being used in partition key by the following tables: {}",
                        keyed.join(", ")
                    ))
                    .with_span(field.span));
                }
                new.fields.push((f.to_string(), resolved));
            }
            AlterTypeAction::Rename { if_exists, renames } => {
                for (old, to) in renames {
                    match new.fields.iter().position(|(n, _)| *n == old.name) {
                        Some(i) => new.fields[i].0 = to.name.clone(),
                        None if *if_exists => {}
                        None => {
                            return Err(ire(format!(
                                "Unkown field {} in user type {type_name}",
                                old.name
                            ))
                            .with_span(old.span));
                        }
                    }
                }
                for (field, _) in &new.fields {
                    if new.fields.iter().filter(|(n, _)| n == field).count() > 1 {
                        // 5.0's format string prints the keyspace where the
                        // type name was meant.
                        return Err(ire(format!(
                            "Duplicate field name {field} in type {keyspace}"
                        ))
                        .with_span(s.span));
                    }
                }
            }
            AlterTypeAction::Alter { field, .. } => {
                return Err(
                    ire("Altering field types is no longer supported").with_span(field.span)
                );
            }
        }
        if new == *ty {
            return Ok(SchemaChange::NoOp);
        }
        let updated = with_updated_type(ks, new);
        self.keyspaces.insert(keyspace.clone(), updated);
        Ok(SchemaChange::Altered(SchemaObject::Type { keyspace, name }))
    }

    /// `DROP TYPE`.
    pub(super) fn drop_type(
        &mut self,
        s: &Drop,
        current: Option<&str>,
    ) -> Result<SchemaChange, Error> {
        let keyspace = keyspace_for(&s.name, current)?.to_string();
        check_modifiable(&keyspace, s.name.span)?;
        let name = s.name.name.name.clone();
        let Some(ks) = self
            .keyspaces
            .get(&keyspace)
            .filter(|ks| ks.types.contains_key(&name))
        else {
            if s.if_exists {
                return Ok(SchemaChange::NoOp);
            }
            return Err(
                ire(format!("Type '{keyspace}.{name}' doesn't exist")).with_span(s.name.span)
            );
        };
        let types: Vec<&str> = ks
            .types
            .values()
            .filter(|t| {
                t.name != name
                    && t.fields
                        .iter()
                        .any(|(_, f)| references_udt(f, &keyspace, &name))
            })
            .map(|t| t.name.as_str())
            .collect();
        if !types.is_empty() {
            return Err(ire(format!(
                "Cannot drop user type '{keyspace}.{name}' as it is still used by user types {}",
                types.join(", ")
            ))
            .with_span(s.name.span));
        }
        let tables: Vec<&str> = ks
            .tables
            .values()
            .filter(|t| !t.is_view())
            .filter(|t| {
                t.columns
                    .values()
                    .any(|c| references_udt(&c.data_type, &keyspace, &name))
            })
            .map(|t| t.name.as_str())
            .collect();
        if !tables.is_empty() {
            return Err(ire(format!(
                "Cannot drop user type '{keyspace}.{name}' as it is still used by tables {}",
                tables.join(", ")
            ))
            .with_span(s.name.span));
        }
        if let Some(ks) = self.keyspaces.get_mut(&keyspace) {
            ks.types.shift_remove(&name);
        }
        Ok(SchemaChange::Dropped(SchemaObject::Type { keyspace, name }))
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::*;

    #[test]
    fn create_type() {
        let mut catalog = catalog_with_ks();
        let change = run(
            &mut catalog,
            "CREATE TYPE addr (street text, zip int, tags set<text>)",
        )
        .expect("created");
        assert_eq!(
            change,
            SchemaChange::Created(SchemaObject::Type {
                keyspace: "ks".into(),
                name: "addr".into()
            })
        );
        let ty = catalog
            .keyspace("ks")
            .and_then(|k| k.types.get("addr"))
            .expect("type");
        let names: Vec<&str> = ty.fields.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["street", "zip", "tags"]);
        assert_eq!(
            run(&mut catalog, "CREATE TYPE IF NOT EXISTS addr (x int)"),
            Ok(SchemaChange::NoOp)
        );
        assert_invalid(
            &mut catalog,
            "CREATE TYPE addr (x int)",
            "A user type with name 'addr' already exists",
        );
        assert_invalid(
            &mut catalog,
            "CREATE TYPE t (a int, a text)",
            "Duplicate field name 'a' in type 't'",
        );
        assert_invalid(
            &mut catalog,
            "CREATE TYPE t (a counter)",
            "A user type cannot contain counters",
        );
        assert_invalid(
            &mut catalog,
            "CREATE TYPE t (a addr)",
            "A user type cannot contain non-frozen UDTs",
        );
        assert_invalid(
            &mut catalog,
            "CREATE TYPE t (a frozen<nope>)",
            "Unknown type ks.nope",
        );
        assert_invalid(
            &mut catalog,
            "CREATE TYPE nope.t (a int)",
            "Keyspace 'nope' doesn't exist",
        );
        run(
            &mut catalog,
            "CREATE TYPE person (name text, home frozen<addr>)",
        )
        .expect("nested");
    }

    #[test]
    fn alter_type_updates_users() {
        let mut catalog = catalog_with_ks();
        setup(
            &mut catalog,
            &[
                "CREATE TYPE addr (street text)",
                "CREATE TYPE person (home frozen<addr>)",
                "CREATE TABLE t (k int PRIMARY KEY, a addr, p frozen<person>)",
            ],
        );
        let change = run(&mut catalog, "ALTER TYPE addr ADD zip int").expect("added");
        assert_eq!(
            change,
            SchemaChange::Altered(SchemaObject::Type {
                keyspace: "ks".into(),
                name: "addr".into()
            })
        );
        let t = catalog.table("ks", "t").expect("t");
        let DataType::Udt { fields, .. } = &t.columns["a"].data_type else {
            panic!("not a udt");
        };
        assert_eq!(fields.len(), 2);
        assert!(references_udt(&t.columns["p"].data_type, "ks", "addr"));
        let DataType::Udt { fields: person, .. } = &t.columns["p"].data_type else {
            panic!("not a udt");
        };
        let DataType::Udt {
            fields: home,
            frozen,
            ..
        } = &person[0].1
        else {
            panic!("not a udt");
        };
        assert!(*frozen);
        assert_eq!(home.len(), 2);

        run(&mut catalog, "ALTER TYPE addr RENAME street TO road").expect("renamed");
        let ty = catalog
            .keyspace("ks")
            .and_then(|k| k.types.get("addr"))
            .expect("type");
        assert_eq!(ty.fields[0].0, "road");
        assert_eq!(
            run(&mut catalog, "ALTER TYPE addr ADD IF NOT EXISTS zip int"),
            Ok(SchemaChange::NoOp)
        );
        assert_invalid(
            &mut catalog,
            "ALTER TYPE addr ADD zip int",
            "Cannot add field zip to type ks.addr: a field with name zip already exists",
        );
        assert_invalid(
            &mut catalog,
            "ALTER TYPE addr RENAME nope TO x",
            "Unkown field nope in user type ks.addr",
        );
        assert_eq!(
            run(&mut catalog, "ALTER TYPE addr RENAME IF EXISTS nope TO x"),
            Ok(SchemaChange::NoOp)
        );
        assert_invalid(
            &mut catalog,
            "ALTER TYPE addr RENAME road TO zip",
            "Duplicate field name zip in type ks",
        );
        assert_invalid(
            &mut catalog,
            "ALTER TYPE addr ALTER zip TYPE bigint",
            "Altering field types is no longer supported",
        );
        assert_invalid(
            &mut catalog,
            "ALTER TYPE nope ADD x int",
            "Type ks.nope doesn't exist",
        );
        assert_eq!(
            run(&mut catalog, "ALTER TYPE IF EXISTS nope ADD x int"),
            Ok(SchemaChange::NoOp)
        );
        assert_invalid(
            &mut catalog,
            "ALTER TYPE addr ADD again frozen<person>",
            "Cannot add new field again of type frozen<ks.person> to user type ks.addr as it would create a circular reference",
        );
        setup(
            &mut catalog,
            &["CREATE TABLE keyed (k frozen<addr> PRIMARY KEY)"],
        );
        assert_invalid(
            &mut catalog,
            "ALTER TYPE addr ADD more int",
            "Cannot add new field more of type int to user type ks.addr as the type is being used in partition key by the following tables: ks.keyed",
        );
    }

    #[test]
    fn drop_type() {
        let mut catalog = catalog_with_ks();
        setup(
            &mut catalog,
            &[
                "CREATE TYPE addr (street text)",
                "CREATE TYPE person (home frozen<addr>)",
                "CREATE TYPE lone (x int)",
                "CREATE TABLE t (k int PRIMARY KEY, p frozen<person>)",
            ],
        );
        assert_invalid(
            &mut catalog,
            "DROP TYPE addr",
            "Cannot drop user type 'ks.addr' as it is still used by user types person",
        );
        assert_invalid(
            &mut catalog,
            "DROP TYPE person",
            "Cannot drop user type 'ks.person' as it is still used by tables t",
        );
        assert_eq!(
            run(&mut catalog, "DROP TYPE lone"),
            Ok(SchemaChange::Dropped(SchemaObject::Type {
                keyspace: "ks".into(),
                name: "lone".into()
            }))
        );
        assert_invalid(
            &mut catalog,
            "DROP TYPE lone",
            "Type 'ks.lone' doesn't exist",
        );
        assert_eq!(
            run(&mut catalog, "DROP TYPE IF EXISTS lone"),
            Ok(SchemaChange::NoOp)
        );
    }
}
