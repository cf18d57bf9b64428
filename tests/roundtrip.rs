//! Printing any AST and parsing the text gives the AST back.
//!
//! The generators in `support` produce every statement and node kind the
//! grammar can express; this checks `parse(print(ast)) == ast` for them.
//! Spans take no part in equality, so generated trees need none.
//!
//! proptest's default of 256 cases runs in well under a second;
//! `PROPTEST_CASES=100000 cargo test --test roundtrip` searches harder.

mod support;

use proptest::prelude::*;
use widerow::parse_statement;

proptest! {
    #[test]
    fn printed_statements_parse_back_to_themselves(ast in support::statement()) {
        let text = ast.to_string();
        match parse_statement(&text) {
            Ok(parsed) => prop_assert!(
                parsed == ast,
                "printed as: {}\nreads back as: {}\nparsed: {:?}\nexpected: {:?}",
                text,
                parsed,
                parsed,
                ast
            ),
            Err(e) => prop_assert!(false, "printed as: {}\nrefused: {}", text, e.message()),
        }
    }
}
