"""widerow's differential oracle: random CQL sequences run on widerow and on a
real Cassandra 5.0 node, every statement's answer compared, each divergence
minimised to a conformance-style case.

    oracle N [--seed S] [--keep-going]     about N statements in all
    oracle --self-test                     checks the harness finds and minimises a planted bug

See scripts/difftest/README.md.  The last line is always
`oracle: S statements compared, D divergences` (D: open divergences, counted
as distinct signatures); exit 0 when D is 0, 1 otherwise, 2 when it could not
run (`blocked: ...`).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
import time
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import compare as cmp  # noqa: E402
import gen  # noqa: E402
from sides import REPO, HERE, Cassandra, Widerow, render  # noqa: E402

PER_SEQUENCE = 120  # data statements per sequence


class Blocked(Exception):
    pass


# --------------------------------------------------------------------------
# Documented divergences


@dataclass
class Known:
    id: str
    doc: str
    matchers: dict

    def matches(self, stmt, diffs, a, b) -> bool:
        d = diffs[0]
        m = self.matchers
        if "field" in m and not re.fullmatch(m["field"], d.field):
            return False
        if "statement" in m and not re.search(m["statement"], stmt.text):
            return False
        if "feature" in m and not re.search(m["feature"], stmt.feature):
            return False
        if "widerow" in m and not re.search(m["widerow"], compared_json(a)):
            return False
        if "cassandra" in m and not re.search(m["cassandra"], compared_json(b)):
            return False
        if "cell_types" in m and not differing_cells_typed(m["cell_types"], a, b):
            return False
        return True


def differing_cells_typed(pattern: str, a: dict, b: dict) -> bool:
    """Whether the two answers hold the same rows, columns and types and
    every cell in which they differ is in a column whose type fullmatches
    `pattern` (so a divergence confined to, say, non-frozen UDT columns is
    told apart from any other difference in the same rows)."""
    if a.get("kind") != "rows" or b.get("kind") != "rows":
        return False
    if a.get("columns") != b.get("columns") or a.get("types") != b.get("types"):
        return False
    ra, rb, types = a.get("rows") or [], b.get("rows") or [], a.get("types") or []
    if len(ra) != len(rb):
        return False
    differing = False
    for x, y in zip(ra, rb):
        if len(x) != len(y) or len(x) != len(types):
            return False
        for cx, cy, t in zip(x, y, types):
            if cx != cy:
                if not re.fullmatch(pattern, t):
                    return False
                differing = True
    return differing


def compared_json(rec: dict) -> str:
    return json.dumps({k: rec[k] for k in cmp.FIELDS if k in rec}, default=str, ensure_ascii=False)


def doc_targets(path: Path) -> set[str]:
    """Headings, bold bullet lead-ins and anchors of docs/divergences.md."""
    out = set()
    text = path.read_text(encoding="utf-8")
    for line in text.splitlines():
        m = re.match(r"^#+\s+(.*?)\s*$", line)
        if m:
            out.add(m.group(1))
        m = re.match(r"^\s*-\s+\*\*(.+?)\*\*", line)
        if m:
            out.add(m.group(1).rstrip(".:,"))
    out.update(re.findall(r'<a id="([^"]+)"', text))
    return out


def load_known(path: Path, docs: Path) -> list[Known]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    targets = doc_targets(docs)
    out = []
    for e in data.get("divergence", []):
        if e.get("doc") not in targets:
            raise Blocked(f"{path.name}: entry {e.get('id')!r} names {e.get('doc')!r}, "
                          f"which is no heading or anchor of {docs.relative_to(REPO)}")
        out.append(Known(e["id"], e["doc"], {k: v for k, v in e.items() if k not in ("id", "doc")}))
    return out


# --------------------------------------------------------------------------
# Runs


@dataclass
class Divergence:
    sig: str
    seq: int
    index: int  # in the sequence
    stmt: gen.Stmt
    diffs: list
    widerow: dict
    cassandra: dict
    known: str | None = None
    count: int = 1
    case: str | None = None
    minimised_len: int | None = None
    original_len: int | None = None


# Errors the driver raises itself, with no frame from the node: timeouts on
# the client, lost connections. They say the node did not answer, not what it
# would answer, so a sequence holding one is not compared.
CLIENT_SIDE_ERRORS = frozenset({"NoHostAvailable", "OperationTimedOut", "ConnectionShutdown",
                                "ConnectionException", "ConnectionBusy"})
# After this many sequences the node did not answer, the run stops as blocked.
MAX_NODE_FAILURES = 5


@dataclass
class Stats:
    node_failures: int = 0
    sequences: int = 0
    compared: int = 0
    reads: int = 0
    abandoned: int = 0
    features: Counter = field(default_factory=Counter)
    types: Counter = field(default_factory=Counter)
    classes: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)
    trials: int = 0
    trial_seconds: float = 0.0


class Harness:
    def __init__(self, args, widerow: Widerow, cass: Cassandra, known: list[Known]):
        self.args = args
        self.w = widerow
        self.c = cass
        self.known = known
        self.norm = cmp.Normalisers()
        self.stats = Stats()
        self.divs: dict[str, Divergence] = {}
        # Keyspace names are the seed and this process: a rerun with the
        # same seed on a node that kept the last run's keyspaces must not
        # collide with them.
        self.run_id = f"{args.seed}p{os.getpid()}"
        self.trial_no = 0
        self.main_w = (0, 0.0)
        self.main_c = (0, 0.0)

    def ks(self, *parts) -> str:
        return "dt" + "_".join(str(p) for p in (self.run_id,) + parts)

    def run_both(self, stmts, ks, main=False):
        t0 = time.monotonic()
        a = self.w.run(stmts, ks)
        t1 = time.monotonic()
        b = self.c.run(stmts, ks)
        t2 = time.monotonic()
        if main:
            self.main_w = (self.main_w[0] + len(stmts), self.main_w[1] + t1 - t0)
            self.main_c = (self.main_c[0] + len(stmts), self.main_c[1] + t2 - t1)
        return a, b

    # ---- main loop
    def sequences(self, total: int):
        rng = random.Random(self.args.seed)
        done = 0
        q = 0
        while done < total:
            seed = rng.randrange(2**31)
            n = min(PER_SEQUENCE, max(10, total - done))
            g = gen.Gen(seed, n, force_desc=self.args.self_test)
            stmts = g.sequence()
            for t in g.tables:
                for c in t.cols:
                    self.stats.types[c.t.cql()] += 1
            self.one_sequence(q, seed, stmts)
            done += len(stmts)
            q += 1
            if not self.args.keep_going and any(not d.known for d in self.divs.values()):
                print(f"oracle: stopping at the first open divergence (--keep-going goes on)", file=sys.stderr)
                break
            if self.args.max_seconds and time.monotonic() - self.t0 > self.args.max_seconds:
                print(f"oracle: time limit reached after {q} sequences", file=sys.stderr)
                break

    def one_sequence(self, q, seed, stmts):
        ks = self.ks(q)
        a, b = self.run_both(stmts, ks, main=True)
        self.stats.sequences += 1
        failed = next((rb for rb in b if rb.get("error") in CLIENT_SIDE_ERRORS), None)
        if failed is not None:
            # The node did not answer (the driver's own error, no server frame):
            # nothing in this sequence can be judged.
            self.stats.node_failures += 1
            print(f"oracle: sequence {q} not judged, the node did not answer: "
                  f"{failed['error']}: {failed.get('message', '')[:200]}", file=sys.stderr)
            if self.stats.node_failures >= MAX_NODE_FAILURES:
                raise Blocked(f"the Cassandra node stopped answering ({self.stats.node_failures} "
                              f"sequences not judged; last: {failed['error']})")
            if self.args.drop_keyspaces:
                self.c.drop(ks)
            return
        for i, (s, ra, rb) in enumerate(zip(stmts, a, b)):
            self.stats.compared += 1
            self.stats.features[s.feature.split("/")[0]] += 1
            if ra.get("class"):
                self.stats.classes[ra["class"]] += 1
            if rb.get("kind") == "error":
                self.stats.errors[f"{rb.get('error')}"] += 1
            if s.feature.startswith("select") and rb.get("kind") == "rows":
                self.stats.reads += 1
            diffs = cmp.compare(s, ra, rb, self.norm)
            if diffs:
                self.record(q, seed, i, s, stmts, diffs, ra, rb)
                if s.schema:
                    # Everything after a schema divergence differs for that reason.
                    self.stats.abandoned += 1
                    break
        if self.args.drop_keyspaces:
            self.c.drop(ks)

    def record(self, q, seed, i, s, stmts, diffs, ra, rb):
        known = next((k.id for k in self.known if k.matches(s, diffs, ra, rb)), None)
        # A documented divergence never hides an open one of the same shape.
        sig = cmp.signature(s, diffs) + ("" if known is None else f"|known:{known}")
        if sig in self.divs:
            self.divs[sig].count += 1
            return
        d = Divergence(sig, q, i, s, diffs, ra, rb)
        d.known = known
        self.divs[sig] = d
        print(f"divergence [{'documented: ' + d.known if d.known else 'open'}] seq {q} (seed {seed}) "
              f"statement {i}: {diffs[0].field}\n  {render(s.text, 'ks')}\n"
              f"  widerow:   {cmp.text(diffs[0].widerow)[:300]}\n"
              f"  cassandra: {cmp.text(diffs[0].cassandra)[:300]}", file=sys.stderr)
        d.full = stmts

    def minimise_all(self, which=None):
        """Minimises the open divergences in the order found, within
        --max-cases and --minimise-seconds."""
        if not self.args.minimise:
            return
        t0 = time.monotonic()
        for d in [d for d in self.divs.values() if d.known is None and (which is None or which(d))]:
            if sum(1 for x in self.divs.values() if x.case) >= self.args.max_cases:
                break
            if time.monotonic() - t0 > self.args.minimise_seconds:
                print("oracle: minimisation time budget spent", file=sys.stderr)
                break
            self.minimise(d)
            if d.case:
                print(f"minimised: {d.sig} -> {d.case} ({d.minimised_len} statements)", file=sys.stderr)

    # ---- minimisation
    def reproduces(self, d: Divergence, schema, data):
        """Runs schema + data + [target] on both sides in a fresh keyspace;
        the records when the target still shows d's divergence, else None."""
        if self.trials_left <= 0:
            return None
        self.trials_left -= 1
        self.trial_no += 1
        self.stats.trials += 1
        t0 = time.monotonic()
        stmts = schema + data + [d.stmt]
        ks = self.ks("m", self.trial_no)
        a, b = self.run_both(stmts, ks)
        if self.args.drop_keyspaces:
            self.c.drop(ks)
        self.stats.trial_seconds += time.monotonic() - t0
        diffs = cmp.compare(d.stmt, a[-1], b[-1], cmp.Normalisers())
        if diffs and cmp.signature(d.stmt, diffs) == d.sig:
            return (stmts, a, b, ks)
        return None

    def minimise(self, d: Divergence):
        self.trials_left = self.args.max_trials
        full = d.full[: d.index]
        schema = [s for s in full if s.schema]
        data = [s for s in full if not s.schema]
        d.original_len = d.index + 1
        best = None
        if d.stmt.schema:
            best = self.reproduces(d, schema, [])
            data = []
            if not best:
                print(f"  (not reproduced in a fresh keyspace: {d.sig})", file=sys.stderr)
                return
        else:
            best = self.reproduces(d, schema, [])
            if best:
                data = []
            else:
                best = self.reproduces(d, schema, data)
                if not best:
                    print(f"  (not reproduced in a fresh keyspace: {d.sig})", file=sys.stderr)
                    return
                data, found = self.ddmin(d, schema, data)
                best = found or best
        # Then the schema statements the rest does not need.
        for s in [s for s in schema if s.role in ("index", "view", "table", "type")]:
            trial = [x for x in schema if x is not s]
            r = self.reproduces(d, trial, data)
            if r:
                schema, best = trial, r
        stmts, a, b, ks = best
        d.minimised_len = len(stmts)
        d.case = self.write_case(d, stmts, a, b, ks)

    def ddmin(self, d, schema, data):
        """Zeller's ddmin over the data statements before the target."""
        n = 2
        found = None
        while len(data) >= 2 and self.trials_left > 0:
            size = max(1, (len(data) + n - 1) // n)
            chunks = [data[i:i + size] for i in range(0, len(data), size)]
            reduced = False
            for j, ch in enumerate(chunks):
                comp = [x for k, c in enumerate(chunks) if k != j for x in c]
                r = self.reproduces(d, schema, comp)
                if r:
                    data, found, n, reduced = comp, r, max(n - 1, 2), True
                    break
            if not reduced and n > 2:
                for ch in chunks:
                    r = self.reproduces(d, schema, ch)
                    if r:
                        data, found, n, reduced = ch, r, 2, True
                        break
            if not reduced:
                if n >= len(data):
                    break
                n = min(len(data), 2 * n)
        if len(data) == 1 and self.trials_left > 0:
            r = self.reproduces(d, schema, [])
            if r:
                return [], r
        return data, found

    def write_case(self, d: Divergence, stmts, a, b, ks) -> str:
        out = Path(self.args.out) / "found"
        out.mkdir(parents=True, exist_ok=True)
        n = 1 + max([int(p.stem) for p in out.glob("[0-9][0-9][0-9].cql")] or [0])
        name = f"{n:03d}"
        diffs = cmp.compare(d.stmt, a[-1], b[-1], cmp.Normalisers())
        fix = lambda v: cmp.text(v).replace(ks, "ks")  # noqa: E731
        head = [
            f"-- Found by scripts/oracle (seed {self.args.seed}, sequence {d.seq}, statement {d.index}),",
            f"-- minimised from {d.original_len} to {len(stmts)} statements.",
            f"-- Signature: {d.sig}",
        ]
        for df in diffs:
            head.append(f"-- Differs in {df.field}:")
            head.append(f"--   widerow:   {fix(df.widerow)[:400]}")
            head.append(f"--   cassandra: {fix(df.cassandra)[:400]}")
        head.append("-- The .jsonl beside this holds Cassandra 5.0.8's answers; `class` is copied from")
        head.append("-- widerow's records (Cassandra has none) and must be checked by hand. The oracle ran")
        head.append("-- this unpaged: `PAGING OFF;` first in widerow's script, fetch_size=None in the driver.")
        lines = head + [""]
        jsonl = []
        for s, ra, rb in zip(stmts, a, b):
            lines.append(render(s.text, "ks") + ";")
            rec = {"line": len(lines)}
            rec.update({k: v for k, v in rb.items()})
            if ra.get("class") and (rb.get("kind") == ra.get("kind")):
                rec["class"] = ra["class"]
            jsonl.append(to_conformance_jsonl(rec, ks))
        (out / f"{name}.cql").write_text("\n".join(lines) + "\n", encoding="utf-8")
        (out / f"{name}.jsonl").write_text("\n".join(jsonl) + "\n", encoding="utf-8")
        return str(out / f"{name}.cql")


def to_conformance_jsonl(rec: dict, ks: str) -> str:
    order = ["line", "kind", "class", "columns", "types", "rows", "error", "message", "warnings"]
    keys = [k for k in order if k in rec]
    parts = []
    for k in keys:
        v = rec[k]
        parts.append(f'"{k}":' + (json.dumps(v, ensure_ascii=False) if isinstance(v, str) else jtext(v)))
    return ("{" + ",".join(parts) + "}").replace(ks, "ks")


def jtext(v) -> str:
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ",".join(jtext(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ",".join(json.dumps(str(k), ensure_ascii=False) + ":" + jtext(x) for k, x in v.items()) + "}"
    return cmp.text(v)


# --------------------------------------------------------------------------
# Reporting


def print_figures(h: Harness, elapsed: float):
    st = h.stats
    opened = [d for d in h.divs.values() if not d.known]
    documented = [d for d in h.divs.values() if d.known]
    print(f"seed: {h.args.seed}")
    print(f"sequences: {st.sequences} ({st.abandoned} stopped at a schema divergence)")
    if st.node_failures:
        print(f"sequences not judged (the node did not answer): {st.node_failures}")
    print(f"statements compared: {st.compared}; reads compared: {st.reads}")
    print(f"divergences: {len(opened)} open, {len(documented)} documented "
          f"({sum(d.count for d in opened)} + {sum(d.count for d in documented)} statements)")
    for k, n in sorted(Counter(d.known for d in documented).items()):
        print(f"  documented {k}: {n}")
    for d in opened:
        print(f"  open: {d.sig}  x{d.count}" + (f"  -> {d.case} ({d.minimised_len} statements)" if d.case else ""))
    print(f"minimised cases written: {sum(1 for d in h.divs.values() if d.case)} "
          f"({st.trials} trials, {st.trial_seconds:.1f} s)")
    print("coverage, statement kinds:")
    for k, n in sorted(st.features.items()):
        print(f"  {k}: {n}")
    print("coverage, CQL types in tables: " + ", ".join(f"{k} {n}" for k, n in sorted(st.types.items())))
    print("coverage, widerow classes: " + ", ".join(f"{k} {n}" for k, n in sorted(st.classes.items())))
    print("coverage, Cassandra errors: " + ", ".join(f"{k} {n}" for k, n in sorted(st.errors.items())))
    print("normalisers fired: " + (", ".join(f"{k} {n}" for k, n in sorted(h.norm.counts.items())) or "none"))
    ws = h.main_w[0] / h.main_w[1] if h.main_w[1] else 0
    cs = h.main_c[0] / h.main_c[1] if h.main_c[1] else 0
    print(f"time: {elapsed:.1f} s in all, {st.trial_seconds:.1f} s of it minimising; generated sequences: "
          f"widerow {h.main_w[0]} statements in {h.main_w[1]:.1f} s ({ws:.0f}/s), "
          f"cassandra {h.main_c[0]} in {h.main_c[1]:.1f} s ({cs:.0f}/s)")


# --------------------------------------------------------------------------
# Self-test


def swap_desc_rows(tables_with_desc):
    """The planted bug: swap the first two rows of any SELECT that returns at
    least two different rows from a table with a DESC clustering column."""
    def perturb(stmts, recs):
        out = []
        for s, r in zip(stmts, recs):
            rows = r.get("rows")
            if (r.get("kind") == "rows" and s.text.startswith("SELECT") and
                    re.search(r"\bFROM t\b", s.text) and rows and len(rows) >= 2 and rows[0] != rows[1]):
                r = dict(r)
                r["rows"] = [rows[1], rows[0]] + rows[2:]
            out.append(r)
        return out
    return perturb


def planted(d) -> bool:
    """Whether a divergence is the planted one: widerow's rows are
    Cassandra's with the first two swapped."""
    if d.diffs[0].field != "rows":
        return False
    a, b = d.diffs[0].widerow, d.diffs[0].cassandra
    return len(a) >= 2 and len(a) == len(b) and a[0] == b[1] and a[1] == b[0] and a[2:] == b[2:]


def self_test(h: Harness) -> int:
    h.w.perturb = swap_desc_rows(None)
    h.sequences(h.args.n)
    h.minimise_all(planted)
    found = [d for d in h.divs.values() if not d.known and planted(d)]
    problems = []
    if not found:
        problems.append("the planted row swap was not reported")
    cases = [d for d in found if d.case]
    if found and not cases:
        problems.append("the planted divergence was not minimised")
    for d in cases:
        text = Path(d.case).read_text()
        data = [x for x in text.splitlines() if x and not x.startswith("--") and
                not x.startswith(("CREATE", "USE", "PAGING"))]
        if len(data) > 6:
            problems.append(f"{d.case}: minimised to {len(data)} data statements (want <= 6)")
        if not Path(d.case).with_suffix(".jsonl").is_file():
            problems.append(f"{d.case}: no .jsonl beside it")
    for p in problems:
        print(f"self-test: FAIL: {p}")
    if not problems:
        best = min(cases, key=lambda d: d.minimised_len)
        print(f"self-test: ok: planted swap found {sum(d.count for d in found)} times, "
              f"minimised to {best.minimised_len} statements ({best.case})")
    return 1 if problems else 0


# --------------------------------------------------------------------------


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="oracle", description=__doc__.split("\n\n")[0])
    ap.add_argument("n", nargs="?", type=int, default=None, help="statements in all (about)")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--keep-going", action="store_true",
                    help="go on generating after the first open divergence")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--no-minimise", dest="minimise", action="store_false")
    ap.add_argument("--max-trials", type=int, default=40, help="trials per minimisation")
    ap.add_argument("--minimise-seconds", type=float, default=900,
                    help="time budget for all minimisations")
    ap.add_argument("--max-cases", type=int, default=None, help="minimised cases per run")
    ap.add_argument("--max-seconds", type=float, default=0, help="stop generating after this long")
    ap.add_argument("--keep-keyspaces", dest="drop_keyspaces", action="store_false",
                    help="keep each sequence's keyspace on the node (by default each is dropped "
                         "after use: a 1 GiB node runs out of heap after a few hundred)")
    ap.add_argument("--out", default=str(REPO / "target" / "oracle"))
    args = ap.parse_args(argv)
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(10**6)
    if args.max_cases is None:
        args.max_cases = 1 if args.self_test else 12
    if args.n is None:
        args.n = 300 if args.self_test else 2000
    t0 = time.monotonic()
    print(f"oracle: seed {args.seed}, about {args.n} statements", flush=True)
    try:
        known = load_known(HERE / "known.toml", REPO / "docs" / "divergences.md")
        binary = os.environ.get("WIDEROW_BIN", str(REPO / "target" / "release" / "widerow"))
        w = Widerow(binary, str(HERE / "widerow.toml"))
        why = w.check()
        if why:
            raise Blocked(why)
        if getattr(w, "config_refused", None):
            print(f"oracle: widerow refused {HERE.name}/widerow.toml ({w.config_refused}); running without it",
                  file=sys.stderr)
        host = os.environ.get("ORACLE_HOST", "127.0.0.1")
        port = int(os.environ.get("ORACLE_PORT", "19042"))
        try:
            c = Cassandra(host, port)
        except Exception as e:  # noqa: BLE001
            raise Blocked(f"no Cassandra node on {host}:{port}: {e}") from e
    except Blocked as e:
        print(f"blocked: {e}")
        print("oracle: 0 statements compared, 0 divergences")
        return 2
    h = Harness(args, w, c, known)
    h.t0 = t0
    try:
        if args.self_test:
            rc = self_test(h)
        else:
            h.sequences(args.n)
            h.minimise_all()
            rc = None
    except (ConnectionError, OSError, Blocked) as e:
        print(f"blocked: lost the Cassandra node: {e}")
        opened = sum(1 for d in h.divs.values() if not d.known)
        print(f"oracle: {h.stats.compared} statements compared, {opened} divergences")
        return 2
    print_figures(h, time.monotonic() - t0)
    c.close()
    opened = sum(1 for d in h.divs.values() if not d.known)
    print(f"oracle: {h.stats.compared} statements compared, {opened} divergences")
    if rc is not None:
        return rc
    return 0 if opened == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
