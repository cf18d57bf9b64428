//! CSV fields turned into values as COPY FROM's `ImportConversion` does it: a top-level
//! field goes to its type's converter as is; collections, tuples, UDTs and vectors are
//! cut at top-level commas by cqlsh's `split` (quotes and brackets respected), and each
//! part is stripped and unquoted (`'it''s'` → `it's`) before its own converter sees it.
//!
//! Failures come in two kinds, as in cqlsh: a converter's error (Python's `ValueError`
//! and friends, reported as `ParseError - Failed to parse …`), and an error the driver
//! would only raise when binding the value (a number out of its type's range, a
//! non-ASCII `ascii`), which cqlsh reports differently.

use crate::types::{DataType, Value};

use super::scalar;
use super::strptime::TimeFormat;

/// An error the driver raises while serializing a converted value: Python's exception
/// class and message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct BindError {
    /// `error` (struct), `OverflowError`, `UnicodeEncodeError`, `ValueError`.
    pub class: &'static str,
    /// The exception's text.
    pub message: String,
}

/// The options that change how fields are read.
#[derive(Debug, Clone)]
pub(super) struct Converter {
    /// NULL.
    pub nullval: String,
    /// BOOLSTYLE's true text, lower-cased: anything else reads as false.
    pub true_style: String,
    /// DECIMALSEP.
    pub decimal_sep: String,
    /// THOUSANDSSEP.
    pub thousands_sep: String,
    /// DATETIMEFORMAT.
    pub datetime_format: TimeFormat,
}

/// Where a conversion records the first bind error it meets (conversion goes on: a
/// later converter error still wins, as in cqlsh).
pub(super) type BindSlot = Option<BindError>;

impl Converter {
    /// A top-level field of a column of type `ty` (already known not to be NULL).
    pub(super) fn field(
        &self,
        ty: &DataType,
        text: &str,
        bind: &mut BindSlot,
    ) -> Result<Value, String> {
        match ty {
            DataType::Native(n) => scalar::native(self, *n, text, bind),
            DataType::List { element, .. } => {
                let items = self.elements(element, text, bind)?;
                Ok(Value::List(items))
            }
            DataType::Set { element, .. } => {
                let items = self.elements(element, text, bind)?;
                Ok(Value::set_from(items))
            }
            DataType::Map { key, value, .. } => self.map(key, value, text, bind),
            DataType::Tuple(types) => {
                let parts = split(text, ',')?;
                let mut values = Vec::with_capacity(parts.len());
                for (t, part) in types.iter().zip(&parts) {
                    values.push(Some(self.mandatory(t, part, bind)?));
                }
                Ok(Value::Tuple(values))
            }
            DataType::Udt { fields, .. } => self.udt(fields, text, bind),
            DataType::Vector { element, dimension } => self.vector(element, *dimension, text, bind),
            DataType::Custom(_) => Ok(Value::Blob(text.as_bytes().to_vec())),
        }
    }

    fn elements(
        &self,
        element: &DataType,
        text: &str,
        bind: &mut BindSlot,
    ) -> Result<Vec<Value>, String> {
        split(text, ',')?
            .iter()
            .map(|part| self.mandatory(element, part, bind))
            .collect()
    }

    /// `convert_mandatory`: a collection element, which may not be NULL (empty text is
    /// allowed for `text`, whose driver type is `VarcharType`).
    fn mandatory(&self, ty: &DataType, raw: &str, bind: &mut BindSlot) -> Result<Value, String> {
        let text = unprotect(raw);
        let is_text = matches!(
            ty,
            DataType::Native(
                crate::syntax::ast::NativeType::Text | crate::syntax::ast::NativeType::Varchar
            )
        );
        if text == self.nullval && !is_text {
            return Err("Empty values are not allowed".into());
        }
        self.field(ty, &text, bind)
    }

    /// `convert`: a map value or UDT field, which may be NULL.
    fn optional(
        &self,
        ty: &DataType,
        raw: &str,
        bind: &mut BindSlot,
    ) -> Result<Option<Value>, String> {
        let text = unprotect(raw);
        if text == self.nullval {
            return Ok(None);
        }
        self.field(ty, &text, bind).map(Some)
    }

    fn map(
        &self,
        key: &DataType,
        value: &DataType,
        text: &str,
        bind: &mut BindSlot,
    ) -> Result<Value, String> {
        let mut entries = Vec::new();
        for entry in split(text, ',')? {
            let pair = split(&format!("{{{entry}}}"), ':')?;
            let k = self.mandatory(key, pair.first().map_or("", String::as_str), bind)?;
            let v = self.optional(value, pair.get(1).ok_or("list index out of range")?, bind)?;
            let v = v.ok_or("null is not supported inside collections")?;
            entries.push((k, v));
        }
        Ok(Value::map_from(entries))
    }

