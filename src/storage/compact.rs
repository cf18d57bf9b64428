//! Values kept in 16 bytes instead of a [`Value`]'s 32: a fixed-width
//! value inline beside its tag, any other boxed. Storage keeps every stored
//! value this way, and most are fixed-width (numbers, times, dates), so a
//! row or a clustering key takes half the room and a scan half the memory
//! traffic; a value is rebuilt as a [`Value`] where it is read.
//!
//! Reads that run per row (a slice's projection, a filtering scan's test)
//! take the compact form as it is, through [`Compact::put_value`] and
//! [`Compact::cmp_value`] or by matching it, instead of a [`Cow`] of a
//! rebuilt value.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::mem::ManuallyDrop;

use crate::types::Value;

/// A stored value in 16 bytes: fixed-width values inline, any other boxed.
/// Each inline variant holds what the [`Value`] variant of the same name
/// holds.
#[derive(Clone)]
pub enum Compact {
    Int(i32),
    Bigint(i64),
    Counter(i64),
    Double(f64),
    Float(f32),
    Timestamp(i64),
    Date(u32),
    Time(i64),
    Boolean(bool),
    Tinyint(i8),
    Smallint(i16),
    /// Any value that is not of fixed width.
    Boxed(Box<Value>),
}

impl Compact {
    pub(super) fn new(value: Value) -> Compact {
        match Compact::fixed(&value) {
            Some(fixed) => {
                // A fixed-width value owns nothing: skip its drop glue.
                std::mem::forget(value);
                fixed
            }
            None => Compact::Boxed(Box::new(value)),
        }
    }

    /// A copy of `value`: [`Compact::new`] of a clone, without the clone.
    #[inline]
    pub(super) fn of(value: &Value) -> Compact {
        Compact::fixed(value).unwrap_or_else(|| Compact::Boxed(Box::new(value.clone())))
    }

    /// `value` kept inline, when it is of fixed width: the one list of
    /// the inline variants going in (see [`Compact::map_value`] for the
    /// way out).
    #[inline(always)]
    fn fixed(value: &Value) -> Option<Compact> {
        Some(match *value {
            Value::Int(v) => Compact::Int(v),
            Value::Bigint(v) => Compact::Bigint(v),
            Value::Counter(v) => Compact::Counter(v),
            Value::Double(v) => Compact::Double(v),
            Value::Float(v) => Compact::Float(v),
            Value::Timestamp(v) => Compact::Timestamp(v),
            Value::Date(v) => Compact::Date(v),
            Value::Time(v) => Compact::Time(v),
            Value::Boolean(v) => Compact::Boolean(v),
            Value::Tinyint(v) => Compact::Tinyint(v),
            Value::Smallint(v) => Compact::Smallint(v),
            _ => return None,
        })
    }

    /// The value, borrowed if it is boxed, built if it is inline.
    pub fn value(&self) -> Cow<'_, Value> {
        match self.inline_value() {
            Ok(value) => Cow::Owned(value),
            Err(boxed) => Cow::Borrowed(boxed),
        }
    }

    /// Hands the value to `put`, built in each case where `put` keeps it
    /// (an inline `put` then writes it straight to its place, where a
    /// value built first is stored piecewise and copied whole, a copy the
    /// processor cannot forward from those stores).
    #[inline(always)]
    pub fn put_value(&self, put: impl FnOnce(Value)) {
        self.map_value(|found| match found {
            Ok(inline) => put(inline),
            Err(boxed) => put(boxed.clone()),
        })
    }

    /// The value's order against `other` ([`Value`]'s `Ord`), comparing
    /// the integers of same-typed inline values directly: a clustering
    /// search compares its probe with a dozen stored keys.
    #[inline]
    pub fn cmp_value(&self, other: &Value) -> Ordering {
        match (self, other) {
            (Compact::Timestamp(a), Value::Timestamp(b))
            | (Compact::Bigint(a), Value::Bigint(b))
            | (Compact::Time(a), Value::Time(b)) => a.cmp(b),
            (Compact::Int(a), Value::Int(b)) => a.cmp(b),
            (Compact::Date(a), Value::Date(b)) => a.cmp(b),
            _ => self.with_value(|value| value.cmp(other)),
        }
    }

    /// The value as a number, when it is an integer kept inline (a
    /// timestamp, a date, a time or an integer): where a search for it
    /// among others of its kind can guess it is.
    #[inline]
    pub fn as_integer(&self) -> Option<i64> {
        Some(match *self {
            Compact::Int(v) => i64::from(v),
            Compact::Bigint(v) | Compact::Timestamp(v) | Compact::Time(v) => v,
            Compact::Date(v) => i64::from(v),
            Compact::Smallint(v) => i64::from(v),
            Compact::Tinyint(v) => i64::from(v),
            _ => return None,
        })
    }

    /// Runs `f` on the value without copying a boxed one or dropping an
    /// inline one (which owns nothing).
    #[inline]
    pub fn with_value<R>(&self, f: impl FnOnce(&Value) -> R) -> R {
        match self.inline_value() {
            Ok(value) => f(&ManuallyDrop::new(value)),
            Err(boxed) => f(boxed),
        }
    }

    /// The value built in place if it is kept inline; the boxed one if not.
    #[inline]
    fn inline_value(&self) -> Result<Value, &Value> {
        self.map_value(|found| found)
    }

    /// `f` of the value built in place if it is kept inline, or of the
    /// boxed one if not: the one list of the inline variants, with `f`
    /// called in each case so that an inline `f` sees which.
    #[inline(always)]
    fn map_value<'a, R>(&'a self, f: impl FnOnce(Result<Value, &'a Value>) -> R) -> R {
        match self {
            Compact::Int(v) => f(Ok(Value::Int(*v))),
            Compact::Bigint(v) => f(Ok(Value::Bigint(*v))),
            Compact::Counter(v) => f(Ok(Value::Counter(*v))),
            Compact::Double(v) => f(Ok(Value::Double(*v))),
            Compact::Float(v) => f(Ok(Value::Float(*v))),
            Compact::Timestamp(v) => f(Ok(Value::Timestamp(*v))),
            Compact::Date(v) => f(Ok(Value::Date(*v))),
            Compact::Time(v) => f(Ok(Value::Time(*v))),
            Compact::Boolean(v) => f(Ok(Value::Boolean(*v))),
            Compact::Tinyint(v) => f(Ok(Value::Tinyint(*v))),
            Compact::Smallint(v) => f(Ok(Value::Smallint(*v))),
            Compact::Boxed(v) => f(Err(v)),
        }
    }

    pub(super) fn into_value(self) -> Value {
        match self {
            Compact::Boxed(v) => *v,
            fixed => fixed.value().into_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_is_what_a_moved_clone_would_be() {
        let values = [
            Value::Int(-7),
            Value::Bigint(i64::MIN),
            Value::Counter(3),
            Value::Double(-0.0),
            Value::Float(1.5),
            Value::Timestamp(1_750_000_000_000),
            Value::Date(1 << 31),
            Value::Time(86_399_999_999_999),
            Value::Boolean(true),
            Value::Tinyint(-128),
            Value::Smallint(300),
            Value::Text("wide".into()),
            Value::Empty,
            Value::List(vec![Value::Int(1)]),
        ];
        for value in values {
            let (copied, moved) = (Compact::of(&value), Compact::new(value.clone()));
            assert_eq!(
                std::mem::discriminant(&copied),
                std::mem::discriminant(&moved),
                "{value:?}"
            );
            assert_eq!(copied.into_value(), value, "{value:?}");
        }
    }
}
