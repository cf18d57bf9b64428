//! Column types after the schema has resolved them.
//!
//! The AST's [`CqlType`] is what was written; a [`DataType`] is what it
//! means: `varchar` is `text`, user-defined types carry their fields,
//! freezing has been pushed down (everything inside a frozen collection,
//! tuple or UDT is frozen too), and the shapes Cassandra refuses — a
//! non-frozen collection inside a collection, counters inside collections,
//! durations in sets or as map keys — are refused with Cassandra's messages.

use std::fmt;

use crate::error::Error;
use crate::syntax::ast::{CqlType, NativeType, QualifiedName};

/// A resolved CQL type.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum DataType {
    /// A native type; never `varchar` (folded into `text`).
    Native(NativeType),
    /// `list<T>`; a non-frozen list is stored element by element.
    List {
        /// Element type.
        element: Box<DataType>,
        /// `frozen<list<T>>`
        frozen: bool,
    },
    /// `set<T>`
    Set {
        /// Element type.
        element: Box<DataType>,
        /// `frozen<set<T>>`
        frozen: bool,
    },
    /// `map<K, V>`
    Map {
        /// Key type.
        key: Box<DataType>,
        /// Value type.
        value: Box<DataType>,
        /// `frozen<map<K, V>>`
        frozen: bool,
    },
    /// `tuple<…>` — always frozen.
    Tuple(Vec<DataType>),
    /// A user-defined type with its fields, in declaration order.
    Udt {
        /// The keyspace that defines it.
        keyspace: String,
        /// Its name.
        name: String,
        /// Its fields.
        fields: Vec<(String, DataType)>,
        /// `frozen<udt>`
        frozen: bool,
    },
    /// `vector<T, n>` — always frozen.
    Vector {
        /// Element type.
        element: Box<DataType>,
        /// Number of elements.
        dimension: u32,
    },
    /// A custom type class, kept by name.
    Custom(String),
}

/// Looks user-defined types up while resolving: `(keyspace, name)` to the
/// type's fields, already resolved.
pub trait UdtLookup {
    /// The fields of `keyspace.name`, if such a type exists.
    fn udt_fields(&self, keyspace: &str, name: &str) -> Option<Vec<(String, DataType)>>;
}

/// A lookup that knows no user-defined types.
impl UdtLookup for () {
    fn udt_fields(&self, _: &str, _: &str) -> Option<Vec<(String, DataType)>> {
        None
    }
}

impl DataType {
    /// Resolves a written type in `keyspace` (where unqualified UDT names
    /// live).
    pub fn resolve(ty: &CqlType, keyspace: &str, udts: &dyn UdtLookup) -> Result<DataType, Error> {
        let resolved = resolve_unchecked(ty, keyspace, udts)?;
        resolved.check_nesting()?;
        Ok(resolved)
    }

    /// Whether values are stored as separate cells (non-frozen collections
    /// and UDTs), which decides what a key column may be and which
    /// operations an UPDATE may apply.
    pub fn is_multi_cell(&self) -> bool {
        match self {
            DataType::List { frozen, .. }
            | DataType::Set { frozen, .. }
            | DataType::Map { frozen, .. }
            | DataType::Udt { frozen, .. } => !frozen,
            _ => false,
        }
    }

    /// Whether this is a list, set or map (frozen or not).
    pub fn is_collection(&self) -> bool {
        matches!(
            self,
            DataType::List { .. } | DataType::Set { .. } | DataType::Map { .. }
        )
    }

    /// Whether this is `counter`.
    pub fn is_counter(&self) -> bool {
        matches!(self, DataType::Native(NativeType::Counter))
    }

    /// Whether a `duration` appears anywhere inside.
    pub fn contains_duration(&self) -> bool {
        match self {
            DataType::Native(t) => *t == NativeType::Duration,
            DataType::List { element, .. }
            | DataType::Set { element, .. }
            | DataType::Vector { element, .. } => element.contains_duration(),
            DataType::Map { key, value, .. } => {
                key.contains_duration() || value.contains_duration()
            }
            DataType::Tuple(items) => items.iter().any(DataType::contains_duration),
            DataType::Udt { fields, .. } => fields.iter().any(|(_, t)| t.contains_duration()),
            DataType::Custom(_) => false,
        }
    }

