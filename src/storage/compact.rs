//! Values kept in 16 bytes instead of a [`Value`]'s 32: a fixed-width
//! value inline beside its tag, any other boxed. Storage keeps every stored
//! value this way, and most are fixed-width (numbers, times, dates), so a
//! row or a clustering key takes half the room and a scan half the memory
//! traffic; a value is rebuilt as a [`Value`] where it is read.

use std::borrow::Cow;
use std::mem::ManuallyDrop;

use crate::types::Value;

/// A value in 16 bytes: fixed-width values inline, any other boxed.
#[derive(Clone)]
pub(super) enum Compact {
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
    Boxed(Box<Value>),
}

impl Compact {
    pub(super) fn new(value: Value) -> Compact {
        let fixed = match &value {
            Value::Int(v) => Compact::Int(*v),
            Value::Bigint(v) => Compact::Bigint(*v),
            Value::Counter(v) => Compact::Counter(*v),
            Value::Double(v) => Compact::Double(*v),
            Value::Float(v) => Compact::Float(*v),
            Value::Timestamp(v) => Compact::Timestamp(*v),
            Value::Date(v) => Compact::Date(*v),
            Value::Time(v) => Compact::Time(*v),
            Value::Boolean(v) => Compact::Boolean(*v),
            Value::Tinyint(v) => Compact::Tinyint(*v),
            Value::Smallint(v) => Compact::Smallint(*v),
            _ => return Compact::Boxed(Box::new(value)),
        };
        // A fixed-width value owns nothing: skip its drop glue.
        std::mem::forget(value);
        fixed
    }

    pub(super) fn value(&self) -> Cow<'_, Value> {
        match self.inline_value() {
            Ok(value) => Cow::Owned(value),
            Err(boxed) => Cow::Borrowed(boxed),
        }
    }

    /// Runs `f` on the value without copying a boxed one or dropping an
    /// inline one (which owns nothing).
    #[inline]
    pub(super) fn with_value<R>(&self, f: impl FnOnce(&Value) -> R) -> R {
        match self.inline_value() {
            Ok(value) => f(&ManuallyDrop::new(value)),
            Err(boxed) => f(boxed),
        }
    }

    /// The value built in place if it is kept inline; the boxed one if not.
    #[inline]
    fn inline_value(&self) -> Result<Value, &Value> {
        Ok(match self {
            Compact::Int(v) => Value::Int(*v),
            Compact::Bigint(v) => Value::Bigint(*v),
            Compact::Counter(v) => Value::Counter(*v),
            Compact::Double(v) => Value::Double(*v),
            Compact::Float(v) => Value::Float(*v),
            Compact::Timestamp(v) => Value::Timestamp(*v),
            Compact::Date(v) => Value::Date(*v),
            Compact::Time(v) => Value::Time(*v),
            Compact::Boolean(v) => Value::Boolean(*v),
            Compact::Tinyint(v) => Value::Tinyint(*v),
            Compact::Smallint(v) => Value::Smallint(*v),
            Compact::Boxed(v) => return Err(v),
        })
    }

    pub(super) fn into_value(self) -> Value {
        match self {
            Compact::Boxed(v) => *v,
            fixed => fixed.value().into_owned(),
        }
    }
}
