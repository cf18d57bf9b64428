//! The statement splitter: `split_statements` and `StatementSplitter` over
//! a reader. Must not panic, and:
//!
//! * each statement's text is the input's text at its offset; statements
//!   come in order without overlapping; `line` and `column` are where the
//!   text starts (1-based, columns in characters); only the last statement
//!   may be unterminated, and a terminated one ends with `;`;
//! * what lies between statements is only whitespace, comments and `;`;
//! * reading the script in small chunks gives the same statements as
//!   reading it at once;
//! * without shell commands, the statements are those of a reference
//!   splitter over the lexer's tokens of the whole text (cqlsh's rule: a
//!   statement ends at `;`, a `BEGIN … APPLY BATCH;` is one statement);
//! * a script that is not UTF-8 is refused with the line of its first bad
//!   byte.
//!
//! Input: the first byte holds options (bit 0: cqlsh's shell commands end
//! at the end of their line; bits 1–4: read chunk size); the rest is the
//! script.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common/mod.rs"]
mod common;

fuzz_target!(|data: &[u8]| common::split::check(data));
