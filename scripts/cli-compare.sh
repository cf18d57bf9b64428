#!/usr/bin/env bash
# Command-line comparison: the sensor data (benches/compare.rs's table and
# rows) run by `widerow -f` beside the `sqlite3` shell on the same rows.
# Whole processes, each under scripts/rusage.py (wall time, CPU time and
# peak memory to the microsecond, in GNU `time -v`'s report lines), widerow
# and sqlite3 alternating run by run.
#
#   scripts/cli-compare.sh [--rows N] [--slices N] [--runs N] [--dir DIR]
#
#   --rows N    rows to load, a multiple of 1000 (default $CLI_ROWS or 1000000)
#   --slices N  the slice workload instead of the load alone: the load, then
#               N SELECTs of one whole partition (100 rows) each, printed
#               in cqlsh's table layout, beside sqlite3 loading the same rows
#               and running the same N queries in its default list mode
#               (`.read sensors.sql` then `.read slices.sql`); each run also
#               times the load alone, so the slices' own cost is the
#               difference (default 0: the load alone)
#   --runs N    runs of each, alternating widerow and sqlite3 (default 1)
#   --dir DIR   where to write the scripts and logs (default: a fresh
#               temporary directory, removed at the end)
#
# Builds target/release/widerow first. Prints a Markdown table on standard
# output (progress goes to standard error): every run's figures, then each
# run's ratio (sqlite3 ÷ widerow, wall and CPU) with their median and range.
# Timed runs discard standard output; an untimed run of each first checks
# that everything is printed (every `(100 rows)` footer, every sqlite3
# row). A non-zero exit from widerow or sqlite3 (run with -bail), or a
# sqlite3 load that did not read every INSERT, fails the script.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
rows=${CLI_ROWS:-1000000}
slices=0
runs=1
dir=
while [ $# -gt 0 ]; do
  case $1 in
    --rows) rows=$2; shift 2 ;;
    --slices) slices=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "cli-compare.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
done

SQLITE=${SQLITE3:-/usr/bin/sqlite3}
[ -x "$SQLITE" ] || { echo "cli-compare.sh: $SQLITE not found" >&2; exit 1; }
RUSAGE=("python3" "$root/scripts/rusage.py")

if [ -z "$dir" ]; then
  dir=$(mktemp -d "${TMPDIR:-/tmp}/widerow-cli-compare.XXXXXX")
  trap 'rm -rf "$dir"' EXIT
else
  mkdir -p "$dir"
fi
dir=$(cd "$dir" && pwd)

echo "building target/release/widerow" >&2
(cd "$root" && cargo build --release --quiet --bin widerow) >&2
widerow=${WIDEROW_BIN:-$root/target/release/widerow}

echo "generating $rows rows and $slices slices in $dir" >&2
python3 "$root/scripts/gen-sensor-scripts.py" "$dir" --rows "$rows" --slices "$slices" >&2

# `field NAME FILE`: the value of one line of the report.
field() { sed -n "s/^[[:space:]]*$1: //p" "$2"; }
# Wall clock as seconds: the report writes m:ss.ssssss.
wall_seconds() {
  field 'Elapsed (wall clock) time (h:mm:ss or m:ss)' "$1" |
    awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.3f\n", s }'
}
cpu_seconds() {
  awk -v u="$(field 'User time (seconds)' "$1")" -v s="$(field 'System time (seconds)' "$1")" \
    'BEGIN { printf "%.3f\n", u + s }'
}
rss_kb() { field 'Maximum resident set size (kbytes)' "$1"; }

# The processes, by name: the command line (run in $dir) of each.
widerow_load=("$widerow" -f sensors.cql)
sqlite_load=("$SQLITE" -bail :memory: .read\ sensors.sql)
widerow_slices=("$widerow" -f slices.cql)
sqlite_slices=("$SQLITE" -bail :memory: .read\ sensors.sql .read\ slices.sql)

# `timed NAME RUN`: runs process NAME under rusage.py, standard output
# discarded; a failure (or sqlite3 writing to standard error) stops the script.
timed() {
  local -n command=$1
  local log=$dir/$1.$2 rc=0
  echo "run $2: ${command[*]##*/}" >&2
  (cd "$dir" && "${RUSAGE[@]}" "$log.time" "${command[@]}" >/dev/null 2>"$log.err") || rc=$?
  if [ "$rc" -ne 0 ] || { [ "${1%%_*}" = sqlite ] && [ -s "$log.err" ]; }; then
    echo "cli-compare.sh: ${command[*]} exited with $rc; its standard error ends:" >&2
    tail -n 20 "$log.err" >&2
    exit 1
  fi
  if [ -s "$log.err" ]; then
    echo "cli-compare.sh: ${command[*]} wrote to standard error (exit 0):" >&2
    head -n 5 "$log.err" >&2
  fi
}

# `check NAME PATTERN COUNT`: one untimed run of NAME whose standard output
# must hold COUNT lines matching PATTERN (grep -c): everything was printed.
check() {
  local -n command=$1
  local got
  echo "checking: ${command[*]##*/}" >&2
  got=$(cd "$dir" && "${command[@]}" | grep -c -- "$2" || true)
  if [ "$got" != "$3" ]; then
    echo "cli-compare.sh: ${command[*]} printed $got lines matching '$2', expected $3" >&2
    exit 1
  fi
}

