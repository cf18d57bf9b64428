//! widerow's values bound to a prepared statement: each serialized by the
//! same code that writes them on widerow's own wire, and handed to the
//! driver as ready cells.

use scylla::serialize::row::{RowSerializationContext, SerializeRow};
use scylla::serialize::writers::RowWriter;
use scylla::serialize::SerializationError;

use crate::error::Error;
use crate::types::Value;

/// The cells of one row of bound values (`None` for null).
#[derive(Debug)]
pub struct Bound(Vec<Option<Vec<u8>>>);

impl Bound {
    /// Serializes `values`; a value that has no serialized form is an
    /// error before anything is sent.
    pub fn new(values: &[Value]) -> Result<Bound, Error> {
        values
            .iter()
            .map(|value| {
                if value.is_null() {
                    return Ok(None);
                }
                let mut bytes = Vec::new();
                value
                    .serialize_into(&mut bytes)
                    .map_err(|e| Error::invalid(format!("cannot bind {value:?}: {e}")))?;
                Ok(Some(bytes))
            })
            .collect::<Result<_, _>>()
            .map(Bound)
    }
}

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Mismatch(String);

impl SerializeRow for Bound {
    fn serialize(
        &self,
        ctx: &RowSerializationContext<'_>,
        writer: &mut RowWriter,
    ) -> Result<(), SerializationError> {
        let wanted = ctx.columns().len();
        if wanted != self.0.len() {
            return Err(SerializationError::new(Mismatch(format!(
                "the statement has {wanted} bind markers, but {} values were given",
                self.0.len()
            ))));
        }
        for cell in &self.0 {
            let writer = writer.make_cell_writer();
            match cell {
                None => {
                    writer.set_null();
                }
                Some(bytes) => {
                    writer
                        .set_value(bytes)
                        .map_err(|e| SerializationError::new(Mismatch(e.to_string())))?;
                }
            }
        }
        Ok(())
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
