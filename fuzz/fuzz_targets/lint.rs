//! The linter on random files: must not panic, and every finding must
//! point at a real place of its file (1-based line and column, columns in
//! characters, start before end), and render in every output format.
//!
//! Input: text split at NUL bytes. With no NUL, it is one CQL file linted
//! with the default configuration. Otherwise the first part is a
//! `widerow.toml` (used when it reads, else the default configuration) and
//! each further part is a CQL file, linted in order; then the cross-file
//! rules run (`Linter::finish`).

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common/mod.rs"]
mod common;

fuzz_target!(|data: &[u8]| common::lint::check(data));