    /// The same type, frozen, and everything inside it frozen as well.
    pub fn frozen(self) -> DataType {
        match self {
            DataType::List { element, .. } => DataType::List {
                element: Box::new(element.frozen()),
                frozen: true,
            },
            DataType::Set { element, .. } => DataType::Set {
                element: Box::new(element.frozen()),
                frozen: true,
            },
            DataType::Map { key, value, .. } => DataType::Map {
                key: Box::new(key.frozen()),
                value: Box::new(value.frozen()),
                frozen: true,
            },
            DataType::Udt {
                keyspace,
                name,
                fields,
                ..
            } => DataType::Udt {
                keyspace,
                name,
                fields: fields.into_iter().map(|(n, t)| (n, t.frozen())).collect(),
                frozen: true,
            },
            DataType::Tuple(items) => {
                DataType::Tuple(items.into_iter().map(DataType::frozen).collect())
            }
            other => other,
        }
    }

    /// Cassandra's rules on what may sit inside what.
    fn check_nesting(&self) -> Result<(), Error> {
        let inside = |element: &DataType, container: &DataType| -> Result<(), Error> {
            if element.is_counter() {
                return Err(Error::invalid(format!(
                    "Counters are not allowed inside collections: {container}"
                )));
            }
            if element.is_multi_cell() {
                let what = if matches!(element, DataType::Udt { .. }) {
                    "UDTs"
                } else {
                    "collections"
                };
                return Err(Error::invalid(format!(
                    "Non-frozen {what} are not allowed inside collections: {container}"
                )));
            }
            element.check_nesting()
        };
        match self {
            DataType::List { element, .. } | DataType::Vector { element, .. } => {
                inside(element, self)
            }
            DataType::Set { element, .. } => {
                if element.contains_duration() {
                    return Err(Error::invalid(format!(
                        "Durations are not allowed inside sets: {self}"
                    )));
                }
                inside(element, self)
            }
            DataType::Map { key, value, .. } => {
                if key.contains_duration() {
                    return Err(Error::invalid(format!(
                        "Durations are not allowed as map keys: {self}"
                    )));
                }
                inside(key, self)?;
                inside(value, self)
            }
            DataType::Tuple(items) => items.iter().try_for_each(DataType::check_nesting),
            DataType::Udt { fields, .. } => fields.iter().try_for_each(|(_, t)| t.check_nesting()),
            DataType::Native(_) | DataType::Custom(_) => Ok(()),
        }
    }
}

fn resolve_unchecked(
    ty: &CqlType,
    keyspace: &str,
    udts: &dyn UdtLookup,
) -> Result<DataType, Error> {
    let resolve = |t: &CqlType| resolve_unchecked(t, keyspace, udts).map(Box::new);
    Ok(match ty {
        CqlType::Native(NativeType::Varchar) => DataType::Native(NativeType::Text),
        CqlType::Native(t) => DataType::Native(*t),
        CqlType::List(t) => DataType::List {
            element: resolve(t)?,
            frozen: false,
        },
        CqlType::Set(t) => DataType::Set {
            element: resolve(t)?,
            frozen: false,
        },
        CqlType::Map(k, v) => DataType::Map {
            key: resolve(k)?,
            value: resolve(v)?,
            frozen: false,
        },
        CqlType::Tuple(items) => DataType::Tuple(
            items
                .iter()
                .map(|t| resolve_unchecked(t, keyspace, udts).map(DataType::frozen))
                .collect::<Result<_, _>>()?,
        ),
        CqlType::Frozen(inner) => resolve_unchecked(inner, keyspace, udts)?.frozen(),
        CqlType::Vector(element, dimension) => DataType::Vector {
            dimension: vector_dimension(*dimension)?,
            element: Box::new(resolve_unchecked(element, keyspace, udts)?.frozen()),
        },
        CqlType::Udt(name) => resolve_udt(name, keyspace, udts)?,
        CqlType::Custom(class) => DataType::Custom(class.clone()),
    })
}

/// A vector's dimension as written, or Cassandra's refusal of one below 1.
fn vector_dimension(written: i32) -> Result<u32, Error> {
    match u32::try_from(written) {
        Ok(dimension @ 1..) => Ok(dimension),
        _ => Err(Error::invalid(format!(
            "vectors may only have positive dimensions; given {written}"
        ))),
    }
}

