#!/usr/bin/env bash
# Regenerates the figures in BENCHMARKS.md: runs each benchmark and rewrites
# the text between its `<!-- generated:NAME -->` and `<!-- end:NAME -->`
# markers in place (the command, the machine, the figures). Everything
# outside the markers is written by hand and left alone. Not run in CI.
#
#   scripts/benchmarks.sh [OPTIONS] [SECTION...]
#
# Sections (default: all of them, in this order; about half an hour on 2
# cores, plus compiling the benches the first time):
#   parse     cargo bench --bench parse             widerow against sqlparser
#   plan      cargo bench --bench plan              plans per second
#   lint      cargo bench --bench lint              queries linted per second, $LINT_RUNS runs
#   compare   cargo bench --bench compare           widerow against SQLite in memory
#             (WIDEROW_BENCH_SENSORS sensors, WIDEROW_BENCH_SCALING=1)
#   startup   hyperfine -N 'widerow --schema s.cql -e "SELECT …"'
#   memory    /usr/bin/time -v widerow -f res_big.cql / res_small.cql
#   copy      /usr/bin/time -v widerow -f copy.cql / inserts.cql
#   cli       scripts/cli-compare.sh: widerow -f against the sqlite3 shell
#             (a tenth of $CLI_ROWS INSERTs; the slice workload, with
#             the $CLI_ROWS-INSERT load alone beside it), and
#             cargo bench --bench render, the printing floor beside it
#   repl      scripts/repl-soak.py: a REPL session of $REPL_STATEMENTS statements
#
# Options:
#   --quick     small inputs and few repetitions, to check the tooling;
#               prints the regions instead of rewriting BENCHMARKS.md
#               (add --write to rewrite it anyway)
#   --print     print the regenerated regions, leave BENCHMARKS.md alone
#   --write     rewrite BENCHMARKS.md (the default without --quick)
#   --dry-run   print what each section would run, run nothing
#   -h, --help  this text
#
# Environment:
#   WIDEROW_BENCH_SENSORS  sensors for `compare` (default 1000: 1M rows)
#   WIDEROW_BENCH_SCALING  1 (default) to add compare's scaling run, 0 not to
#   WIDEROW_BENCH_PASSES   passes of each compare workload, best kept (default 3)
#   LINT_RUNS              separate runs of the lint bench (default 5)
#   CLI_ROWS, CLI_RUNS     rows and runs of `cli` (default 1000000 and 3)
#   CLI_SLICES             SELECTs of `cli`'s slice workload (default 10000)
#   MEMORY_STATEMENTS      INSERTs of `memory`'s big script (default 1000000)
#   COPY_ROWS, COPY_RUNS   rows and runs of `copy` (default 1000000 and 2)
#   REPL_STATEMENTS        statements typed into `repl`'s session (default 100000)
#   BENCH_NOTE             a sentence added to each region's machine line,
#                          e.g. "The cores were shared with a fuzzer."
#   CQLSH                  a cqlsh command to time beside widerow in `startup`
#                          (e.g. CQLSH=~/venv/bin/cqlsh); left out when unset
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
all_sections=(parse plan lint compare startup memory copy cli repl)
markdown=$root/BENCHMARKS.md
report() { python3 "$root/scripts/bench-report.py" "$@"; }

quick=0 dry=0 write=
sections=()
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --print) write=0 ;;
    --write) write=1 ;;
    --dry-run) dry=1 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "benchmarks.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *)
      case " ${all_sections[*]} " in
        *" $1 "*) sections+=("$1") ;;
        *) echo "benchmarks.sh: unknown section $1; sections: ${all_sections[*]}" >&2; exit 2 ;;
      esac ;;
  esac
  shift
