//! Inputs found by the fuzz targets `plan`, `exec`, `exec_ops`, `split` and
//! `lint` (`fuzz/`), replayed through the very checks the targets run: the
//! targets' code in `fuzz/fuzz_targets/common/` is included here as a
//! module, so a test fails exactly when the fuzz target would crash.
//!
//! Each input is a file under `fuzz/regressions/<target>/`, in the target's
//! input format. An `exec_ops` finding is kept twice: `NAME.bin`, the raw
//! input (it decodes to the same operations only while the generator in
//! `fuzz_targets/exec_ops.rs` is unchanged), and `NAME.cql`, the CQL script
//! those operations ran (`-- @advance N` lines move the clock), which the
//! test replays on an empty session through the `exec` target's checks. A
//! test marked `#[ignore = "bug: …"]` records a bug still open: fix it,
//! then remove the `ignore`.

#[path = "../fuzz/fuzz_targets/common/mod.rs"]
#[allow(unused_imports)]
mod common;

fn input(target: &str, name: &str) -> Vec<u8> {
    let path = format!(
        "{}/fuzz/regressions/{target}/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `split`: a statement that starts on a line where an earlier statement
/// ended, and goes on past that line, got column 1 instead of its real
/// column: `compact` had drained the start of its line before `emit`
/// counted the column. The splitter now remembers how many characters of
/// the line it drained.
#[test]
fn split_column_after_compaction() {
    common::split::check(&input("split", "column-after-compaction"));
}

/// Runs a CQL script (an `exec_ops` finding) on an empty session with the
/// `exec` target's checks.
fn run_script(target: &str, name: &str) {
    let script = String::from_utf8(input(target, name)).expect("a CQL script");
    common::exec::run_script(common::exec::empty_session_selector(), &script);
}

/// `split`: a script that ends in a character Rust counts as whitespace but
/// CQL does not (vertical tab, form feed, no-break space, U+3000…) is cut
/// short: the splitter trims the last, unterminated statement (and a shell
/// command's line) with `str::trim_end`, while the lexer's blanks are only
/// `[ \t\r\n]` and those characters are invalid tokens. `"\u{b}"` alone
/// yields an empty statement; `"SELECT 1\u{a0}"` loses the character the
/// parser would have refused. In `Iterator::next` (end of input) and
/// `end_of_line` of src/syntax/script.rs.
#[test]
fn split_trailing_unicode_blank() {
    common::split::check(&input("split", "trailing-unicode-blank"));
}

/// `exec_ops`: a materialized view row outlives its base row when the base
/// row was only UPDATEd (no row marker) with a TTL: after the TTL the base
/// row is gone but the view row stays. `project` in src/exec/views.rs gives
/// a view row of a marker-less base row a liveness with the newest cell's
/// timestamp and `expiry: None`, dropping the cells' expiry; the view is
/// only recomputed when the base partition is written again. Cassandra
/// gives such a view row the TTL of the base cells (of the view key column
/// taken from a regular column, here `n`). Reproduction:
/// `UPDATE kv USING TTL 5 SET n = 4 WHERE k = 0`, 60 s later `kv` is empty
/// and `kv_by_n` still holds `(4, 0, null)`.
#[test]
fn view_row_outlives_ttl_cells() {
    run_script("exec_ops", "view-row-outlives-ttl-cells.cql");
}

/// `exec_ops`: a materialized view dropped the rows whose view partition key
/// (one column) is an empty value: `v = ''` for a text column, or
/// `blobAsInt(0x)` for an int, in a base table keyed by another column.
/// `put` (and `remove`) in src/exec/views.rs gave up when
/// `restrict::partition_position` refuses the key with "Key may not be
/// empty" — a check Cassandra makes on keys a statement names, not on view
/// rows. Cassandra keeps such rows (they show in a full scan of the view,
/// though `WHERE v = ''` is refused): see CASSANDRA-14345 and ScyllaDB
/// issue 9375, where Scylla had to follow Cassandra. Both the view build
/// (`CREATE MATERIALIZED VIEW` over existing rows) and later writes drop
/// them. Views now place rows with `unchecked_partition_position`.
#[test]
fn view_drops_empty_partition_key() {
    run_script("exec_ops", "view-drops-empty-partition-key.cql");
}

/// `exec_ops`: a view keyed by a regular base column (`n`) lost its row when
/// a later INSERT gave the base row a shorter-lived liveness marker, though
/// the base row, kept alive by `n`'s own TTL, still shows in a full scan.
#[test]
fn view_row_follows_base_liveness_ttl() {
    run_script("exec_ops", "view-row-follows-base-liveness-ttl.cql");
}

/// `exec_ops`: a write of a non-frozen collection `USING TIMESTAMP
/// -9223372036854775808` (also an `INSERT … JSON` that sets an omitted
/// collection to null) panicked in debug builds: the collection's deletion
/// is stamped one before the write, and `i64::MIN - 1` overflowed in
/// `write_value` (src/exec/write/mod.rs). Cassandra computes `timestamp - 1`
/// in Java, which wraps to `Long.MAX_VALUE`; the subtraction now wraps the
/// same way.
#[test]
fn collection_overwrite_at_min_timestamp() {
    run_script("exec_ops", "collection-overwrite-at-min-timestamp.cql");
}
