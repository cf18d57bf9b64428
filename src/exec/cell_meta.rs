//! `writetime()`, `maxwritetime()` and `ttl()`: the metadata of the cells
//! behind a column, an element or a field, with Cassandra 5.0's shapes. A
//! non-frozen collection is many cells, so its `writetime`/`ttl` is a list
//! with one entry per live element (CASSANDRA-8877); `maxwritetime` is the
//! latest of them; a frozen value is one cell and one value.

use crate::error::Error;
use crate::schema::Column;
use crate::storage::{CellRef, Collection, Element, Expiry};
use crate::syntax::ast::{MetadataFunction, NativeType, SubSelection, Term};
use crate::types::{DataType, Value};

use super::bind::{eval_term, Binds};
use super::functions::FunctionContext;
use super::view::RowView;

/// A compiled metadata selector.
#[derive(Debug, Clone)]
pub(crate) struct Meta<'t> {
    function: MetadataFunction,
    column: &'t Column,
    part: Part,
}

/// Which part of the column the function reads.
#[derive(Debug, Clone)]
enum Part {
    Whole,
    Element(Value),
    Slice(Option<Value>, Option<Value>),
    Field(usize),
}

impl<'t> Meta<'t> {
    /// Compiles `function(column[sub])` with its result type, refusing what
    /// Cassandra's `Selectable.WritetimeOrTTL` and element selection refuse.
    pub(crate) fn compile(
        function: MetadataFunction,
        column: &'t Column,
        sub: Option<&SubSelection>,
        binds: &Binds,
        fcx: &mut FunctionContext<'_>,
    ) -> Result<(Meta<'t>, DataType), Error> {
        if column.is_primary_key() {
            return Err(Error::invalid(format!(
                "Cannot use selection function {} on PRIMARY KEY part {}",
                function_name(function),
                column.name
            )));
        }
        let part = match sub {
            None => Part::Whole,
            Some(sub) => compile_part(column, sub, binds, fcx)?,
        };
        let meta = Meta {
            function,
            column,
            part,
        };
        let ty = meta.result_type();
        Ok((meta, ty))
    }

    fn many_cells(&self) -> bool {
        super::write::is_collection_cells(&self.column.data_type)
            && matches!(self.part, Part::Whole | Part::Slice(..))
    }

    fn result_type(&self) -> DataType {
        let scalar = DataType::Native(match self.function {
            MetadataFunction::Ttl => NativeType::Int,
            _ => NativeType::Bigint,
        });
        if self.many_cells() && self.function != MetadataFunction::MaxWriteTime {
            DataType::List {
                element: Box::new(scalar),
                frozen: false,
            }
        } else {
            scalar
        }
    }

    /// The value for one row (null without a row or a live cell).
    pub(crate) fn eval(&self, row: Option<&RowView<'_>>) -> Value {
        let Some(row) = row else {
            return Value::Null;
        };
        if super::write::is_collection_cells(&self.column.data_type) {
            return match row.collection(self.column) {
                Some(collection) => self.of_collection(collection, row.now_secs),
                None => Value::Null,
            };
        }
        match row.cell(self.column) {
            Some(cell) if self.part_present(&cell, row.now_secs) => {
                self.of_cell(cell.timestamp, cell.expiry, row.now_secs)
            }
            _ => Value::Null,
        }
    }

    /// Whether a single (frozen or simple) cell is live and holds the part read.
    fn part_present(&self, cell: &CellRef<'_>, now_secs: i64) -> bool {
        let Some(value) = cell.live_value(now_secs) else {
            return false;
        };
        match (&self.part, value) {
            (Part::Whole, _) => true,
            (Part::Element(key), Value::Map(entries)) => entries.iter().any(|(k, _)| k == key),
            (Part::Element(key), Value::Set(items)) => items.contains(key),
            (Part::Slice(from, to), Value::Map(entries)) => {
                entries.iter().any(|(k, _)| within(k, from, to))
            }
            (Part::Slice(from, to), Value::Set(items)) => items.iter().any(|k| within(k, from, to)),
            (Part::Field(i), Value::Udt(fields)) => fields.get(*i).is_some_and(Option::is_some),
            _ => false,
        }
    }

