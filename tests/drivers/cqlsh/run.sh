#!/usr/bin/env bash
# The cqlsh suite of widerow serve: script.cql with -f, then two -e runs.
# Usage: run.sh CQLSH OUTDIR   (target from CQL_HOST, CQL_PORT, CQL_PROTOCOL)
# cqlsh names an error by the line after the statement's last line
# (SELECT at line 36 -> "script.cql:37:"), as it does on a real node.
# Leaves in OUTDIR: script.cql (as run), script.out / script.err (raw) and
# script.normal.out (keyspace name put back to drv_cqlsh_KS, version banner
# dropped), e.out; exits non-zero with a message on any failed check.
set -uo pipefail
CQLSH="$1"
OUT="$2"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
HOST="${CQL_HOST:-127.0.0.1}"
PORT="${CQL_PORT:-9042}"
KS="drv_cqlsh_$$_$(date +%s%N | tail -c 9)"
mkdir -p "$OUT"
# cqlsh prints timestamps in the client's zone: pin it.
export TZ=UTC
args=("$HOST" "$PORT" --no-color --request-timeout=30 --connect-timeout=10)
[[ -n "${CQL_PROTOCOL:-}" ]] && args+=(--protocol-version="$CQL_PROTOCOL")

fails=0
fail() { echo "FAIL cqlsh: $*"; fails=$((fails + 1)); }
ok() { echo "ok   cqlsh: $*"; }
drop() { "$CQLSH" "${args[@]}" -e "DROP KEYSPACE IF EXISTS $KS" >/dev/null 2>&1; }
trap drop EXIT

sed "s/drv_cqlsh_KS/$KS/g" "$HERE/script.cql" >"$OUT/script.cql"
(cd "$OUT" && "$CQLSH" "${args[@]}" -f script.cql >script.out 2>script.err)
rc=$?
sed -e "s/$KS/drv_cqlsh_KS/g" -e '/^WARNING: cqlsh was built against/d' \
    "$OUT/script.out" >"$OUT/script.normal.out"
sed -e "s/$KS/drv_cqlsh_KS/g" "$OUT/script.err" >"$OUT/script.normal.err"

# one error in the script: exit code 2, the error on stderr, all else ran
[[ $rc == 2 ]] || fail "-f exit code $rc, expected 2 (one statement fails)"
expect_out() {
    if grep -qF -- "$1" "$OUT/script.normal.out"; then ok "-f output has: $1"; else fail "-f output lacks: $1"; fi
}
expect_out ' id | email           | name         | tags'
expect_out '  1 | ada@example.org | Ada Lovelace | {'"'"'math'"'"', '"'"'poetry'"'"'}'
expect_out '  2 | Grace Hopper | grace@navy.mil'
expect_out '  3 |        Zoë ✓ |           null'
expect_out '       1 | 2024-01-03 09:15:00.000000+0000 |   null | logout'
expect_out '       1 | 2024-01-01 10:00:00.000000+0000 |      0 |  login'
expect_out '    buy |  12.50'
expect_out '      True'
expect_out '     False |  4 |  null | after the error | null'
expect_out '  4 | after the error'
expect_out 'CREATE TABLE drv_cqlsh_KS.users ('
expect_out '    id int PRIMARY KEY,'
expect_out '    tags set<text>'
expect_out '(3 rows)'
expect_out '(2 rows)'
want_err='script.cql:37:InvalidRequest: Error from server: code=2200 [Invalid query] message="table no_such_table does not exist"'
if grep -qF -- "$want_err" "$OUT/script.normal.err"; then ok "-f error on stderr"
else fail "stderr lacks: $want_err; it has: $(cat "$OUT/script.normal.err")"; fi
n=$(grep -c 'InvalidRequest\|SyntaxException\|Error' "$OUT/script.normal.err")
[[ $n == 1 ]] || fail "$n errors on stderr, expected 1"

# The same script through `widerow -f` (widerow's own engine, no server):
# the same rows, DESCRIBE text and error messages as cqlsh printed from the
# target. Only the error's FILE:LINE differs, as docs/divergences.md says:
# cqlsh names the line after the statement, widerow its first line.
WIDEROW="${WIDEROW_BIN:-$HERE/../../../target/debug/widerow}"
if [[ ! -x "$WIDEROW" ]]; then
    fail "no widerow binary at $WIDEROW to compare with (cargo build, or set WIDEROW_BIN)"
