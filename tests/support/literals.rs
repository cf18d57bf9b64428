//! Constants in the canonical text the parser produces: numbers keep their
//! sign and spelling, uuids and blobs are lower case, float specials are
//! spelt `NaN`, `-NaN`, `Infinity`, `-Infinity`.

use proptest::prelude::*;
use widerow::syntax::ast::Literal;

/// String contents: quotes, newlines, comment and `$$` look-alikes, and
/// arbitrary unicode.
fn string_text() -> BoxedStrategy<String> {
    prop_oneof![
        "[a-z ']{0,6}",
        "[\n\t'\"$/*-]{0,6}",
        prop::collection::vec(any::<char>(), 0..6).prop_map(String::from_iter),
    ]
    .boxed()
}

/// Integers: small, signed, with leading zeros, and larger than any
/// machine integer.
fn integer_text() -> impl Strategy<Value = String> {
    prop_oneof!["-?[0-9]{1,3}", "-?[1-9][0-9]{19,30}"]
}

/// Floats: fractions, a bare trailing dot, exponents in both cases and
/// with either sign, and the specials.
fn float_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "-?[0-9]{1,3}\\.[0-9]{1,3}",
        "-?[0-9]{1,3}\\.",
        "-?[0-9]{1,3}(\\.[0-9]{0,2})?[eE][+-]?[0-9]{1,3}",
        prop::sample::select(vec!["NaN", "-NaN", "Infinity", "-Infinity"]).prop_map(str::to_string),
    ]
}

/// Durations in all three forms: compact (`1h30m`, `-3w`, `2MO`, `5µs`),
/// ISO 8601 (`P1DT2H`, `PT5M`, `P2W`) and the ISO alternative
/// (`P0001-02-03T04:05:06`).
fn duration_text() -> impl Strategy<Value = String> {
    let compact = "-?([0-9]{1,3}(y|Y|mo|MO|w|d|h|m|s|ms|us|µs|ns|NS)){1,3}";
    let iso_parts = (
        "-?",
        "([0-9]{1,2}Y)?([0-9]{1,2}M)?([0-9]{1,2}D)?",
        prop::option::of("([0-9]{1,2}H)?([0-9]{1,2}M)?([0-9]{1,2}S)?"),
    )
        .prop_filter_map("an ISO duration needs an element", |(sign, date, time)| {
            let time = time.filter(|t| !t.is_empty());
            if date.is_empty() && time.is_none() {
                return None;
            }
            let time = time.map(|t| format!("T{t}")).unwrap_or_default();
            Some(format!("{sign}P{date}{time}"))
        });
    prop_oneof![
        3 => compact.prop_map(String::from),
        2 => iso_parts,
        1 => "-?P[0-9]{1,3}W",
        1 => "-?P[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}",
    ]
}

/// A constant: anything but `NULL`.
pub fn constant() -> BoxedStrategy<Literal> {
    prop_oneof![
        string_text().prop_map(Literal::String),
        integer_text().prop_map(Literal::Integer),
        float_text().prop_map(Literal::Float),
        any::<bool>().prop_map(Literal::Boolean),
        duration_text().prop_map(Literal::Duration),
        "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}".prop_map(Literal::Uuid),
        "[0-9a-f]{0,6}".prop_map(Literal::Hex),
    ]
    .boxed()
}

/// A constant or `NULL`.
pub fn literal() -> BoxedStrategy<Literal> {
    prop_oneof![8 => constant(), 1 => Just(Literal::Null)].boxed()
}

/// An integer constant, as LIMIT, TTL and TIMESTAMP take.
pub fn integer() -> BoxedStrategy<Literal> {
    integer_text().prop_map(Literal::Integer).boxed()
}

/// A string constant.
pub fn string() -> BoxedStrategy<String> {
    string_text()
}

/// Whether the literal is a number without a sign: the parser folds a
/// minus written before one into the literal, so `Negate` never wraps it.
pub fn is_unsigned_number(literal: &Literal) -> bool {
    match literal {
        Literal::Integer(text) | Literal::Float(text) => !text.starts_with('-'),
        _ => false,
    }
}
