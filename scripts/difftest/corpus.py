"""Checks the project's hand-written expectations against a real Cassandra 5.0 node.

Run it through ``scripts/oracle-corpus`` (which makes the venv). For every
``tests/conformance/*.cql`` it runs the script on the node, in a fresh state (user
keyspaces dropped, new session, widerow's fixed write clock back at its start), and
compares each statement's record with the ``.jsonl`` line written for it, ignoring
``line``, ``class`` and ``metrics``. For every ``tests/planner/*.cql`` it compares
"accepted" against "refused with kind and message" (Cassandra has no query classes).

Cases that depend on the clock widerow fixes and the node does not (``-- @advance N``
TTL expiry, ``writetime()``/``ttl()``/``now()`` and friends) are compared, and when they
differ are listed as "clock-dependent, not compared" instead of as mismatches.

When ``target/release/widerow`` exists, each mismatch also says what widerow prints now,
so the report can tell a wrong expectation from a widerow bug.

Exit 0 when nothing differs, 1 when something does, 2 when the node could not be used.
"""

from __future__ import annotations

import argparse
import collections
import datetime
import glob
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
REPO = os.path.dirname(os.path.dirname(HERE))

import cassandra_side as cs  # noqa: E402
from records import differences, load_record  # noqa: E402

NODE = os.path.join(REPO, "scripts", "cassandra", "node")
WIDEROW = os.environ.get("WIDEROW_BIN") or os.path.join(REPO, "target", "release", "widerow")

CLOCK_RE = re.compile(
    r"\b(writetime|maxwritetime|ttl|now|currenttimestamp|currentdate|currenttime|currenttimeuuid|"
    r"uuid|totimestamp\s*\(\s*now|mintimeuuid|maxtimeuuid)\s*\(",
    re.I,
)
MARKER_RE = re.compile(r"\?|:[A-Za-z_]\w*")


def _strip_strings(text: str) -> str:
    return re.sub(r"'(?:[^']|'')*'|\$\$.*?\$\$", "''", text, flags=re.S)


class Finding:
    def __init__(self, path, line, statement, expected, actual, diffs, widerow=None, group=""):
        self.path, self.line, self.statement = path, line, statement
        self.expected, self.actual, self.diffs = expected, actual, diffs
        self.widerow = widerow
        self.group = group

    def verdict(self) -> str:
        """Who is wrong, according to the node."""
        if self.widerow is None:
            return "expectation or widerow (widerow not run)"
        if self.widerow == "same-as-cassandra":
            return "expectation wrong (widerow already agrees with Cassandra)"
        if self.widerow == "same-as-expected":
            return "expectation wrong, and widerow follows it (widerow bug too)"
        return "widerow differs from both"


# ---------------------------------------------------------------------------
# widerow's own output, for the verdicts


