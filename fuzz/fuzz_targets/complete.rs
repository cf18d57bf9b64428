//! Fuzzes the REPL's tab completer and highlighter
//! (`widerow::shell::complete`, `widerow::shell::highlight`).
//!
//! Input: byte 0 picks the schema the completer sees (none, a fixed one
//! with names that need quoting, an example script run through a `Shell`,
//! or the schema of a test corpus script), byte 1 the cursor, the rest (as
//! lossy UTF-8) the text typed so far. Checked: the replaced range lies
//! within the line on character boundaries, candidates are non-empty,
//! ordered, unique and match the word they replace, completion depends only
//! on the text before the cursor and is deterministic, and highlighting
//! (whole text, and line by line as the REPL does) keeps the text and
//! colours it as the lexer reads it. The checks are in
//! `common/complete.rs`.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common/mod.rs"]
mod common;

fuzz_target!(|data: &[u8]| common::complete::check(data));
