//! Values as COPY TO writes them: cqlsh's `formatting.py` called the way `ExportProcess`
//! calls it — no colour, text unquoted at the top level, nulls as the NULL option,
//! DATETIMEFORMAT cut to milliseconds, FLOATPRECISION for floats and for everything
//! nested, DOUBLEPRECISION (12 by default) for a top-level double, DECIMALSEP,
//! THOUSANDSSEP and BOOLSTYLE applied at every level.

use std::cmp::Ordering;

use crate::syntax::ast::NativeType;
use crate::types::{DataType, Value};

use super::timefmt::{civil, round_microseconds, strftime};

/// The options that change how values are written.
#[derive(Debug, Clone)]
pub(super) struct ExportFormat {
    /// NULL.
    pub nullval: String,
    /// DATETIMEFORMAT.
    pub datetime_format: String,
    /// FLOATPRECISION.
    pub float_precision: i64,
    /// DOUBLEPRECISION.
    pub double_precision: i64,
    /// DECIMALSEP.
    pub decimal_sep: String,
    /// THOUSANDSSEP.
    pub thousands_sep: String,
    /// BOOLSTYLE: the texts for true and false.
    pub bool_styles: (String, String),
}

impl ExportFormat {
    /// One CSV field: the cell of a column of type `ty`.
    pub(super) fn cell(&self, value: &Value, ty: &DataType) -> String {
        match value {
            Value::Null | Value::Empty => default_text(&self.nullval),
            _ => {
                let precision = match ty {
                    DataType::Native(NativeType::Double) => self.double_precision,
                    _ => self.float_precision,
                };
                self.value(value, ty, precision, false)
            }
        }
    }

    fn value(&self, value: &Value, ty: &DataType, precision: i64, quote: bool) -> String {
        let quoted = |text: String| if quote { format!("'{text}'") } else { text };
        match value {
            Value::Null => "None".into(),
            Value::Ascii(_) | Value::Text(_) => {
                let shown = value.cqlsh_display(ty);
                if quote {
                    format!("'{}'", shown.replace('\'', "''"))
                } else {
                    shown
                }
            }
            Value::Tinyint(_)
            | Value::Smallint(_)
            | Value::Int(_)
            | Value::Bigint(_)
            | Value::Counter(_)
            | Value::Varint(_) => self.integer(&value.cqlsh_display(ty)),
            Value::Float(v) => self.floating(f64::from(*v), precision),
            Value::Double(v) => self.floating(*v, precision),
            Value::Decimal(_) => self.decimal(&value.cqlsh_display(ty), precision),
            Value::Boolean(b) => if *b {
                &self.bool_styles.0
            } else {
                &self.bool_styles.1
            }
            .clone(),
            Value::Timestamp(ms) => quoted(self.timestamp(*ms)),
            Value::Inet(_) => quoted(value.cqlsh_display(ty)),
            Value::List(items) | Value::Vector(items) => {
                let element = element_type(ty);
                self.sequence(items.iter(), element, precision, ('[', ']'))
            }
            Value::Set(items) => {
                let mut sorted: Vec<&Value> = items.iter().collect();
                sorted.sort_by(|a, b| python_cmp(a, b));
                self.sequence(sorted.into_iter(), element_type(ty), precision, ('{', '}'))
            }
            Value::Map(entries) => self.map(entries, ty, precision),
            Value::Tuple(fields) => self.tuple(fields, ty, precision),
            Value::Udt(fields) => self.udt(fields, ty, precision),
            _ => value.cqlsh_display(ty),
        }
    }

