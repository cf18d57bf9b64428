//! Runs random scripts against one session with a fixed clock, then checks
//! that the session still answers a full scan of every table consistently
//! (see `common::check_full_scans`).
//!
//! Input: the first byte picks the starting schema (one of the test
//! corpora's schemas, or none: see `common::SCHEMA_SOURCES`); the rest is a
//! CQL script, split as cqlsh splits it. `-- @advance N` comment lines move
//! the clock N seconds forward, as in the conformance corpus. Errors are
//! ignored, but a statement that fails, and any SELECT, must leave schema
//! and data exactly as they were. The run is in `common/exec.rs`.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common/mod.rs"]
mod common;

fuzz_target!(|data: &[u8]| common::exec::check(data));