/// Refuses a vector of no or negative dimension anywhere in `ty`: what
/// preparing a type hint does before anything else, where the hint's
/// user-defined types cannot be looked up.
pub(crate) fn check_vector_dimensions(ty: &CqlType) -> Result<(), Error> {
    match ty {
        CqlType::Vector(element, dimension) => {
            vector_dimension(*dimension)?;
            check_vector_dimensions(element)
        }
        CqlType::List(t) | CqlType::Set(t) | CqlType::Frozen(t) => check_vector_dimensions(t),
        CqlType::Map(k, v) => {
            check_vector_dimensions(k)?;
            check_vector_dimensions(v)
        }
        CqlType::Tuple(items) => items.iter().try_for_each(check_vector_dimensions),
        CqlType::Native(_) | CqlType::Udt(_) | CqlType::Custom(_) => Ok(()),
    }
}

fn resolve_udt(
    name: &QualifiedName,
    keyspace: &str,
    udts: &dyn UdtLookup,
) -> Result<DataType, Error> {
    let ks = name.keyspace.as_ref().map_or(keyspace, |k| k.name.as_str());
    let type_name = name.name.name.as_str();
    match udts.udt_fields(ks, type_name) {
        Some(fields) => Ok(DataType::Udt {
            keyspace: ks.to_string(),
            name: type_name.to_string(),
            fields,
            frozen: false,
        }),
        None => Err(Error::invalid(format!("Unknown type {ks}.{type_name}")).with_span(name.span)),
    }
}

/// Writes a type's inner form (no `frozen<>` wrapper).
fn write_bare(f: &mut fmt::Formatter<'_>, ty: &DataType) -> fmt::Result {
    match ty {
        DataType::Native(t) => f.write_str(t.name()),
        DataType::List { element, .. } => write!(f, "list<{element}>"),
        DataType::Set { element, .. } => write!(f, "set<{element}>"),
        DataType::Map { key, value, .. } => write!(f, "map<{key}, {value}>"),
        DataType::Tuple(items) => {
            f.write_str("tuple<")?;
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{item}")?;
            }
            f.write_str(">")
        }
        DataType::Udt { name, .. } => {
            let mut text = String::new();
            crate::syntax::ast::write_name(&mut text, name)?;
            f.write_str(&text)
        }
        DataType::Vector { element, dimension } => write!(f, "vector<{element}, {dimension}>"),
        DataType::Custom(class) => write!(f, "'{}'", class.replace('\'', "''")),
    }
}

/// The type as DESCRIBE prints it: frozen collections, tuples and frozen
/// UDTs inside `frozen<…>` (a tuple is always frozen).
impl fmt::Display for DataType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let frozen = match self {
            DataType::List { frozen, .. }
            | DataType::Set { frozen, .. }
            | DataType::Map { frozen, .. }
            | DataType::Udt { frozen, .. } => *frozen,
            DataType::Tuple(_) => true,
            _ => false,
        };
        if frozen {
            f.write_str("frozen<")?;
            write_bare(f, self)?;
            f.write_str(">")
        } else {
            write_bare(f, self)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_statement;
    use crate::syntax::ast::{Statement, TableElement};

    /// Resolves the type of the first column of `CREATE TABLE t (c <ty> …)`.
    fn resolve(ty: &str) -> Result<DataType, Error> {
        let text = format!("CREATE TABLE t (c {ty} PRIMARY KEY)");
        let Ok(Statement::CreateTable(t)) = parse_statement(&text) else {
            panic!("{text} does not parse");
        };
        let TableElement::Column(c) = &t.elements[0] else {
            panic!("no column");
        };
        DataType::resolve(&c.ty, "ks", &())
    }

    #[test]
    fn varchar_is_text_and_freezing_reaches_inside() {
        assert_eq!(resolve("varchar").expect("valid").to_string(), "text");
        let t = resolve("frozen<map<int, list<int>>>").expect("valid");
        assert_eq!(t.to_string(), "frozen<map<int, frozen<list<int>>>>");
        assert!(!t.is_multi_cell());
        assert_eq!(
            resolve("tuple<int, text>").expect("valid").to_string(),
            "frozen<tuple<int, text>>"
        );
    }

    #[test]
    fn refuses_what_cassandra_refuses() {
        let message = |ty: &str| resolve(ty).unwrap_err().message().to_string();
        assert_eq!(
            message("list<list<int>>"),
            "Non-frozen collections are not allowed inside collections: list<list<int>>"
        );
        assert_eq!(
            message("list<counter>"),
            "Counters are not allowed inside collections: list<counter>"
        );
        assert_eq!(
            message("set<duration>"),
            "Durations are not allowed inside sets: set<duration>"
        );
        assert_eq!(
            message("map<duration, int>"),
            "Durations are not allowed as map keys: map<duration, int>"
        );
        assert_eq!(message("address"), "Unknown type ks.address");
    }
}