    fn sequence<'a>(
        &self,
        items: impl Iterator<Item = &'a Value>,
        element: Option<&DataType>,
        precision: i64,
        (open, close): (char, char),
    ) -> String {
        let fallback = DataType::Native(NativeType::Blob);
        let parts: Vec<String> = items
            .map(|v| self.value(v, element.unwrap_or(&fallback), precision, true))
            .collect();
        format!("{open}{}{close}", parts.join(", "))
    }

    fn map(&self, entries: &[(Value, Value)], ty: &DataType, precision: i64) -> String {
        let DataType::Map { key, value, .. } = ty else {
            return String::new();
        };
        let mut sorted: Vec<&(Value, Value)> = entries.iter().collect();
        sorted.sort_by(|(a, _), (b, _)| python_cmp(a, b));
        let parts: Vec<String> = sorted
            .iter()
            .map(|(k, v)| {
                let k = self.value(k, key, precision, true);
                format!("{k}: {}", self.value(v, value, precision, true))
            })
            .collect();
        format!("{{{}}}", parts.join(", "))
    }

    fn tuple(&self, fields: &[Option<Value>], ty: &DataType, precision: i64) -> String {
        let types: &[DataType] = match ty {
            DataType::Tuple(items) => items,
            _ => &[],
        };
        let arity = fields.len().max(types.len());
        let parts: Vec<String> = (0..arity)
            .map(|i| match (fields.get(i), types.get(i)) {
                (Some(Some(v)), Some(t)) => self.value(v, t, precision, true),
                _ => "None".to_string(),
            })
            .collect();
        format!("({})", parts.join(", "))
    }

    fn udt(&self, fields: &[Option<Value>], ty: &DataType, precision: i64) -> String {
        let DataType::Udt { fields: types, .. } = ty else {
            return String::new();
        };
        let parts: Vec<String> = types
            .iter()
            .enumerate()
            .map(|(i, (name, field_type))| {
                let name =
                    Value::Text(name.clone()).cqlsh_display(&DataType::Native(NativeType::Text));
                let shown = match fields.get(i) {
                    Some(Some(v)) => self.value(v, field_type, precision, true),
                    _ => self.nullval.clone(),
                };
                format!("{name}: {shown}")
            })
            .collect();
        format!("{{{}}}", parts.join(", "))
    }

    /// `format_integer_type`: `str(v)`, or Python's `"{:,.0f}"` (through a float) with
    /// THOUSANDSSEP.
    fn integer(&self, digits: &str) -> String {
        if self.thousands_sep.is_empty() {
            return digits.to_string();
        }
        let value: f64 = digits.parse().unwrap_or(0.0);
        group_thousands(value, &self.thousands_sep)
    }

    /// `format_value_decimal`: `str(Decimal)`, unless a separator option asks for the
    /// floating-point layout.
    fn decimal(&self, shown: &str, precision: i64) -> String {
        if self.thousands_sep.is_empty() && (self.decimal_sep.is_empty() || self.decimal_sep == ".")
        {
            return shown.to_string();
        }
        self.floating(shown.parse().unwrap_or(f64::NAN), precision)
    }

    /// `format_floating_point_type`.
    fn floating(&self, v: f64, precision: i64) -> String {
        if v.is_nan() {
            return "NaN".into();
        }
        if v.is_infinite() {
            return if v > 0.0 { "Infinity" } else { "-Infinity" }.into();
        }
        if !self.thousands_sep.is_empty() {
            let mut out = group_thousands(v.trunc(), &self.thousands_sep);
            let fraction = format!("{:.*}", precision.max(0) as usize, v.fract().abs());
            let digits = fraction.get(2..).unwrap_or("").trim_end_matches('0');
            if !digits.is_empty() {
                out.push_str(if self.decimal_sep.is_empty() {
                    "."
                } else {
                    &self.decimal_sep
                });
                out.push_str(digits);
            }
            return out;
        }
        let mut precision = precision;
        if v.abs() > f64::EPSILON {
            let exponent = v.abs().log10().trunc() as i64;
            if (-4..precision).contains(&exponent) {
                precision += exponent + 1;
            }
        }
        let text = python_g(v, precision);
        if self.decimal_sep.is_empty() {
            text
        } else {
            text.replace('.', &self.decimal_sep)
        }
    }

    fn timestamp(&self, millis: i64) -> String {
        match civil(millis) {
            Some(t) => round_microseconds(&strftime(&self.datetime_format, &t)),
            None => millis.to_string(),
        }
    }
}

fn element_type(ty: &DataType) -> Option<&DataType> {
    match ty {
        DataType::List { element, .. }
        | DataType::Set { element, .. }
        | DataType::Vector { element, .. } => Some(element),
        _ => None,
    }
}

/// `format_value_default` of the NULL text: backslashes doubled, control characters and
/// U+007F–U+00FF as Python's `repr` writes them.
fn default_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{ff}' => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out
}

/// Python's `"{:,.0f}".format(v)` with `,` replaced by `sep`.
fn group_thousands(v: f64, sep: &str) -> String {
    let text = format!("{v:.0}");
    let (sign, digits) = match text.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", text.as_str()),
    };
    let mut out = String::from(sign);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push_str(sep);
        }
        out.push(d);
    }
    out
}

