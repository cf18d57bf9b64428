#!/usr/bin/env python3
"""Helpers of scripts/benchmarks.sh: turn a benchmark's printed output into
Markdown, and rewrite one generated region of BENCHMARKS.md.

    bench-report.py region MARKDOWN NAME BODY   replace what lies between
        `<!-- generated:NAME -->` and `<!-- end:NAME -->` in MARKDOWN with
        the text of file BODY (`-` for standard input)
    bench-report.py parse OUT                   `cargo bench --bench parse` output
    bench-report.py plan OUT                    `cargo bench --bench plan` output
    bench-report.py lint OUT...                 one `cargo bench --bench lint` output a run
    bench-report.py hyperfine JSON              `hyperfine --export-json` results
    bench-report.py time-v FILE                 GNU `time -v` report: "wall_s cpu_s rss_kb"

Output that does not have the expected shape is printed verbatim in a code
block, so a changed bench never loses its figures.
"""

import json
import os
import re
import statistics
import sys


def grouped(x: float) -> str:
    return f"{x:,.0f}"


def verbatim(text: str) -> str:
    return "```text\n" + text.strip("\n") + "\n```"


def region(path: str, name: str, body_path: str) -> int:
    body = sys.stdin.read() if body_path == "-" else open(body_path).read()
    text = open(path).read()
    start, end = f"<!-- generated:{name} -->", f"<!-- end:{name} -->"
    if text.count(start) != 1 or text.count(end) != 1:
        print(f"bench-report.py: {path} needs exactly one `{start}` and one `{end}`", file=sys.stderr)
        return 1
    i, j = text.index(start) + len(start), text.index(end)
    if j < i:
        print(f"bench-report.py: `{end}` comes before `{start}` in {path}", file=sys.stderr)
        return 1
    new = text[:i] + "\n" + body.strip("\n") + "\n" + text[j:]
    tmp = path + ".tmp"
    with open(tmp, "w") as out:
        out.write(new)
    os.replace(tmp, path)
    return 0


def parse(out: str) -> str:
    lines = out.splitlines()
    parts = []
    corpus = next((l for l in lines if l.startswith("corpus:")), None)
    if corpus:
        parts.append(corpus[0].upper() + corpus[1:] + ".")
    # Criterion: `parse/widerow   time:   [a u b u c u]` then `thrpt:  [...]`.
    crit = []
    for k, line in enumerate(lines):
        m = re.match(r"^(\S+)\s+time:\s+\[(\S+ \S+) (\S+ \S+) (\S+ \S+)\]", line)
        if m:
            thrpt = ""
            for nxt in lines[k + 1:k + 3]:
                t = re.match(r"^\s+thrpt:\s+\[(\S+ \S+) (\S+ \S+) (\S+ \S+)\]", nxt)
                if t:
                    thrpt = t.group(2)
            crit.append((m.group(1).split("/")[-1], m.group(2), m.group(3), m.group(4), thrpt))
    if crit:
        parts.append("Criterion, whole corpus per iteration:\n\n"
                     "| parser | time per corpus (95% CI) | throughput |\n|---|---|---:|\n" +
                     "\n".join(f"| {n} | {lo} – {hi} (estimate {est}) | {th} |" for n, lo, est, hi, th in crit))
    # The summary: a header line starting `statements`, rows, a footnote.
    try:
        h = next(k for k, l in enumerate(lines) if l.split()[:2] == ["statements", "count"])
    except StopIteration:
        return "\n\n".join(parts + [verbatim(out)])
    rows = []
    for line in lines[h + 1:]:
        f = line.split()
        if len(f) < 7 or not f[-1].endswith("x"):
            break
        name = " ".join(f[:-6])
        count, ws, wmb, ss, smb, ratio = f[-6:]
        cells = [name, count, grouped(float(ws)), wmb, grouped(float(ss)), smb, ratio[:-1] + "×"]
        if name == "all":
            cells = [f"**{c}**" if i in (0, 2, 4, 6) else c for i, c in enumerate(cells)]
        rows.append("| " + " | ".join(cells) + " |")
    parts.append("Summary printed at the end of the run (fastest of alternating passes; "
                 "MB = 10^6 bytes; ratio = widerow statements/s ÷ sqlparser statements/s):\n\n"
                 "| statements | count | widerow st/s | MB/s | sqlparser st/s | MB/s | ratio |\n"
                 "|---|---:|---:|---:|---:|---:|---:|\n" + "\n".join(rows))
    return "\n\n".join(parts)


def plan(out: str) -> str:
    lines = out.splitlines()
    try:
        h = next(k for k, l in enumerate(lines) if l.split()[:2] == ["statement", "plans/s"])
    except StopIteration:
        return verbatim(out)
    rows = []
    for line in lines[h + 1:]:
        f = line.split()
        if len(f) < 3:
            break
        rows.append(f"| {' '.join(f[:-2])} | {grouped(float(f[-2]))} | {f[-1]} |")
    return ("Summary loop after criterion's run (2 s per statement, one core):\n\n"
            "| statement | plans/s | µs/plan |\n|---|---:|---:|\n" + "\n".join(rows))


def lint(paths) -> str:
    rows, rates = [], []
    for n, path in enumerate(paths, 1):
        text = open(path).read()
        m = re.search(r"linted (\d+) queries against (\d+) tables in ([\d.]+) ms: (\d+) queries/s \((\d+) findings\)", text)
        if not m:
            return verbatim(text)
        rates.append(float(m.group(4)))
        rows.append(f"| {n} | {m.group(3)} ms | {grouped(rates[-1])} | {grouped(float(m.group(5)))} |")
    return ("Best of five passes per run, each run a separate process:\n\n"
            "| run | best pass | queries/s | findings |\n|---:|---:|---:|---:|\n" +
            "\n".join(rows) +
            f"\n\n{len(rates)} run{'s' if len(rates) != 1 else ''}: "
            f"{grouped(min(rates))} – {grouped(max(rates))} queries/s "
            f"(median {grouped(statistics.median(rates))}).")


def hyperfine(path: str) -> str:
    data = json.load(open(path))
    rows = []
    for r in data["results"]:
        times = sorted(r["times"])
        p90 = times[min(len(times) - 1, int(round(0.9 * (len(times) - 1))))]
        rows.append(f"| `{r['command']}` | {r['median'] * 1e3:.2f} ms | {r['min'] * 1e3:.2f} ms | "
                    f"{p90 * 1e3:.2f} ms | {len(times)} |")
    return ("| command | median | min | p90 | runs |\n| --- | ---: | ---: | ---: | ---: |\n" + "\n".join(rows))


def time_v(path: str) -> str:
    fields = {}
    for line in open(path):
        if ": " in line:
            k, v = line.strip().rsplit(": ", 1)
            fields[k] = v
    wall = 0.0
    for part in fields["Elapsed (wall clock) time (h:mm:ss or m:ss)"].split(":"):
        wall = wall * 60 + float(part)
    cpu = float(fields["User time (seconds)"]) + float(fields["System time (seconds)"])
    return f"{wall:.2f} {cpu:.2f} {fields['Maximum resident set size (kbytes)']}"


def main(argv) -> int:
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(argv) >= 2 else 2
    cmd, args = argv[1], argv[2:]
    if cmd == "region":
        return region(*args)
    if cmd == "lint":
        print(lint(args))
    elif cmd in ("parse", "plan"):
        print(globals()[cmd](open(args[0]).read()))
    elif cmd == "hyperfine":
        print(hyperfine(args[0]))
    elif cmd == "time-v":
        print(time_v(args[0]))
    else:
        print(f"bench-report.py: unknown command {cmd}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