    fn of_collection(&self, collection: &Collection, now_secs: i64) -> Value {
        if let DataType::Udt { fields, .. } = &self.column.data_type {
            return self.of_fields(collection, fields.len(), now_secs);
        }
        let live = collection
            .elements
            .iter()
            .filter(|e| e.cell.live_value(now_secs).is_some())
            .filter(|e| self.selects(e));
        let cells: Vec<Value> = live
            .map(|e| self.of_cell(e.cell.timestamp, e.cell.expiry, now_secs))
            .collect();
        if cells.is_empty() {
            return Value::Null;
        }
        if !self.many_cells() {
            return cells.into_iter().next().unwrap_or(Value::Null);
        }
        match self.function {
            MetadataFunction::MaxWriteTime => cells.into_iter().max().unwrap_or(Value::Null),
            _ => Value::List(cells),
        }
    }

    /// A non-frozen UDT: one entry per field, null for a field without a
    /// live cell (or the one field selected), as Cassandra 5.0 answers.
    fn of_fields(&self, collection: &Collection, count: usize, now_secs: i64) -> Value {
        let field = |i: usize| {
            let key = super::write::field_key(i);
            collection
                .elements
                .iter()
                .find(|e| e.key == key && e.cell.live_value(now_secs).is_some())
                .map(|e| self.of_cell(e.cell.timestamp, e.cell.expiry, now_secs))
        };
        if let Part::Field(i) = self.part {
            return field(i).unwrap_or(Value::Null);
        }
        let cells: Vec<Option<Value>> = (0..count).map(field).collect();
        if cells.iter().all(Option::is_none) {
            return Value::Null;
        }
        match self.function {
            MetadataFunction::MaxWriteTime => {
                cells.into_iter().flatten().max().unwrap_or(Value::Null)
            }
            _ => Value::List(
                cells
                    .into_iter()
                    .map(|c| c.unwrap_or(Value::Null))
                    .collect(),
            ),
        }
    }

    fn selects(&self, element: &Element) -> bool {
        match &self.part {
            Part::Element(key) => element.key == *key,
            Part::Slice(from, to) => within(&element.key, from, to),
            Part::Whole | Part::Field(_) => true,
        }
    }

    fn of_cell(&self, timestamp: i64, expiry: Option<Expiry>, now_secs: i64) -> Value {
        match self.function {
            MetadataFunction::Ttl => expiry.map_or(Value::Null, |e| {
                Value::Int(i32::try_from(e.expires_at() - now_secs).unwrap_or(i32::MAX))
            }),
            _ => Value::Bigint(timestamp),
        }
    }
}

fn within(key: &Value, from: &Option<Value>, to: &Option<Value>) -> bool {
    from.as_ref().is_none_or(|f| key >= f) && to.as_ref().is_none_or(|t| key <= t)
}

/// The function's name as Cassandra's messages write it.
fn function_name(function: MetadataFunction) -> &'static str {
    match function {
        MetadataFunction::WriteTime => "writetime",
        MetadataFunction::MaxWriteTime => "maxwritetime",
        MetadataFunction::Ttl => "ttl",
    }
}

/// The element, slice or field of `column` named by `sub`, with
/// Cassandra's messages for a part the column does not have.
fn compile_part(
    column: &Column,
    sub: &SubSelection,
    binds: &Binds,
    fcx: &mut FunctionContext<'_>,
) -> Result<Part, Error> {
    let ty = &column.data_type;
    let key_type = |what: &str| -> Result<&DataType, Error> {
        match ty {
            DataType::Map { key, .. } => Ok(key),
            DataType::Set { element, .. } => Ok(element),
            DataType::List { .. } => Err(Error::invalid(format!(
                "{what} selection is only allowed on sets and maps, but {} is a list",
                column.name
            ))),
            _ => Err(Error::invalid(format!(
                "Invalid element selection: {} is of type {} is not a collection",
                column.name, ty
            ))),
        }
    };
    let key_name = format!("key({})", column.name);
    let mut key = |t: &Term, kt: &DataType| eval_term(t, kt, &key_name, binds, fcx);
    Ok(match sub {
        SubSelection::Element(t) => {
            let kt = key_type("Element")?;
            Part::Element(key(t, kt)?)
        }
        SubSelection::Slice(from, to) => {
            let kt = key_type("Slice")?;
            let from = from.as_deref().map(|t| key(t, kt)).transpose()?;
            let to = to.as_deref().map(|t| key(t, kt)).transpose()?;
            Part::Slice(from, to)
        }
        SubSelection::Field(field) => {
            let DataType::Udt { fields, .. } = ty else {
                return Err(Error::invalid(format!(
                    "Invalid field selection: {} of type {} is not a user type",
                    column.name, ty
                )));
            };
            let i = fields
                .iter()
                .position(|(f, _)| *f == field.name)
                .ok_or_else(|| {
                    Error::invalid(format!(
                        "{} of type {} has no field {}",
                        column.name, ty, field.name
                    ))
                })?;
            Part::Field(i)
        }
    })
}
