//! A cluster's result, as a [`ResultSet`] the shell's renderers already
//! print: the driver hands over each cell's serialized bytes and its type,
//! and the server's own codec ([`crate::server::values::decode`]) turns them
//! into values. One codec reads both widerow's wire and a real node's, so a
//! row prints the same whichever side produced it.

use scylla::deserialize::row::ColumnIterator;
use scylla::frame::response::result::{CollectionType, ColumnType, NativeType as DriverNative};
use scylla::response::query_result::QueryRowsResult;

use crate::error::Error;
use crate::exec::{ColumnSpec, ResultSet, Rows};
use crate::server::values::decode;
use crate::syntax::ast::NativeType;
use crate::types::{DataType, Value};

/// The columns a page of rows declares.
pub fn columns(result: &QueryRowsResult) -> Result<Vec<ColumnSpec>, Error> {
    result
        .column_specs()
        .iter()
        .map(|spec| {
            Ok(ColumnSpec {
                name: spec.name().to_string(),
                data_type: data_type(spec.typ())?,
            })
        })
        .collect()
}

/// Appends a page's rows to `rows`, each cell decoded by its column's type,
/// so the pages of a paged answer end in one buffer without copying.
pub fn append(
    result: &QueryRowsResult,
    columns: &[ColumnSpec],
    rows: &mut Rows,
) -> Result<(), Error> {
    rows.reserve(result.rows_num());
    let iter = result
        .rows::<ColumnIterator>()
        .map_err(|e| unreadable(e.to_string()))?;
    for row in iter {
        let row = row.map_err(|e| unreadable(e.to_string()))?;
        let mut values = Vec::with_capacity(columns.len());
        for (column, spec) in row.zip(columns) {
            let column = column.map_err(|e| unreadable(e.to_string()))?;
            values.push(match column.slice {
                None => Value::Null,
                Some(slice) => decode(&spec.data_type, slice.as_slice())
                    .map_err(|e| unreadable(format!("column {}: {}", spec.name, e.0)))?,
            });
        }
        rows.push(values);
    }
    Ok(())
}

/// The gathered rows as one result, as the shell shows a paged query.
pub fn result(columns: Vec<ColumnSpec>, rows: Rows, warnings: Vec<String>) -> ResultSet {
    let mut result = ResultSet::rows(columns, rows);
    result.metrics.rows_returned = result.rows.len() as u64;
    result.warnings = warnings;
    result
}

/// The CQL type a result column declares, in widerow's terms.
pub fn data_type(ty: &ColumnType<'_>) -> Result<DataType, Error> {
    Ok(match ty {
        ColumnType::Native(native) => DataType::Native(native_type(native)?),
        ColumnType::Collection { frozen, typ } => match typ {
            CollectionType::List(element) => DataType::List {
                element: Box::new(data_type(element)?),
                frozen: *frozen,
            },
            CollectionType::Set(element) => DataType::Set {
                element: Box::new(data_type(element)?),
                frozen: *frozen,
            },
            CollectionType::Map(key, value) => DataType::Map {
                key: Box::new(data_type(key)?),
                value: Box::new(data_type(value)?),
                frozen: *frozen,
            },
            other => return Err(unreadable(format!("unknown collection type {other:?}"))),
        },
        ColumnType::Vector { typ, dimensions } => DataType::Vector {
            element: Box::new(data_type(typ)?),
            dimension: u32::from(*dimensions),
        },
        ColumnType::UserDefinedType { frozen, definition } => DataType::Udt {
            keyspace: definition.keyspace.to_string(),
            name: definition.name.to_string(),
            fields: definition
                .field_types
                .iter()
                .map(|(name, ty)| Ok((name.to_string(), data_type(ty)?)))
                .collect::<Result<_, Error>>()?,
            frozen: *frozen,
        },
        ColumnType::Tuple(types) => {
            DataType::Tuple(types.iter().map(data_type).collect::<Result<_, _>>()?)
        }
        other => return Err(unreadable(format!("unknown column type {other:?}"))),
    })
}

fn native_type(native: &DriverNative) -> Result<NativeType, Error> {
    Ok(match native {
        DriverNative::Ascii => NativeType::Ascii,
        DriverNative::Boolean => NativeType::Boolean,
        DriverNative::Blob => NativeType::Blob,
        DriverNative::Counter => NativeType::Counter,
        DriverNative::Date => NativeType::Date,
        DriverNative::Decimal => NativeType::Decimal,
        DriverNative::Double => NativeType::Double,
        DriverNative::Duration => NativeType::Duration,
        DriverNative::Float => NativeType::Float,
        DriverNative::Int => NativeType::Int,
        DriverNative::BigInt => NativeType::Bigint,
        DriverNative::Text => NativeType::Text,
        DriverNative::Timestamp => NativeType::Timestamp,
        DriverNative::Inet => NativeType::Inet,
        DriverNative::SmallInt => NativeType::Smallint,
        DriverNative::TinyInt => NativeType::Tinyint,
        DriverNative::Time => NativeType::Time,
        DriverNative::Timeuuid => NativeType::Timeuuid,
        DriverNative::Uuid => NativeType::Uuid,
        DriverNative::Varint => NativeType::Varint,
        other => return Err(unreadable(format!("unknown native type {other:?}"))),
    })
}

/// A result the cluster sent that widerow cannot read: reported, never a
/// panic, and nothing else of the session is disturbed.
fn unreadable(detail: String) -> Error {
    Error::new(
        crate::error::ErrorKind::ServerError,
        format!("widerow could not read the cluster's result: {detail}"),
    )
}