done
[ ${#sections[@]} -gt 0 ] || sections=("${all_sections[@]}")
[ -n "$write" ] || write=$((1 - quick))

if [ "$quick" = 1 ]; then
  : "${WIDEROW_BENCH_SENSORS:=10}" "${WIDEROW_BENCH_SCALING:=0}" "${LINT_RUNS:=1}"
  : "${CLI_ROWS:=10000}" "${CLI_SLICES:=100}" "${MEMORY_STATEMENTS:=20000}" "${COPY_ROWS:=20000}" "${COPY_RUNS:=1}" "${REPL_STATEMENTS:=500}"
  hyperfine_runs=(--warmup 3 --runs 20)
  criterion_args=(--quick)
else
  hyperfine_runs=(--warmup 20 --runs 300)
  criterion_args=()
fi
sensors=${WIDEROW_BENCH_SENSORS:-1000}
scaling=${WIDEROW_BENCH_SCALING:-1}
lint_runs=${LINT_RUNS:-5}
cli_rows=${CLI_ROWS:-1000000}
cli_runs=${CLI_RUNS:-3}
cli_slices=${CLI_SLICES:-10000}
cli_small=$((cli_rows / 10))
memory_statements=${MEMORY_STATEMENTS:-1000000}
copy_rows=${COPY_ROWS:-1000000}
copy_runs=${COPY_RUNS:-2}
repl_statements=${REPL_STATEMENTS:-100000}
TIME=/usr/bin/time
widerow=$root/target/release/widerow

# What each section runs, for the regions and for --dry-run.
describe() {
  case $1 in
    parse) echo "cargo bench --bench parse${criterion_args:+ -- ${criterion_args[*]}}" ;;
    plan) echo "cargo bench --bench plan${criterion_args:+ -- ${criterion_args[*]}}" ;;
    lint) echo "cargo bench --bench lint   # runs: $lint_runs" ;;
    compare) echo "WIDEROW_BENCH_SENSORS=$sensors WIDEROW_BENCH_SCALING=$scaling cargo bench --bench compare" ;;
    startup) echo "hyperfine -N ${hyperfine_runs[*]} 'target/release/widerow --schema s.cql -e \"SELECT * FROM ks.t WHERE k = 1\"'${CQLSH:+ '$CQLSH --version'}" ;;
    memory) echo "/usr/bin/time -v target/release/widerow -f res_small.cql; /usr/bin/time -v target/release/widerow -f res_big.cql   # scripts/gen-load-scripts.py same-rows DIR --statements $memory_statements" ;;
    copy) echo "/usr/bin/time -v target/release/widerow -f copy.cql; /usr/bin/time -v target/release/widerow -f inserts.cql   # runs of each: $copy_runs; scripts/gen-load-scripts.py users DIR --rows $copy_rows" ;;
    cli) echo "scripts/cli-compare.sh --rows $cli_small --runs $cli_runs; scripts/cli-compare.sh --rows $cli_rows --slices $cli_slices --runs $cli_runs; cargo bench --bench render" ;;
    repl) echo "scripts/repl-soak.py --statements $repl_statements" ;;
  esac
}

if [ "$dry" = 1 ]; then
  for s in "${sections[@]}"; do printf '%-8s %s\n' "$s" "$(describe "$s")"; done
  if [ "$write" = 1 ]; then echo "then rewrite their regions in BENCHMARKS.md"; else echo "then print their regions"; fi
  exit 0
fi

# Every region must exist before an hour of benchmarks is spent on it.
if [ "$write" = 1 ]; then
  for s in "${sections[@]}"; do
    if ! grep -qF "<!-- generated:$s -->" "$markdown" || ! grep -qF "<!-- end:$s -->" "$markdown"; then
      echo "benchmarks.sh: BENCHMARKS.md has no <!-- generated:$s --> … <!-- end:$s --> region" >&2
      exit 1
    fi
  done
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/widerow-benchmarks.XXXXXX")
trap 'rm -rf "$work"' EXIT

cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
rustc_version=$(rustc --version)
revision=$(git describe --always --dirty 2>/dev/null || echo unknown)

# The lines every region starts with. Load is read when the section starts:
# on a shared machine it says how far to trust the absolute figures.
header() { # section, extra note
  local load
  load=$(cut -d ' ' -f 1-3 /proc/loadavg)
  local via="scripts/benchmarks.sh $1"
  [ "$quick" = 0 ] || via="scripts/benchmarks.sh --quick $1"
  echo "Command: \`$(describe "$1")\` (run by \`$via\`)."
  echo
  echo "Machine: \`nproc\` = $(nproc), \`$cpu_model\` (\`/proc/cpuinfo\`), $rustc_version, release profile; widerow $revision; load average $load at the start; $(date -u '+%Y-%m-%d %H:%M UTC')."
  echo
  if [ -n "${BENCH_NOTE:-}" ]; then echo "$BENCH_NOTE"; echo; fi
  if [ "$quick" = 1 ]; then echo "**Quick run (--quick): small inputs, not figures to quote.**"; echo; fi
}

emit() { # section, body file
  if [ "$write" = 1 ]; then
    report region "$markdown" "$1" "$2"
    echo "benchmarks.sh: rewrote the $1 region of BENCHMARKS.md" >&2
  else
    echo "<!-- generated:$1 -->"
    cat "$2"
    echo "<!-- end:$1 -->"
    echo
  fi
}

build_release() {
  [ -n "${built:-}" ] && return
  cargo build --release --quiet --bin widerow
  built=1
}

# `timed NAME COMMAND...` runs COMMAND under `time -v` in $work with its
# standard output discarded and fails on a non-zero exit.
timed() {
  local name=$1; shift
  local rc=0
  (cd "$work" && "$TIME" -v -o "$work/$name.time" "$@" >"$work/$name.out" 2>"$work/$name.err") || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "benchmarks.sh: $* exited with $rc; standard error ends:" >&2
    tail -n 20 "$work/$name.err" >&2
    exit 1
  fi
  read -r wall cpu rss < <(report time-v "$work/$name.time")
}
mb() { awk -v k="$1" 'BEGIN { printf "%.1f MB", k * 1024 / 1e6 }'; }
per_second() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.0f", n / s }' | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta'; }

section_parse() {
  cargo bench --bench parse -- "${criterion_args[@]}" | tee "$work/parse.out"
  { header parse; report parse "$work/parse.out"; } >"$work/parse.md"
}

