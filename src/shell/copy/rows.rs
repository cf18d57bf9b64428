//! COPY FROM's rows: each CSV record checked and converted (`ImportConversion.convert_row`)
//! and written through one prepared statement — `INSERT … VALUES (?, …) [USING TTL n]`,
//! or for a counter table `UPDATE … SET c = c + ? … WHERE key = ? …` (a null counter
//! adds 0, as cqlsh's counter path does).

use crate::error::Error;
use crate::session::Prepared;
use crate::types::{DataType, Value};

use super::convert::{BindError, Converter};
use super::{cql_name, Shell, Task};

/// A record converted to values, with the bind errors cqlsh would meet later.
#[derive(Debug)]
pub(super) struct Converted {
    /// One value per column.
    pub values: Vec<Value>,
    /// A partition key value the driver cannot serialize (reported as a parse error).
    pub key_error: Option<BindError>,
    /// Another value the driver cannot serialize (fails its batch).
    pub bind_error: Option<BindError>,
}

/// How the imported columns are read and written.
pub(super) struct RowPlan {
    types: Vec<DataType>,
    names: Vec<String>,
    primary_key: Vec<usize>,
    partition_key: Vec<usize>,
    /// Which column each bind marker takes, in marker order.
    bind_order: Vec<usize>,
    statement: Prepared,
}

impl RowPlan {
    /// Prepares the statement for `columns` of the task's table.
    pub(super) fn prepare(
        shell: &Shell,
        task: &Task,
        columns: &[String],
    ) -> Result<RowPlan, String> {
        let table = &task.table;
        let column = |name: &String| {
            table
                .column(name)
                .ok_or_else(|| format!("Invalid column name {name}"))
        };
        let types = columns
            .iter()
            .map(|c| column(c).map(|c| c.data_type.clone()))
            .collect::<Result<Vec<_>, _>>()?;
        let index_of = |name: &String| columns.iter().position(|c| c == name);
        let primary_key: Vec<usize> = table
            .partition_key
            .iter()
            .chain(&table.clustering)
            .filter_map(index_of)
            .collect();
        let partition_key: Vec<usize> = table.partition_key.iter().filter_map(index_of).collect();
        let counter = types.iter().any(DataType::is_counter);
        let target = format!("{}.{}", cql_name(&task.keyspace), cql_name(&table.name));
        let (query, bind_order) = if counter {
            counter_update(&target, columns, &primary_key)
        } else {
            insert(&target, columns, task.options.ttl)
        };
        let statement = shell
            .session()
            .prepare(&query)
            .map_err(|e| e.cqlsh_text())?;
        Ok(RowPlan {
            types,
            names: columns.to_vec(),
            primary_key,
            partition_key,
            bind_order,
            statement,
        })
    }

    /// `convert_row`: the length check, then null keys, then each field.
    pub(super) fn convert(
        &self,
        converter: &Converter,
        record: &[String],
    ) -> Result<Converted, String> {
        if record.len() != self.types.len() {
            return Err(format!(
                "Invalid row length {} should be {}",
                record.len(),
                self.types.len()
            ));
        }
        let nullval = &converter.nullval;
        if let Some(&i) = self.primary_key.iter().find(|&&i| record[i] == *nullval) {
            return Err(null_key_message(&self.names[i], nullval));
        }
        let mut converted = Converted {
            values: Vec::with_capacity(record.len()),
            key_error: None,
            bind_error: None,
        };
        for (i, (field, ty)) in record.iter().zip(&self.types).enumerate() {
            let mut bind = None;
            let value = if field == nullval {
                null_of(ty)
            } else {
                match converter.field(ty, field, &mut bind) {
                    Ok(value) => value,
                    Err(_) if field.is_empty() => null_of(ty),
                    Err(e) => return Err(format!("Failed to parse {field} : {e}")),
                }
            };
            converted.values.push(value);
            if let Some(error) = bind {
                let slot = if self.partition_key.contains(&i) {
                    &mut converted.key_error
                } else {
                    &mut converted.bind_error
                };
                slot.get_or_insert(error);
            }
        }
        Ok(converted)
    }

    /// Writes one converted row.
    pub(super) fn write(&self, shell: &mut Shell, values: Vec<Value>) -> Result<(), Error> {
        let identity = self.bind_order.iter().enumerate().all(|(i, &c)| i == c);
        let bound = if identity {
            values
        } else {
            self.bind_order.iter().map(|&c| values[c].clone()).collect()
        };
        shell
            .execute_prepared_remote(&self.statement, &bound)
            .map(|_| ())
    }
}

/// A null field: `None`, or 0 for a counter (bound as the `bigint` an increment takes).
fn null_of(ty: &DataType) -> Value {
    if ty.is_counter() {
        Value::Bigint(0)
    } else {
        Value::Null
    }
}

fn null_key_message(column: &str, nullval: &str) -> String {
    let mut message = format!("Cannot insert null value for primary key column '{column}'.");
    if nullval.is_empty() {
        message.push_str(
            " If you want to insert empty strings, consider using the WITH NULL=<marker> option for COPY.",
        );
    }
    message
}

fn insert(target: &str, columns: &[String], ttl: i64) -> (String, Vec<usize>) {
    let names: Vec<String> = columns.iter().map(|c| cql_name(c)).collect();
    let markers = vec!["?"; columns.len()].join(", ");
    let mut query = format!(
        "INSERT INTO {target} ({}) VALUES ({markers})",
        names.join(", ")
    );
    if ttl >= 0 {
        query.push_str(&format!(" USING TTL {ttl}"));
    }
    (query, (0..columns.len()).collect())
}

fn counter_update(target: &str, columns: &[String], primary_key: &[usize]) -> (String, Vec<usize>) {
    let counters: Vec<usize> = (0..columns.len())
        .filter(|i| !primary_key.contains(i))
        .collect();
    let set: Vec<String> = counters
        .iter()
        .map(|&i| {
            let name = cql_name(&columns[i]);
            format!("{name} = {name} + ?")
        })
        .collect();
    let keys: Vec<String> = primary_key
        .iter()
        .map(|&i| format!("{} = ?", cql_name(&columns[i])))
        .collect();
    let query = format!(
        "UPDATE {target} SET {} WHERE {}",
        set.join(", "),
        keys.join(" AND ")
    );
    (
        query,
        counters
            .into_iter()
            .chain(primary_key.iter().copied())
            .collect(),
    )
}
