#!/usr/bin/env bash
# Command-line comparison: the sensor data (benches/compare.rs's table and
# rows) as a 1M-INSERT `.cql` script run by `widerow -f`, beside the same
# rows as a `.sql` script inside one transaction run by the `sqlite3` shell.
# Whole processes, each under `/usr/bin/time -v` (wall time, peak memory).
#
#   scripts/cli-compare.sh [--rows N] [--runs N] [--dir DIR]
#
#   --rows N   rows to load, a multiple of 1000 (default $CLI_ROWS or 1000000)
#   --runs N   runs of each, alternating widerow and sqlite3 (default 1)
#   --dir DIR  where to write the scripts and logs (default: a fresh
#              temporary directory, removed at the end)
#
# Builds target/release/widerow first. Prints a Markdown table on standard
# output (progress goes to standard error). widerow's standard output is
# discarded; a non-zero exit from widerow or sqlite3 (run with -bail), or a
# sqlite3 run that did not read every INSERT, fails the script.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
rows=${CLI_ROWS:-1000000}
runs=1
dir=
while [ $# -gt 0 ]; do
  case $1 in
    --rows) rows=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "cli-compare.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
done

TIME=/usr/bin/time
SQLITE=${SQLITE3:-/usr/bin/sqlite3}
for tool in "$TIME" "$SQLITE"; do
  [ -x "$tool" ] || { echo "cli-compare.sh: $tool not found" >&2; exit 1; }
done

if [ -z "$dir" ]; then
  dir=$(mktemp -d "${TMPDIR:-/tmp}/widerow-cli-compare.XXXXXX")
  trap 'rm -rf "$dir"' EXIT
else
  mkdir -p "$dir"
fi
dir=$(cd "$dir" && pwd)

echo "building target/release/widerow" >&2
(cd "$root" && cargo build --release --quiet --bin widerow) >&2
widerow=$root/target/release/widerow

echo "generating $rows rows in $dir" >&2
python3 "$root/scripts/gen-sensor-scripts.py" "$dir" --rows "$rows" >&2

# `field NAME FILE`: the value of one line of GNU time's -v report.
field() { sed -n "s/^[[:space:]]*$1: //p" "$2"; }
# Wall clock as seconds: GNU time writes h:mm:ss or m:ss.ss.
wall_seconds() {
  field 'Elapsed (wall clock) time (h:mm:ss or m:ss)' "$1" |
    awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.2f\n", s }'
}
cpu_seconds() {
  awk -v u="$(field 'User time (seconds)' "$1")" -v s="$(field 'System time (seconds)' "$1")" \
    'BEGIN { printf "%.2f\n", u + s }'
}
rss_kb() { field 'Maximum resident set size (kbytes)' "$1"; }

run_widerow() { # run number
  local log=$dir/widerow.$1
  echo "run $1: widerow -f sensors.cql" >&2
  local rc=0
  (cd "$dir" && "$TIME" -v -o "$log.time" "$widerow" -f sensors.cql >/dev/null 2>"$log.err") || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "cli-compare.sh: widerow -f exited with $rc; its standard error ends:" >&2
    tail -n 20 "$log.err" >&2
    exit 1
  fi
  if [ -s "$log.err" ]; then
    echo "cli-compare.sh: widerow wrote to standard error (exit 0):" >&2
    head -n 5 "$log.err" >&2
  fi
}

run_sqlite() { # run number
  local log=$dir/sqlite3.$1
  echo "run $1: sqlite3 -bail :memory: < sensors.sql" >&2
  local rc=0
  (cd "$dir" && "$TIME" -v -o "$log.time" "$SQLITE" -bail :memory: <sensors.sql >"$log.out" 2>"$log.err") || rc=$?
  if [ "$rc" -ne 0 ] || [ -s "$log.err" ]; then
    echo "cli-compare.sh: sqlite3 exited with $rc; its standard error ends:" >&2
    tail -n 20 "$log.err" >&2
    exit 1
  fi
  # The script ends with `SELECT total_changes();` after COMMIT: every
  # INSERT was read and applied only if it prints the row count.
  local changes
  changes=$(tail -n 1 "$log.out")
  if [ "$changes" != "$rows" ]; then
    echo "cli-compare.sh: sqlite3 applied $changes changes, expected $rows" >&2
    exit 1
  fi
}

for ((i = 1; i <= runs; i++)); do
  run_widerow "$i"
  run_sqlite "$i"
done

# `group 1234567` prints 1,234,567.
group() { echo "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta'; }

# One table row per engine: every run's figures, " / "-separated.
summary() { # engine-file-prefix
  local walls= cpus= shares= rsss= rates= sep=
  for ((i = 1; i <= runs; i++)); do
    local t=$dir/$1.$i.time w
    w=$(wall_seconds "$t")
    walls+="$sep$w s"
    cpus+="$sep$(cpu_seconds "$t") s"
    shares+="$sep$(field 'Percent of CPU this job got' "$t")"
    rsss+="$sep$(awk -v k="$(rss_kb "$t")" 'BEGIN { printf "%.1f MB", k * 1024 / 1e6 }')"
    rates+="$sep$(group "$(awk -v n="$rows" -v w="$w" 'BEGIN { printf "%d", n / (w > 0 ? w : 0.01) }')")"
    sep=" / "
  done
  printf '%s | %s | %s | %s | %s' "$walls" "$cpus" "$shares" "$rsss" "$rates"
}
best() { # wall_seconds|cpu_seconds engine-file-prefix
  for ((i = 1; i <= runs; i++)); do "$1" "$dir/$2.$i.time"; done | sort -g | head -n 1
}

sqlite_version=$("$SQLITE" --version | awk '{ print $1 }')
rows_text=$(group "$rows")

echo "| process | wall | CPU (user + sys) | CPU share | peak RSS | rows/s (whole run) |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
echo "| \`widerow -f sensors.cql\` ($rows_text INSERTs) | $(summary widerow) |"
echo "| \`sqlite3 -bail :memory: < sensors.sql\` (sqlite3 $sqlite_version, the same INSERTs in one transaction) | $(summary sqlite3) |"
echo
awk -v w="$(best wall_seconds widerow)" -v s="$(best wall_seconds sqlite3)" \
  -v wc="$(best cpu_seconds widerow)" -v sc="$(best cpu_seconds sqlite3)" 'BEGIN {
  if (w <= 0) w = 0.01
  if (wc <= 0) wc = 0.01
  r = s / w
  printf "widerow ÷ sqlite3 speed (sqlite3 wall ÷ widerow wall, best run each): **%.2f×** — target ≥ 3×, %s.\n", r, (r >= 3 ? "met" : "not met")
  printf "By CPU time (user + sys, best run each), steadier when other work shares the cores: %.2f×.\n", sc / wc
}'
