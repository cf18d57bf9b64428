//! The rows of `system_virtual_schema`: the virtual keyspaces, their tables
//! and columns, which `system_schema` leaves out. They never change.

use super::SystemRow;
use crate::schema::table_options::as_text;
use crate::schema::Keyspace;
use crate::types::Value;

const KS: &str = "system_virtual_schema";

/// Every `system_virtual_schema` row describing virtual keyspace `ks`.
pub fn keyspace_rows(ks: &Keyspace) -> Vec<SystemRow> {
    let mut rows =
        vec![SystemRow::new(KS, "keyspaces").with("keyspace_name", Value::Text(ks.name.clone()))];
    for table in ks.tables.values() {
        let comment = table
            .options
            .get("comment")
            .map(as_text)
            .unwrap_or_default();
        rows.push(
            SystemRow::new(KS, "tables")
                .with("keyspace_name", Value::Text(ks.name.clone()))
                .with("table_name", Value::Text(table.name.clone()))
                .with("comment", Value::Text(comment)),
        );
        super::schema_tables::column_rows(KS, table, &mut rows);
    }
    rows
}
