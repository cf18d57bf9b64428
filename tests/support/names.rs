//! Identifiers: plain, needing quotes, keywords reserved and not, and words
//! the lexer would read as something else.

use proptest::prelude::*;
use widerow::syntax::ast::{FunctionName, Ident, QualifiedName};
use widerow::syntax::keyword::Keyword;

use super::nodes::qualified;

/// Names that look like other tokens, or that the lexer folds into a
/// keyword under another spelling.
const LOOKALIKES: &[&str] = &[
    "true",
    "FALSE",
    "p1d",
    "P1D",
    "PT5M",
    "1h30m",
    "e",
    "e5",
    "0x1f",
    "NaN",
    "-Infinity",
    "columnfamily",
    "columnfamilies",
    "schema",
    "select_masked",
    "a b",
    "x\"y",
    "\"",
    "it's",
    "--",
    "/*",
    "$$",
    "ks.t",
    "naïve",
];

/// Unreserved words that are also syntax somewhere: modifiers, clause
/// words, special forms before `(`, type constructors. Drawn more often
/// than the other keywords because they are where names and syntax meet.
const DOUBLE_DUTY: &[&str] = &[
    "key",
    "keys",
    "values",
    "ttl",
    "writetime",
    "maxwritetime",
    "cast",
    "count",
    "json",
    "distinct",
    "as",
    "per",
    "partition",
    "exists",
    "contains",
    "like",
    "group",
    "filtering",
    "type",
    "static",
    "frozen",
    "list",
    "map",
    "tuple",
    "vector",
    "timestamp",
    "custom",
    "clustering",
    "compact",
    "storage",
    "default",
    "unset",
    "options",
];

/// Every keyword, reserved or not, spelt in lower case.
fn keyword() -> impl Strategy<Value = String> {
    prop::sample::select(Keyword::ALL).prop_map(|k| k.as_str().to_ascii_lowercase())
}

/// A name after normalisation: anything non-empty. (An empty quoted name
/// is only meaningful for legacy super-column references, not generated.)
pub fn name() -> BoxedStrategy<String> {
    prop_oneof![
        6 => "[a-z][a-z0-9_]{0,5}",
        2 => keyword(),
        2 => prop::sample::select(DOUBLE_DUTY).prop_map(str::to_string),
        1 => "[A-Za-z][A-Za-z0-9_ ]{0,5}",
        1 => "[a-z0-9\"' .:;$(-]{1,5}",
        1 => prop::collection::vec(any::<char>(), 1..4).prop_map(String::from_iter),
        1 => prop::sample::select(LOOKALIKES).prop_map(str::to_string),
    ]
    .boxed()
}

/// An identifier.
pub fn ident() -> BoxedStrategy<Ident> {
    name().prop_map(Ident::new).boxed()
}

/// `ks.name` or `name`.
pub fn qualified_name() -> BoxedStrategy<QualifiedName> {
    (prop::option::of(ident()), ident())
        .prop_map(|(keyspace, name)| qualified(keyspace, name))
        .boxed()
}

/// Function names, including the reserved `token` and unreserved keywords
/// that start special forms when followed by `(` (`cast`, `writetime`,
/// `ttl`, `key` after CONTAINS, `count`).
pub fn function_name() -> BoxedStrategy<FunctionName> {
    let special = prop::sample::select(vec![
        "token",
        "count",
        "cast",
        "writetime",
        "maxwritetime",
        "ttl",
        "key",
    ]);
    let name = prop_oneof![
        3 => ident(),
        1 => special.prop_map(Ident::new),
    ];
    (prop::option::of(ident()), name)
        .prop_map(|(keyspace, name)| FunctionName { keyspace, name })
        .boxed()
}

/// One of the unreserved keywords: the only bare words a property value
/// may be (any other word must be a constant).
pub fn unreserved_keyword() -> BoxedStrategy<Ident> {
    let unreserved: Vec<Keyword> = Keyword::ALL
        .iter()
        .copied()
        .filter(|k| !k.is_reserved())
        .collect();
    prop::sample::select(unreserved)
        .prop_map(|k| Ident::new(k.as_str().to_ascii_lowercase()))
        .boxed()
}
