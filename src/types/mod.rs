//! CQL types and values.
//!
//! * [`data_type`]: column types as the schema resolved them ([`DataType`]).
//! * [`serialize`]: CQL values in Cassandra's serialized form, read from their text the
//!   way Cassandra reads it. Those bytes are what partition keys are hashed from (see
//!   [`crate::cluster::murmur3`]).
//! * [`value`]: [`Value`], one value of any type, with Cassandra's order (`order.rs`),
//!   its serialized bytes ([`Value::serialize`]), its cqlsh display
//!   ([`Value::cqlsh_display`]) and its JSON ([`Value::to_json`]).
//! * [`coerce`]: literals and literal terms of a statement turned into values of a
//!   column's type, with Cassandra's acceptance rules and messages.

mod calendar;
pub mod coerce;
mod coerce_term;
pub mod data_type;
pub mod duration;
mod encode;
mod format;
mod java_hash;
mod javafloat;
mod json;
mod number;
mod order;
pub mod serialize;
pub mod timeuuid;
pub mod value;

pub use calendar::set_display_time_zone;
pub use coerce::coerce;
pub use coerce_term::{coerce_term, term_text, NotConstant, NotConstantReason, TermError};
pub use data_type::{DataType, UdtLookup};
pub use duration::{duration_to_string, parse_duration};
#[cfg(feature = "server")]
pub(crate) use format::uuid_text;
pub(crate) use java_hash::{java_map_copy_order, java_set_order};
pub use value::{CqlDuration, Decimal, Value};
