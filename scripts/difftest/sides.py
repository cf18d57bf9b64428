"""The two sides of a comparison: widerow (one process per sequence) and a
real Cassandra node (through cassandra_side, the oracle's driver module).

Both return, for a list of statements, one record per statement in widerow's
JSON Lines shape.  Values are parsed the same way on both sides (decimal
numbers as `decimal.Decimal`, so digits survive), so the comparator can
compare them as text.
"""

from __future__ import annotations

import decimal
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent


def load_cassandra_side():
    """cassandra_side.py, beside this file."""
    place = HERE / "cassandra_side.py"
    spec = importlib.util.spec_from_file_location("cassandra_side", place)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["cassandra_side"] = mod
    spec.loader.exec_module(mod)
    return mod


def render(text: str, ks: str) -> str:
    return text.replace("{ks}", ks)


def parse_json(line: str):
    return json.loads(line, parse_float=decimal.Decimal)


class Widerow:
    """Runs a statement list as one `widerow -f` script."""

    def __init__(self, binary: str, config: str | None):
        self.binary = binary
        self.config = config
        self.seconds = 0.0
        self.statements = 0
        self.perturb = None  # (stmts, records) -> records, for the self-test

    def check(self) -> str | None:
        """None when the binary runs with the config; else why not.  When the
        config is refused (widerow before its [cassandra] section), the
        config is dropped and a note returned instead."""
        if not os.access(self.binary, os.X_OK):
            return f"widerow binary {self.binary} is missing or not executable"
        if self.config:
            p = subprocess.run([self.binary, "--config", self.config, "--format", "json", "-e", "PAGING OFF;"],
                               capture_output=True, text=True)
            if p.returncode == 1:
                self.config_refused = p.stderr.strip() or p.stdout.strip()
                self.config = None
        p = subprocess.run([self.binary, "--format", "json", "-e", "PAGING OFF;"], capture_output=True, text=True)
        if p.returncode not in (0, 2):
            return f"widerow does not run: {p.stderr.strip()[:300]}"
        return None

    def run(self, stmts, ks: str) -> list[dict]:
        lines = ["PAGING OFF;"] + [render(s.text, ks) + ";" for s in stmts]
        with tempfile.NamedTemporaryFile("w", suffix=".cql", delete=False, encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
            path = f.name
        cmd = [self.binary]
        if self.config:
            cmd += ["--config", self.config]
        cmd += ["--format", "json", "-f", path]
        t0 = time.monotonic()
        try:
            p = subprocess.run(cmd, capture_output=True, timeout=300)
        except subprocess.TimeoutExpired:
            os.unlink(path)
            return [{"kind": "error", "error": "HarnessTimeout", "message": "widerow took over 300 s"}
                    for _ in stmts]
        self.seconds += time.monotonic() - t0
        self.statements += len(stmts)
        os.unlink(path)
        out: list[dict | None] = [None] * len(stmts)
        for raw in p.stdout.decode("utf-8", errors="replace").splitlines():
            raw = raw.strip()
            if not raw.startswith("{"):
                continue
            try:
                rec = parse_json(raw)
            except ValueError:
                continue
            i = rec.get("line", 0) - 2
            if 0 <= i < len(stmts) and out[i] is None:
                out[i] = rec
        for i, r in enumerate(out):
            if r is None:
                out[i] = {"kind": "missing", "message": "widerow wrote no record for this statement"
                          + (f" (exit {p.returncode}: {p.stderr.decode(errors='replace').strip()[:200]})"
                             if p.returncode not in (0, 2) else "")}
        if self.perturb:
            out = self.perturb(stmts, out)
        return out


class Cassandra:
    """Runs statements one by one on the node through cassandra_side.run."""

    def __init__(self, host: str, port: int):
        self.cs = load_cassandra_side()
        self.session = self.cs.connect(host, port)
        self.seconds = 0.0
        self.statements = 0
        self.dropped: list[str] = []

    def run(self, stmts, ks: str) -> list[dict]:
        out = []
        t0 = time.monotonic()
        for s in stmts:
            rec = self.cs.run(self.session, render(s.text, ks))
            # Through the same JSON text as widerow's records, so both sides
            # hold the same Python types.
            out.append(parse_json(self.cs.to_jsonl(rec)))
        self.seconds += time.monotonic() - t0
        self.statements += len(stmts)
        return out

    def drop(self, ks: str):
        """Drops a keyspace and waits for it: a node's schema changes slow down
        with every table it holds, and drops left in flight pile up behind
        the next sequence's statements until they time out."""
        try:
            self.session.execute(f"DROP KEYSPACE IF EXISTS {ks}", timeout=60)
        except Exception as e:  # noqa: BLE001 - the next CREATE will say if the node is gone
            print(f"oracle: could not drop {ks}: {e}", file=sys.stderr)

    def close(self):
        self.cs.close(self.session)