    /// Fields in any order, by name; missing ones are null.
    fn udt(
        &self,
        fields: &[(String, DataType)],
        text: &str,
        bind: &mut BindSlot,
    ) -> Result<Value, String> {
        let mut given: Vec<(String, String)> = Vec::new();
        for entry in split(text, ',')? {
            let pair = split(&format!("{{{entry}}}"), ':')?;
            let value = pair.get(1).ok_or("list index out of range")?.clone();
            given.push((unprotect(pair.first().map_or("", String::as_str)), value));
        }
        let mut values = Vec::with_capacity(fields.len());
        for (name, ty) in fields {
            let value = match given.iter().rev().find(|(n, _)| n == name) {
                Some((_, raw)) => self.optional(ty, raw, bind)?,
                None => None,
            };
            values.push(value);
        }
        Ok(Value::Udt(values))
    }

    fn vector(
        &self,
        element: &DataType,
        dimension: u32,
        text: &str,
        bind: &mut BindSlot,
    ) -> Result<Value, String> {
        let parts = split(text, ',')?;
        if parts.len() != dimension as usize {
            return Err(format!(
                "The length of given vector value '{}' is not equal to the vector size from the type definition '{dimension}'",
                parts.len()
            ));
        }
        let items = parts
            .iter()
            .map(|part| self.mandatory(element, part, bind))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Value::Vector(items))
    }
}

/// cqlsh's `CqlRuleSet.dequote_value`: surrounding whitespace removed, then one pair of
/// single quotes with `''` inside undoubled.
pub(super) fn unprotect(text: &str) -> String {
    let trimmed = text.trim();
    if trimmed.len() >= 2 && trimmed.starts_with('\'') && trimmed.ends_with('\'') {
        trimmed[1..trimmed.len() - 1].replace("''", "'")
    } else if trimmed == "'" {
        String::new()
    } else {
        trimmed.to_string()
    }
}

/// cqlsh's `split`: the parts of `(…)`, `[…]` or `{…}` separated by `sep` at the first
/// nesting level, ignoring separators inside single quotes and deeper brackets.
fn split(text: &str, sep: char) -> Result<Vec<String>, String> {
    let chars: Vec<char> = text.chars().collect();
    let matching = match (chars.first(), chars.last()) {
        (Some('{'), Some('}')) | (Some('['), Some(']')) | (Some('('), Some(')')) => {
            chars.len() >= 2
        }
        _ => false,
    };
    if !matching {
        return Err(format!(
            "Invalid composite string, it should start and end with matching parentheses: {text}"
        ));
    }
    let mut parts = Vec::new();
    let (mut last, mut level, mut quote) = (1, 0i32, false);
    for (i, &c) in chars.iter().enumerate() {
        if c == '\'' {
            quote = !quote;
        } else if !quote {
            match c {
                '{' | '[' | '(' => level += 1,
                '}' | ']' | ')' => level -= 1,
                c if c == sep && level == 1 => {
                    parts.push(chars[last..i].iter().collect());
                    last = i + 1;
                }
                _ => {}
            }
        }
    }
    if last < chars.len() - 1 {
        parts.push(chars[last..chars.len() - 1].iter().collect());
    }
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::ast::NativeType;

    fn converter() -> Converter {
        Converter {
            nullval: String::new(),
            true_style: "true".into(),
            decimal_sep: ".".into(),
            thousands_sep: String::new(),
            datetime_format: TimeFormat::new("%Y-%m-%d %H:%M:%S.%f%z"),
        }
    }

    #[test]
    fn splits_like_cqlsh() {
        assert_eq!(
            split("['a, b', 'c']", ','),
            Ok(vec!["'a, b'".into(), " 'c'".into()])
        );
        assert_eq!(split("{}", ','), Ok(vec![]));
        assert_eq!(split("{[1, 2]: 3}", ','), Ok(vec!["[1, 2]: 3".into()]));
        assert!(split("1, 2", ',').is_err());
        assert_eq!(unprotect(" 'it''s' "), "it's");
    }

    #[test]
    fn collections_read_back_cqlsh_s_output() {
        let c = converter();
        let mut bind = None;
        let text = DataType::Native(NativeType::Text);
        let int = DataType::Native(NativeType::Int);
        let map = DataType::Map {
            key: Box::new(text.clone()),
            value: Box::new(int.clone()),
            frozen: false,
        };
        let value = c.field(&map, "{'b': 2, 'a': 1}", &mut bind);
        assert_eq!(
            value,
            Ok(Value::Map(vec![
                (Value::Text("a".into()), Value::Int(1)),
                (Value::Text("b".into()), Value::Int(2))
            ]))
        );
        let list = DataType::List {
            element: Box::new(int),
            frozen: false,
        };
        assert_eq!(
            c.field(&list, "[1, x]", &mut bind),
            Err("invalid literal for int() with base 10: 'x'".into())
        );
        assert_eq!(
            c.field(&list, "[1, ]", &mut bind),
            Err("Empty values are not allowed".into())
        );
    }
}
