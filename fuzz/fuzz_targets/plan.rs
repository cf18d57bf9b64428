//! Plans random statements against a random schema: must never panic.
//!
//! Input: the first byte picks the schema (one of the test corpora's
//! schemas, or an empty catalog: see `common::SCHEMA_SOURCES`); the rest is
//! a script. Schema statements in it are applied to the context, the others
//! planned. Besides "never panic", planning a statement and planning its
//! printed form (`Statement`'s `Display`, which the parser round-trips)
//! must give the same plan or the same error, planning is repeatable, and a
//! schema statement that fails leaves the catalog as it was. The checks
//! are in `common/plan.rs`.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common/mod.rs"]
mod common;

fuzz_target!(|data: &[u8]| common::plan::check(data));