/// Python's `'%.*g' % (precision, v)` for a finite `v`.
fn python_g(v: f64, precision: i64) -> String {
    let p = precision.max(1) as usize;
    let scientific = format!("{:.*e}", p - 1, v);
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i64 = exponent.parse().unwrap_or(0);
    if exponent < -4 || exponent >= p as i64 {
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", strip_zeros(mantissa), exponent.abs())
    } else {
        let decimals = (p as i64 - 1 - exponent) as usize;
        strip_zeros(&format!("{v:.decimals$}")).to_string()
    }
}

fn strip_zeros(text: &str) -> &str {
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        text
    }
}

/// The order the Python driver gives set elements and map keys: Cassandra's, except that
/// UUIDs compare as 128-bit integers and inet addresses as text.
fn python_cmp(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Uuid(x) | Value::Timeuuid(x), Value::Uuid(y) | Value::Timeuuid(y)) => x.cmp(y),
        (Value::Inet(x), Value::Inet(y)) => x.to_string().cmp(&y.to_string()),
        (Value::Tuple(x), Value::Tuple(y)) | (Value::Udt(x), Value::Udt(y)) => x
            .iter()
            .zip(y)
            .map(|(p, q)| match (p, q) {
                (Some(p), Some(q)) => python_cmp(p, q),
                _ => p.is_some().cmp(&q.is_some()),
            })
            .find(|o| o.is_ne())
            .unwrap_or_else(|| x.len().cmp(&y.len())),
        (Value::List(x) | Value::Set(x), Value::List(y) | Value::Set(y)) => x
            .iter()
            .zip(y)
            .map(|(p, q)| python_cmp(p, q))
            .find(|o| o.is_ne())
            .unwrap_or_else(|| x.len().cmp(&y.len())),
        _ => a.cmp(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defaults() -> ExportFormat {
        ExportFormat {
            nullval: String::new(),
            datetime_format: "%Y-%m-%d %H:%M:%S.%f%z".into(),
            float_precision: 5,
            double_precision: 12,
            decimal_sep: ".".into(),
            thousands_sep: String::new(),
            bool_styles: ("True".into(), "False".into()),
        }
    }

    fn native(n: NativeType) -> DataType {
        DataType::Native(n)
    }

    #[test]
    fn formats_as_cqlsh_copy_to_does() {
        // Expected texts produced by cqlshlib.formatting under Python 3.11.
        let f = defaults();
        let double = native(NativeType::Double);
        assert_eq!(
            f.cell(&Value::Double(1.0 / 3.0), &double),
            "0.3333333333333"
        );
        assert_eq!(
            f.cell(&Value::Double(123_456_789.123), &double),
            "123456789.122999995947"
        );
        assert_eq!(f.cell(&Value::Double(-0.0), &double), "-0");
        assert_eq!(f.cell(&Value::Double(1e20), &double), "1e+20");
        assert_eq!(
            f.cell(&Value::Float(1.0 / 3.0), &native(NativeType::Float)),
            "0.333333"
        );
        assert_eq!(
            f.cell(
                &Value::Timestamp(1_748_764_800_123),
                &native(NativeType::Timestamp)
            ),
            "2025-06-01 08:00:00.123+0000"
        );
        assert_eq!(
            f.cell(&Value::Text("a\nb".into()), &native(NativeType::Text)),
            "a\\nb"
        );
        let list = DataType::List {
            element: Box::new(native(NativeType::Text)),
            frozen: false,
        };
        let items = Value::List(vec![Value::Text("it's".into()), Value::Text("b,c".into())]);
        assert_eq!(f.cell(&items, &list), "['it''s', 'b,c']");
    }

    #[test]
    fn separators_and_styles_apply() {
        let f = ExportFormat {
            decimal_sep: ",".into(),
            thousands_sep: ".".into(),
            bool_styles: ("yes".into(), "no".into()),
            ..defaults()
        };
        let double = native(NativeType::Double);
        assert_eq!(
            f.cell(&Value::Double(1_234_567.891), &double),
            "1.234.567,891000000061"
        );
        assert_eq!(
            f.cell(&Value::Boolean(true), &native(NativeType::Boolean)),
            "yes"
        );
        let varint = Value::varint(12_345_678_901_234_567_890u64);
        assert_eq!(
            f.cell(&varint, &native(NativeType::Varint)),
            "12.345.678.901.234.567.168"
        );
        let comma = ExportFormat {
            decimal_sep: ",".into(),
            ..defaults()
        };
        let decimal = Value::decimal(12_345, 1);
        assert_eq!(comma.cell(&decimal, &native(NativeType::Decimal)), "1234,5");
    }
}