# The sqlite3 load ends with `SELECT total_changes();` after COMMIT: every
# INSERT was read and applied only if it prints the row count.
check sqlite_load "^$rows\$" 1
names=(widerow_load sqlite_load)
if [ "$slices" -gt 0 ]; then
  check widerow_slices '^(100 rows)$' "$slices"
  check sqlite_slices '^sensor-' "$((slices * 100))"
  names=(widerow_slices sqlite_slices widerow_load sqlite_load)
fi
for ((i = 1; i <= runs; i++)); do
  for name in "${names[@]}"; do timed "$name" "$i"; done
done

# `group 1234567` prints 1,234,567.
group() { echo "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta'; }
joined() { local IFS=/; echo "$*" | sed 's|/| / |g'; }

# One table row's figures for process NAME: every run's, " / "-separated.
summary() { # name
  local walls=() cpus=() shares=() rsss=()
  for ((i = 1; i <= runs; i++)); do
    local t=$dir/$1.$i.time
    walls+=("$(wall_seconds "$t") s")
    cpus+=("$(cpu_seconds "$t") s")
    shares+=("$(field 'Percent of CPU this job got' "$t")")
    rsss+=("$(awk -v k="$(rss_kb "$t")" 'BEGIN { printf "%.1f MB", k * 1024 / 1e6 }')")
  done
  printf '%s | %s | %s | %s' "$(joined "${walls[@]}")" "$(joined "${cpus[@]}")" \
    "$(joined "${shares[@]}")" "$(joined "${rsss[@]}")"
}

# `seconds wall|cpu NAME RUN`: one run's figure.
seconds() { "${1}_seconds" "$dir/$2.$3.time"; }

# `ratios wall|cpu SQLITE WIDEROW [SQLITE_BASE WIDEROW_BASE]`: each run's
# sqlite3 ÷ widerow (of the differences from the base processes, when
# given), then "median (min–max)".
ratios() {
  local kind=$1 list=()
  for ((i = 1; i <= runs; i++)); do
    local s w
    s=$(seconds "$kind" "$2" "$i")
    w=$(seconds "$kind" "$3" "$i")
    if [ $# -gt 3 ]; then
      s=$(awk -v a="$s" -v b="$(seconds "$kind" "$4" "$i")" 'BEGIN { print a - b }')
      w=$(awk -v a="$w" -v b="$(seconds "$kind" "$5" "$i")" 'BEGIN { print a - b }')
    fi
    list+=("$(awk -v s="$s" -v w="$w" 'BEGIN { printf "%.2f", s / (w > 0 ? w : 0.01) }')")
  done
  local sorted
  sorted=$(printf '%s\n' "${list[@]}" | sort -g)
  printf '%s: median **%s×** (%s–%s)' "$(joined "${list[@]}")" \
    "$(echo "$sorted" | awk '{ a[NR] = $1 } END { printf "%.2f", (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }')" \
    "$(echo "$sorted" | head -n 1)" "$(echo "$sorted" | tail -n 1)"
}

# `verdict wall|cpu TARGET ARGS…`: the median ratio against the target.
median_of() { sed -n 's/.*median \*\*\([0-9.]*\)×.*/\1/p'; }
met() { awk -v r="$1" -v t="$2" 'BEGIN { print (r >= t ? "met" : "not met") }'; }

sqlite_version=$("$SQLITE" --version | awk '{ print $1 }')
rows_text=$(group "$rows")
slices_text=$(group "$slices")

echo "| process | wall | CPU (user + sys) | CPU share | peak RSS |"
echo "| --- | ---: | ---: | ---: | ---: |"
if [ "$slices" -gt 0 ]; then
  echo "| \`widerow -f slices.cql\` ($rows_text INSERTs, then $slices_text SELECTs of 100 rows, printed) | $(summary widerow_slices) |"
  echo "| \`sqlite3 -bail :memory: '.read sensors.sql' '.read slices.sql'\` (sqlite3 $sqlite_version, the same rows in one transaction, then the same SELECTs, list mode) | $(summary sqlite_slices) |"
fi
echo "| \`widerow -f sensors.cql\` ($rows_text INSERTs) | $(summary widerow_load) |"
echo "| \`sqlite3 -bail :memory: '.read sensors.sql'\` (sqlite3 $sqlite_version, the same INSERTs in one transaction) | $(summary sqlite_load) |"
echo
echo "Speed ratio, sqlite3 ÷ widerow, each run's pair (the processes ran one after another, alternating):"
echo
if [ "$slices" -gt 0 ]; then
  cpu=$(ratios cpu sqlite_slices widerow_slices)
  echo "- slice script, CPU time: $cpu — target ≥ 2×, $(met "$(echo "$cpu" | median_of)" 2)."
  echo "- slice script, wall time: $(ratios wall sqlite_slices widerow_slices)."
  echo "- the $slices_text SELECTs alone (slice script less the load, same run), CPU time: $(ratios cpu sqlite_slices widerow_slices sqlite_load widerow_load)."
fi
cpu=$(ratios cpu sqlite_load widerow_load)
echo "- $rows_text-INSERT load, CPU time: $cpu — target ≥ 3×, $(met "$(echo "$cpu" | median_of)" 3)."
echo "- $rows_text-INSERT load, wall time: $(ratios wall sqlite_load widerow_load)."