def widerow_records(args: list[str]) -> dict[int, dict] | None:
    if not os.path.exists(WIDEROW):
        return None
    try:
        out = subprocess.run([WIDEROW, *args, "--format", "json"], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None
    recs = {}
    for line in out.stdout.splitlines():
        try:
            rec = load_record(line)
        except json.JSONDecodeError:
            continue
        recs.setdefault(rec.get("line"), rec)
    return recs


# ---------------------------------------------------------------------------
# conformance


def check_conformance(session, path: str, findings: list, clocked: list, stats: collections.Counter,
                      widerow_only: list):
    text = open(path, encoding="utf-8").read()
    rel = os.path.relpath(path, REPO)
    expected = {}
    exp_path = path[:-4] + ".jsonl"
    for line in open(exp_path, encoding="utf-8"):
        if line.strip():
            rec = load_record(line)
            expected[rec["line"]] = rec
    wr = widerow_records(["-f", path])
    clock = cs._state(session).clock
    advanced = False
    paged = True  # scripts page by 100 rows until `-- @paging off`
    seen = set()
    for st in cs.split_statements(text):
        for name, arg in st.directives:
            if name == "advance":
                clock.advance(float(arg))
                advanced = True
            elif name == "paging":
                paged = arg.strip() != "off"
        seen.add(st.line)
        if not st.complete:
            got = {"kind": "error", "error": "SyntaxException", "message": "Incomplete statement at end of file"}
        else:
            got = cs.run(session, st.text, paged=paged)
        stats["conformance statements"] += 1
        exp = expected.get(st.line)
        if exp is None:
            findings.append(Finding(rel, st.line, st.text, None, got, ["no expected line for this statement"],
                                    group="alignment: statement without an expected line"))
            continue
        diffs = differences(exp, got)
        if not diffs:
            stats["conformance agree"] += 1
            wrec = wr.get(st.line) if wr is not None else None
            if wrec is not None and differences(wrec, got) and not (advanced or CLOCK_RE.search(_strip_strings(st.text))):
                note = ("may be a clock artifact: widerow -f writes on the real clock, this file also uses "
                        "USING TIMESTAMP in 2025" if re.search(r"USING\s+TIMESTAMP", text, re.I) else "")
                widerow_only.append(Finding(rel, st.line, st.text, exp, got,
                                            [d.replace("expected", "widerow", 1) for d in differences(wrec, got)]
                                            + ([note] if note else []), "neither",
                                            group="expectation agrees with Cassandra, widerow differs"))
            continue
        w = None
        if wr is not None:
            wrec = wr.get(st.line)
            if wrec is not None and not differences(wrec, got):
                w = "same-as-cassandra"
            elif wrec is not None and not differences(exp, wrec):
                w = "same-as-expected"
            else:
                w = "neither"
        f = Finding(rel, st.line, st.text, exp, got, diffs, w, group=_group(exp, got, diffs))
        if advanced or CLOCK_RE.search(_strip_strings(st.text)):
            f.group = "clock-dependent: " + ("after -- @advance" if advanced else "clock function")
            clocked.append(f)
            stats["conformance clock-dependent"] += 1
        else:
            findings.append(f)
            stats["conformance differ"] += 1
    for line in sorted(set(expected) - seen):
        findings.append(Finding(rel, line, "", expected[line], None, ["expected line with no statement starting there"],
                                group="alignment: expected line without a statement"))


def _group(exp, got, diffs) -> str:
    ek, gk = exp.get("kind"), got.get("kind")
    if ek != gk:
        if gk == "error":
            return f"expected {ek}, Cassandra refuses: {got.get('error')}"
        if ek == "error":
            return f"expected {exp.get('error')}, Cassandra accepts ({gk})"
        return f"kind {ek} vs {gk}"
    if ek == "error":
        if exp.get("error") != got.get("error"):
            return f"error kind {exp.get('error')} vs {got.get('error')}"
        return "same error kind, different message"
    keys = sorted({d.split(":", 1)[0].split(" ", 1)[0] for d in diffs})
    return "different " + "/".join(keys)


# ---------------------------------------------------------------------------
# planner


EXPECT_RE = re.compile(r"^-- expect: ?(.*)$")
CLASSES = {"point-lookup", "partition-scan", "multi-partition", "scatter-gather"}


def check_planner(session, path: str, findings: list, stats: collections.Counter, widerow_only: list):
    text = open(path, encoding="utf-8").read()
    lines = text.split("\n")
    rel = os.path.relpath(path, REPO)
    wr = widerow_records(["explain", path])
    for st in cs.split_statements(text):
        end_line = st.line + st.text.count("\n")
        nxt = lines[end_line] if end_line < len(lines) else ""
        m = EXPECT_RE.match(nxt.lstrip().rstrip("\r\n"))
        has_markers = bool(MARKER_RE.search(_strip_strings(st.text)))
        if has_markers:
            got = cs.prepare(session, st.text)
        else:
            got = cs.run(session, st.text)
        if not m:
            if got["kind"] == "error":
                findings.append(Finding(rel, st.line, st.text, {"kind": "ok"}, got,
                                        [f"setup statement refused: {got['error']}: {got['message']}"],
                                        group="setup statement refused by Cassandra"))
            continue
        stats["planner cases"] += 1
        expect = m.group(1)
        if expect.strip() in CLASSES or expect.strip() == "SyntaxException":
            expect = expect.strip()
        diffs, group = [], ""
        if expect in CLASSES:
            exp_rec = {"kind": "accepted", "class": expect}
            if got["kind"] == "error":
                diffs = [f"expected accepted ({expect}), Cassandra refuses: {got['error']}: {got['message']}"]
                group = f"expected accepted, Cassandra refuses ({got['error']})"
        else:
            kind, _, message = expect.partition(": ")
            kind = kind.rstrip(":")
            exp_rec = {"kind": "error", "error": kind, "message": message if _ else None}
            if got["kind"] != "error":
                diffs = [f"expected {kind}, Cassandra accepts"]
                group = f"expected refused ({kind}), Cassandra accepts"
            elif got["error"] != kind:
                diffs = [f"error kind: expected {kind}, Cassandra {got['error']}: {got['message']}"]
                group = f"error kind {kind} vs {got['error']}"
            elif kind != "SyntaxException" and _ and message != got["message"]:
                diffs = [f"message: expected {json.dumps(message)}, Cassandra {json.dumps(got['message'])}"]
                group = "same error kind, different message"
        if not diffs:
            stats["planner agree"] += 1
            wrec = wr.get(st.line) if wr is not None else None
            if wrec is not None:
                w_ok, c_ok = wrec.get("kind") != "error", got["kind"] != "error"
                if w_ok != c_ok or (not c_ok and (wrec.get("error") != got.get("error") or (
                        got.get("error") != "SyntaxException" and wrec.get("message") != got.get("message")))):
                    widerow_only.append(Finding(
                        rel, st.line, st.text, exp_rec, got,
                        [f"widerow: {wrec.get('error', 'accepted')}: {wrec.get('message', wrec.get('class', ''))}"],
                        "neither", group="expectation agrees with Cassandra, widerow differs"))
            continue
        stats["planner differ"] += 1
        w = None
        if wr is not None:
            wrec = wr.get(st.line)
            if wrec is not None:
                w_ok = wrec.get("kind") != "error"
                c_ok = got["kind"] != "error"
                if w_ok == c_ok and (c_ok or (wrec.get("error") == got.get("error") and
                                             (got.get("error") == "SyntaxException" or wrec.get("message") == got.get("message")))):
                    w = "same-as-cassandra"
                elif (exp_rec["kind"] == "accepted") == w_ok and (w_ok or (wrec.get("error") == exp_rec.get("error") and
                                                                          (exp_rec.get("message") in (None, wrec.get("message"))))):
                    w = "same-as-expected"
                else:
                    w = "neither"
        findings.append(Finding(rel, st.line, st.text, exp_rec, got, diffs, w, group=group))


# ---------------------------------------------------------------------------
# the node


def node(*args) -> subprocess.CompletedProcess:
    return subprocess.run([NODE, *args], text=True, capture_output=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", help="only these .cql files (default: both corpora)")
    ap.add_argument("--report", default=os.path.join(REPO, "target", "oracle", "corpus-report.txt"))
    args = ap.parse_args()

    managed = "ORACLE_HOST" not in os.environ and "ORACLE_PORT" not in os.environ
    host = os.environ.get("ORACLE_HOST", "127.0.0.1")
    port = int(os.environ.get("ORACLE_PORT", "19042"))
    t0 = time.monotonic()
    startup = None
    if managed:
        node("stop")
        r = node("start", "--wait")
        sys.stderr.write(r.stdout + r.stderr)
        if r.returncode != 0:
            print("oracle-corpus: the node did not start", file=sys.stderr)
            return 2
        startup = time.monotonic() - t0
    try:
        return _check(host, port, args, startup, t0, managed)
    finally:
        if managed:
            node("stop")


def _check(host, port, args, startup, t0, managed) -> int:
    if args.files:
        conf = [f for f in args.files if "/conformance/" in f]
        plan = [f for f in args.files if "/planner/" in f]
    else:
        conf = sorted(glob.glob(os.path.join(REPO, "tests", "conformance", "*.cql")))
        plan = sorted(glob.glob(os.path.join(REPO, "tests", "planner", "*.cql")))
    conf = [os.path.abspath(f) for f in conf]
    plan = [os.path.abspath(f) for f in plan]
    session = cs.connect(host, port, clock=cs.Clock())
    findings: list[Finding] = []
    clocked: list[Finding] = []
    widerow_only: list[Finding] = []
    stats: collections.Counter = collections.Counter()
    timings = []
    t_check = time.monotonic()
    for path in conf + plan:
        t = time.monotonic()
        session = cs.reset(session)
        if path in conf:
            check_conformance(session, path, findings, clocked, stats, widerow_only)
        else:
            check_planner(session, path, findings, stats, widerow_only)
        timings.append((os.path.relpath(path, REPO), time.monotonic() - t))
        print(f"{os.path.relpath(path, REPO)}: {timings[-1][1]:.1f} s", file=sys.stderr)
    cs.drop_user_keyspaces(session)
    cs.close(session)
    check_time = time.monotonic() - t_check
    report = _report(host, port, findings, clocked, stats, timings, startup, check_time, time.monotonic() - t0,
                     widerow_only)
    if managed:  # the node's memory after the whole corpus
        status = node("status").stdout.strip()
        report = report.replace("\n\n", f"\nnode: {status}\n\n", 1)
    os.makedirs(os.path.dirname(args.report), exist_ok=True)
    with open(args.report, "w", encoding="utf-8") as f:
        f.write(report)
    print(report)
    print(f"report written to {os.path.relpath(args.report, REPO)}", file=sys.stderr)
    return 1 if findings else 0


def _report(host, port, findings, clocked, stats, timings, startup, check_time, total, widerow_only) -> str:
    out = []
    w = out.append
    w(f"widerow oracle corpus check: Apache Cassandra 5.0.8 at {host}:{port}")
    w(f"run at {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M:%SZ')}")
    if startup is not None:
        w(f"node start-up {startup:.1f} s; checking {check_time:.1f} s; total {total:.1f} s")
    else:
        w(f"checking {check_time:.1f} s (node already running)")
    w("")
    w(f"conformance: {stats['conformance statements']} statements, {stats['conformance agree']} agree, "
      f"{stats['conformance differ']} differ, {stats['conformance clock-dependent']} clock-dependent (not compared)")
    w(f"planner:     {stats['planner cases']} cases, {stats['planner agree']} agree, {stats['planner differ']} differ")
    setup = sum(1 for f in findings if f.group.startswith("setup"))
    align = sum(1 for f in findings if f.group.startswith("alignment"))
    if setup or align:
        w(f"also: {setup} setup statements refused, {align} alignment problems")
    w(f"mismatches: {len(findings)}")
    w(f"widerow's current binary disagrees with Cassandra where the expectation agrees: {len(widerow_only)}")
    w("")
    w("== mismatches by group ==")
    groups = collections.Counter((("planner" if "/planner/" in f.path else "conformance"), f.group) for f in findings)
    for (corpus, g), n in sorted(groups.items(), key=lambda x: (x[0][0], -x[1], x[0][1])):
        w(f"{n:5d}  {corpus}: {g}")
    w("")
    w("== mismatches by verdict (widerow's current output as the tiebreak) ==")
    for v, n in collections.Counter(f.verdict() for f in findings).most_common():
        w(f"{n:5d}  {v}")
    w("")
    w("== mismatches by file ==")
    for p, n in sorted(collections.Counter(f.path for f in findings).items()):
        w(f"{n:5d}  {p}")
    w("")
    w("== every mismatch ==")
    for f in findings:
        w(f"{f.path}:{f.line}: [{f.group}] {f.verdict()}")
        w(f"    statement: {f.statement}")
        if f.expected is not None:
            w(f"    expected:  {cs.to_jsonl(f.expected)}")
        if f.actual is not None:
            w(f"    Cassandra: {cs.to_jsonl(f.actual)}")
        for d in f.diffs:
            w(f"    - {d}")
    w("")
    w("== widerow bugs the expectations already catch: the expectation agrees with Cassandra, ==")
    w(f"== target/release/widerow prints something else ({len(widerow_only)}; not counted as mismatches; ==")
    w("== widerow -f runs on the real clock, so these exclude the clock-dependent cases) ==")
    for f in widerow_only:
        w(f"{f.path}:{f.line}: {f.statement}")
        for d in f.diffs:
            w(f"    - {d}")
    w("")
    w("== clock-dependent, not compared (the node's clock is the machine's) ==")
    for f in clocked:
        w(f"{f.path}:{f.line}: [{f.group}] {f.statement}")
        for d in f.diffs:
            w(f"    - {d}")
    w("")
    w("== time per file ==")
    for p, t in timings:
        w(f"{t:6.1f} s  {p}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.exit(main())
