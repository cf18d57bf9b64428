//! `DESCRIBE …` as a statement (Cassandra 4.0+): cqlsh 6 and drivers send
//! it to the server and print what comes back — rows of `keyspace_name`,
//! `type`, `name` and `create_statement`. The statements are the ones the
//! shell's own DESCRIBE prints, which are Cassandra's.

use crate::error::Error;
use crate::exec::ColumnSpec;
use crate::schema::{Catalog, Keyspace, Table};
use crate::shell::describe::cql;
use crate::syntax::ast::NativeType;
use crate::types::{DataType, Value};

/// The rows of a DESCRIBE: (keyspace, type, name, create statement).
pub type Element = (String, &'static str, String, String);

/// Whether `query` is a DESCRIBE (or DESC) statement.
pub fn is_describe(query: &str) -> bool {
    let first = query.split_whitespace().next().unwrap_or("");
    first.eq_ignore_ascii_case("describe") || first.eq_ignore_ascii_case("desc")
}

/// The result columns of every DESCRIBE.
pub fn columns() -> Vec<ColumnSpec> {
    ["keyspace_name", "type", "name", "create_statement"]
        .iter()
        .map(|name| ColumnSpec {
            name: name.to_string(),
            data_type: DataType::Native(NativeType::Text),
        })
        .collect()
}

/// The elements `query` describes under the connection's keyspace.
pub fn describe(
    catalog: &Catalog,
    keyspace: Option<&str>,
    query: &str,
) -> Result<Vec<Element>, Error> {
    let words: Vec<&str> = query
        .trim()
        .trim_end_matches(';')
        .split_whitespace()
        .skip(1)
        .collect();
    let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
    let lower: Vec<&str> = lower.iter().map(String::as_str).collect();
    let (full, rest) = match lower.as_slice() {
        ["full", rest @ ..] => (true, rest),
        rest => (false, rest),
    };
    let arg = |i: usize| words.get(i + usize::from(full)).copied();
    match rest {
        ["keyspaces"] => Ok(catalog
            .keyspaces()
            .map(|ks| (ks.name.clone(), "keyspace", ks.name.clone(), String::new()))
            .collect()),
        ["keyspace"] => {
            let name = keyspace.ok_or_else(no_keyspace)?;
            keyspace_elements(find_keyspace(catalog, name)?)
        }
        ["keyspace", _] | ["only", "keyspace", _] => {
            let only = rest[0] == "only";
            let ks = find_keyspace(catalog, unquote(arg(rest.len() - 1).unwrap_or("")))?;
            if only {
                Ok(vec![keyspace_row(ks)])
            } else {
                keyspace_elements(ks)
            }
        }
        ["schema"] => {
            let mut out = Vec::new();
            for ks in catalog.keyspaces() {
                if full || !crate::schema::system::is_system_keyspace(&ks.name) {
                    out.extend(keyspace_elements(ks)?);
                }
            }
            Ok(out)
        }
        ["tables"] => Ok(catalog
            .keyspaces()
            .flat_map(|ks| {
                ks.tables
                    .values()
                    .filter(|t| !t.is_view())
                    .map(|t| (ks.name.clone(), "table", t.name.clone(), String::new()))
            })
            .collect()),
        ["table", _] | ["columnfamily", _] => {
            let (ks, table) = find_table(catalog, keyspace, arg(1).unwrap_or(""))?;
            Ok(table_elements(ks, table))
        }
        ["type", _] => {
            let (ks_name, name) = split_name(keyspace, arg(1).unwrap_or(""))?;
            let ks = find_keyspace(catalog, &ks_name)?;
            let ty = ks.types.get(&name).ok_or_else(|| {
                Error::invalid(format!(
                    "User defined type '{name}' not found in '{ks_name}'"
                ))
            })?;
            Ok(vec![(
                ks.name.clone(),
                "type",
                ty.name.clone(),
                cql::type_cql(&ks.name, ty),
            )])
        }
        _ => Err(Error::invalid(format!(
            "widerow's server does not answer `{}` yet",
            query.trim()
        ))),
    }
}

fn no_keyspace() -> Error {
    Error::invalid("No keyspace specified and no current keyspace")
}

fn unquote(name: &str) -> &str {
    name.strip_prefix('"')
        .and_then(|n| n.strip_suffix('"'))
        .unwrap_or(name)
}

fn find_keyspace<'c>(catalog: &'c Catalog, name: &str) -> Result<&'c Keyspace, Error> {
    let lookup = if name.starts_with('"') {
        unquote(name).to_string()
    } else {
        name.to_ascii_lowercase()
    };
    catalog
        .keyspace(&lookup)
        .ok_or_else(|| Error::invalid(format!("'{lookup}' not found in keyspaces")))
}