section_plan() {
  cargo bench --bench plan -- "${criterion_args[@]}" | tee "$work/plan.out"
  { header plan; report plan "$work/plan.out"; } >"$work/plan.md"
}

section_lint() {
  local outs=()
  for ((i = 1; i <= lint_runs; i++)); do
    cargo bench --bench lint | tee "$work/lint.$i.out"
    outs+=("$work/lint.$i.out")
  done
  { header lint; report lint "${outs[@]}"; } >"$work/lint.md"
}

section_compare() {
  WIDEROW_BENCH_SENSORS=$sensors WIDEROW_BENCH_SCALING=$scaling cargo bench --bench compare |
    tee "$work/compare.out"
  # The bench prints its tables as Markdown already: its output goes in verbatim.
  { header compare; cat "$work/compare.out"; } >"$work/compare.md"
}

section_startup() {
  build_release
  cat >"$work/s.cql" <<'CQL'
CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE ks.t (k int PRIMARY KEY, v text);
INSERT INTO ks.t (k, v) VALUES (1, 'one');
CQL
  local commands=("target/release/widerow --schema $work/s.cql -e \"SELECT * FROM ks.t WHERE k = 1\"")
  [ -z "${CQLSH:-}" ] || commands+=("$CQLSH --version")
  # The first result must really come out, or the figure times an error.
  "$widerow" --schema "$work/s.cql" -e "SELECT * FROM ks.t WHERE k = 1" | grep -q one
  hyperfine -N "${hyperfine_runs[@]}" --export-json "$work/startup.json" "${commands[@]}" >&2
  { header startup
    echo "Whole process, to the first result; \`s.cql\` is a keyspace, a table and one row."
    echo
    report hyperfine "$work/startup.json" | sed "s|$work/||g"
    [ -n "${CQLSH:-}" ] || { echo; echo "(cqlsh not timed: set CQLSH to a cqlsh command to add it.)"; }
  } >"$work/startup.md"
}

section_memory() {
  build_release
  python3 scripts/gen-load-scripts.py same-rows "$work" --statements "$memory_statements" >&2
  { header memory
    echo "| script | peak resident memory | wall time | statements/s |"
    echo "| --- | ---: | ---: | ---: |"
    for script in res_small res_big; do
      timed "$script" "$widerow" -f "$script.cql"
      local n=1000 what="1,000 INSERTs"
      if [ "$script" = res_big ]; then
        n=$memory_statements
        what="$(per_second "$memory_statements" 1) INSERTs to the same 1,000 rows"
      fi
      echo "| $what (\`$script.cql\`) | $(mb "$rss") | $wall s | $(per_second "$n" "$wall") |"
    done
  } >"$work/memory.md"
}

section_copy() {
  build_release
  python3 scripts/gen-load-scripts.py users "$work" --rows "$copy_rows" >&2
  local load
  { header copy
    echo "| load | run | wall | CPU (user + sys) | max memory | rows/s (whole run) | COPY's own summary |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | --- |"
    for ((i = 1; i <= copy_runs; i++)); do
      for load in copy inserts; do
        timed "$load.$i" "$widerow" -f "$load.cql"
        local label summary=
        if [ "$load" = copy ]; then
          label="\`COPY … FROM 'users.csv'\`"
          summary=$(grep -m 1 'rows imported from' "$work/$load.$i.out" || echo '(no summary line)')
        else
          label="$(per_second "$copy_rows" 1) INSERT statements"
        fi
        echo "| $label | $i | $wall s | $cpu s | $(mb "$rss") | $(per_second "$copy_rows" "$wall") | $summary |"
      done
    done
  } >"$work/copy.md"
}

section_cli() {
  scripts/cli-compare.sh --rows "$cli_small" --runs "$cli_runs" --dir "$work/cli-small" >"$work/cli.small"
  rm -rf "$work/cli-small"
  scripts/cli-compare.sh --rows "$cli_rows" --slices "$cli_slices" --runs "$cli_runs" --dir "$work/cli" >"$work/cli.slices"
  rm -rf "$work/cli"
  cargo bench --bench render | tee "$work/cli.floor"
  { header cli
    echo "#### $(per_second "$cli_small" 1) INSERTs"
    echo
    cat "$work/cli.small"
    echo
    echo "#### $(per_second "$cli_rows" 1) INSERTs, alone and then $(per_second "$cli_slices" 1) slices printed"
    echo
    cat "$work/cli.slices"
    echo
    echo "#### The floor: printing the same rows with no engine (\`cargo bench --bench render\`)"
    echo
    grep '^|' "$work/cli.floor"
  } >"$work/cli.md"
}

section_repl() {
  build_release
  python3 scripts/repl-soak.py --statements "$repl_statements" --binary "$widerow" >"$work/repl.body"
  { header repl; cat "$work/repl.body"; } >"$work/repl.md"
}

for s in "${sections[@]}"; do
  echo "benchmarks.sh: $s: $(describe "$s")" >&2
  "section_$s"
  emit "$s" "$work/$s.md"
done