else
    (cd "$OUT" && "$WIDEROW" --no-color -f script.cql >widerow.out 2>widerow.err)
    wrc=$?
    sed -i "s/$KS/drv_cqlsh_KS/g" "$OUT/widerow.out" "$OUT/widerow.err"
    [[ $wrc == "$rc" ]] || fail "widerow -f exit code $wrc, cqlsh's $rc"
    if diff -u "$OUT/script.normal.out" "$OUT/widerow.out" >"$OUT/widerow.diff"; then
        ok "-f output identical to widerow -f's"
    else
        fail "-f output differs from widerow -f's: $(head -40 "$OUT/widerow.diff")"
    fi
    line_free() { sed -E 's/^script\.cql:[0-9]+:/script.cql:N:/' "$1"; }
    if diff <(line_free "$OUT/script.normal.err") <(line_free "$OUT/widerow.err") >/dev/null; then
        ok "-f errors identical to widerow -f's (but for the line)"
    else
        fail "-f errors differ from widerow -f's: $(cat "$OUT/widerow.err")"
    fi
fi

# -e, with and without -k
"$CQLSH" "${args[@]}" -k "$KS" -e "SELECT id, name FROM users WHERE id = 2; SELECT count(*) FROM users" >"$OUT/e.out" 2>&1
rc=$?
sed -i -e "s/$KS/drv_cqlsh_KS/g" -e '/^WARNING: cqlsh was built against/d' "$OUT/e.out"
[[ $rc == 0 ]] || fail "-e exit code $rc: $(cat "$OUT/e.out")"
grep -qF '  2 | Grace Hopper' "$OUT/e.out" && grep -qF '     4' "$OUT/e.out" && ok "-e output" \
    || fail "-e output: $(cat "$OUT/e.out")"
"$CQLSH" "${args[@]}" -e "SELECT nope FROM $KS.users" >"$OUT/e-error.out" 2>&1
rc=$?
[[ $rc == 2 ]] && grep -q 'InvalidRequest' "$OUT/e-error.out" && ok "-e error exits 2" \
    || fail "-e error: exit $rc, output $(cat "$OUT/e-error.out")"

# COPY TO and FROM: cqlsh's worker processes read the token ranges from the
# replicas that own them (on widerow serve, the other nodes' addresses) and
# write back through their own connections.
copy_rows=60
{
    echo "CREATE TABLE $KS.copied (k int PRIMARY KEY, v text, l list<int>, m map<text, int>);"
    echo "CREATE TABLE $KS.restored (k int PRIMARY KEY, v text, l list<int>, m map<text, int>);"
    for k in $(seq 1 $copy_rows); do
        echo "INSERT INTO $KS.copied (k, v, l, m) VALUES ($k, 'v, \"$k\"', [$k, 0], {'k': $k});"
    done
} >"$OUT/copy-setup.cql"
"$CQLSH" "${args[@]}" -f "$OUT/copy-setup.cql" >"$OUT/copy-setup.out" 2>&1 \
    || fail "COPY setup: $(cat "$OUT/copy-setup.out")"
"$CQLSH" "${args[@]}" -e "COPY $KS.copied TO '$OUT/copied.csv' WITH HEADER = true" >"$OUT/copy-to.out" 2>&1
rc=$?
if [[ $rc == 0 ]] && grep -qF "$copy_rows rows exported" "$OUT/copy-to.out" \
    && [[ $(tail -n +2 "$OUT/copied.csv" | wc -l) == "$copy_rows" ]]; then
    ok "COPY TO exports $copy_rows rows"
else
    fail "COPY TO: exit $rc, $(cat "$OUT/copy-to.out")"
fi
row7=$'7,"[7, 0]",{\'k\': 7},"v, \\"7\\""'   # cqlsh's CSV: quotes escaped by a backslash, lines end in CRLF
tr -d '\r' <"$OUT/copied.csv" | grep -qxF "$row7" && ok "COPY TO writes cqlsh's CSV" \
    || fail "COPY TO: row 7 is $(grep '^7,' "$OUT/copied.csv"), not $row7"
"$CQLSH" "${args[@]}" -e "COPY $KS.restored FROM '$OUT/copied.csv' WITH HEADER = true" >"$OUT/copy-from.out" 2>&1
rc=$?
[[ $rc == 0 ]] && grep -qF "$copy_rows rows imported" "$OUT/copy-from.out" && ok "COPY FROM imports $copy_rows rows" \
    || fail "COPY FROM: exit $rc, $(cat "$OUT/copy-from.out")"
"$CQLSH" "${args[@]}" -e "COPY $KS.restored TO '$OUT/restored.csv' WITH HEADER = true" >/dev/null 2>&1
if diff <(sort "$OUT/copied.csv") <(sort "$OUT/restored.csv") >/dev/null; then
    ok "COPY FROM restores every row as exported"
else
    fail "COPY round trip differs: $(diff <(sort "$OUT/copied.csv") <(sort "$OUT/restored.csv") | head -5)"
fi

if [[ $fails == 0 ]]; then echo "cqlsh: 0 failed"; exit 0; fi
echo "cqlsh: $fails failed (outputs in $OUT)"
exit 1