fn split_name(keyspace: Option<&str>, text: &str) -> Result<(String, String), Error> {
    let fold = |n: &str| {
        if n.starts_with('"') {
            unquote(n).to_string()
        } else {
            n.to_ascii_lowercase()
        }
    };
    match text.split_once('.') {
        Some((ks, name)) => Ok((fold(ks), fold(name))),
        None => Ok((keyspace.ok_or_else(no_keyspace)?.to_string(), fold(text))),
    }
}

fn find_table<'c>(
    catalog: &'c Catalog,
    keyspace: Option<&str>,
    text: &str,
) -> Result<(&'c Keyspace, &'c Table), Error> {
    let (ks_name, name) = split_name(keyspace, text)?;
    let ks = find_keyspace(catalog, &ks_name)?;
    let table = ks
        .tables
        .get(&name)
        .ok_or_else(|| Error::invalid(format!("'{name}' not found in keyspace '{ks_name}'")))?;
    Ok((ks, table))
}

fn keyspace_row(ks: &Keyspace) -> Element {
    (
        ks.name.clone(),
        "keyspace",
        ks.name.clone(),
        cql::keyspace_cql(ks),
    )
}

fn keyspace_elements(ks: &Keyspace) -> Result<Vec<Element>, Error> {
    let mut out = vec![keyspace_row(ks)];
    for ty in cql::sorted_types(ks) {
        out.push((
            ks.name.clone(),
            "type",
            ty.name.clone(),
            cql::type_cql(&ks.name, ty),
        ));
    }
    let mut tables: Vec<&Table> = ks.tables.values().filter(|t| !t.is_view()).collect();
    tables.sort_by(|a, b| a.name.cmp(&b.name));
    for table in tables {
        out.extend(table_elements(ks, table));
    }
    Ok(out)
}

/// A table, its indexes by name and the views built on it by name.
fn table_elements(ks: &Keyspace, table: &Table) -> Vec<Element> {
    let mut out = vec![(
        ks.name.clone(),
        if table.is_view() {
            "materialized_view"
        } else {
            "table"
        },
        table.name.clone(),
        if table.is_view() {
            cql::view_cql(table)
        } else {
            cql::table_cql(table)
        },
    )];
    let mut indexes: Vec<_> = table.indexes.iter().collect();
    indexes.sort_by(|a, b| a.name.cmp(&b.name));
    for index in indexes {
        out.push((
            ks.name.clone(),
            "index",
            index.name.clone(),
            cql::index_cql(table, index),
        ));
    }
    let mut views: Vec<&Table> = ks
        .tables
        .values()
        .filter(|v| v.view_of.as_deref() == Some(table.name.as_str()))
        .collect();
    views.sort_by(|a, b| a.name.cmp(&b.name));
    for view in views {
        out.push((
            ks.name.clone(),
            "materialized_view",
            view.name.clone(),
            cql::view_cql(view),
        ));
    }
    out
}

/// The elements as result rows.
pub fn rows(elements: Vec<Element>) -> Vec<Vec<Value>> {
    elements
        .into_iter()
        .map(|(ks, ty, name, statement)| {
            vec![
                Value::Text(ks),
                Value::Text(ty.to_string()),
                Value::Text(name),
                Value::Text(statement),
            ]
        })
        .collect()
}
