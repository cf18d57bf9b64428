"""Comparing one statement's record from widerow with Cassandra's.

Compared: kind, columns, types, rows (in order, or as a multiset where
Cassandra defines no order), warnings, and for errors the exception name and
the message.  Ignored: `line`, `class`, `metrics`, `notes` (widerow's own).

Every leniency is a named normaliser; `Normalisers.counts` says how often
each one was needed to make two records agree.
"""

from __future__ import annotations

import decimal
import re
from collections import Counter
from dataclasses import dataclass

IGNORED = {"line", "class", "metrics", "notes", "file"}
FIELDS = ("kind", "columns", "types", "rows", "warnings", "error", "message")

# Write times at or past this (2001-09-09 in microseconds) are the node's
# clock: an LWT may not carry USING TIMESTAMP, so its cells get the
# coordinator's time, which no two engines share.
WALLCLOCK_MICROS = 10**15
TTL_TOLERANCE_S = 120


def text(v) -> str:
    """A value's JSON text, the form values are compared in."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, (int, decimal.Decimal)):
        return str(v)
    if isinstance(v, str):
        return '"' + v + '"'
    if isinstance(v, list):
        return "[" + ",".join(text(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ",".join(f'"{k}":{text(x)}' for k, x in v.items()) + "}"
    return repr(v)


@dataclass
class Diff:
    field: str
    widerow: object
    cassandra: object
    detail: str = ""


class Normalisers:
    """The named normalisers, and how often each fired."""

    def __init__(self):
        self.counts: Counter = Counter()

    # Each returns True when it makes (a, b) agree; column name given for
    # cell-level ones.
    def ttl_tolerance(self, col: str, a, b) -> bool:
        """ttl() counts down in seconds: equal within TTL_TOLERANCE_S, element by
        element for a non-frozen collection's list of TTLs."""
        if not col.startswith("ttl("):
            return False

        def close(x, y) -> bool:
            if isinstance(x, list) and isinstance(y, list):
                return len(x) == len(y) and all(close(p, q) for p, q in zip(x, y))
            if isinstance(x, int) and isinstance(y, int):
                return abs(x - y) <= TTL_TOLERANCE_S
            return x is None and y is None
        return close(a, b)

    def wallclock_writetime(self, col: str, a, b) -> bool:
        """writetime()/maxwritetime() of a cell an LWT wrote: both sides' own clocks.
        In a list (one entry per element or field) each entry pairs up: equal,
        or both written by a clock."""
        if not col.startswith(("writetime(", "maxwritetime(")):
            return False

        def wall(x):
            return isinstance(x, int) and not isinstance(x, bool) and x >= WALLCLOCK_MICROS

        def pair(x, y):
            return x == y or (wall(x) and wall(y))

        if isinstance(a, list) and isinstance(b, list):
            return len(a) == len(b) and any(x != y for x, y in zip(a, b)) \
                and all(pair(x, y) for x, y in zip(a, b))
        return wall(a) and wall(b)

    def numeric_spelling(self, col: str, a, b) -> bool:
        """The same number spelt two ways (1E+1 / 10): equal as decimals."""
        if isinstance(a, (int, decimal.Decimal)) and isinstance(b, (int, decimal.Decimal)) \
                and not isinstance(a, bool) and not isinstance(b, bool):
            try:
                return decimal.Decimal(a) == decimal.Decimal(b) and type(a) is type(b)
            except decimal.InvalidOperation:
                return False
        return False

    CELL = ("ttl_tolerance", "wallclock_writetime")

    def message_whitespace(self, a: str, b: str) -> bool:
        """Error messages equal once runs of white space are one space."""
        return " ".join(str(a).split()) == " ".join(str(b).split())

    def cells_equal(self, col: str, a, b, fired: set) -> bool:
        if text(a) == text(b):
            return True
        for name in self.CELL:
            if getattr(self, name)(col, a, b):
                fired.add(name)
                return True
        return False

    def rows_equal(self, cols, ra, rb, fired: set) -> bool:
        if len(ra) != len(rb):
            return False
        return all(self.cells_equal(c, x, y, fired) for c, x, y in zip(cols, ra, rb))


def row_key(cols, row) -> str:
    # For multiset matching: cells the cell normalisers may excuse are left out.
    return "|".join("?" if c.startswith(("ttl(", "writetime(", "maxwritetime(")) else text(v)
                    for c, v in zip(cols, row))


def compare(stmt, a: dict, b: dict, norm: Normalisers) -> list[Diff]:
    """Differences between widerow's record `a` and Cassandra's `b`; empty
    when they agree (the normalisers that made them agree are counted)."""
    fired: set = set()
    diffs: list[Diff] = []
    if a.get("kind") != b.get("kind"):
        return [Diff("kind", a.get("kind"), b.get("kind"),
                     f"widerow {a.get('kind')} {a.get('error', '')}: {a.get('message', '')[:200]} / "
                     f"cassandra {b.get('kind')} {b.get('error', '')}: {b.get('message', '')[:200]}")]
    kind = a.get("kind")
    if kind == "error":
        if a.get("error") != b.get("error"):
            diffs.append(Diff("error", a.get("error"), b.get("error")))
        if a.get("message") != b.get("message"):
            if norm.message_whitespace(a.get("message", ""), b.get("message", "")):
                fired.add("message_whitespace")
            else:
                diffs.append(Diff("message", a.get("message"), b.get("message")))
    if kind == "rows":
        if a.get("columns") != b.get("columns"):
            diffs.append(Diff("columns", a.get("columns"), b.get("columns")))
        if a.get("types") != b.get("types"):
            diffs.append(Diff("types", a.get("types"), b.get("types")))
        cols = b.get("columns") or []
        ra, rb = a.get("rows") or [], b.get("rows") or []
        if not diffs:
            if len(ra) != len(rb):
                diffs.append(Diff("rows", ra, rb, f"{len(ra)} rows vs {len(rb)}"))
            elif all(norm.rows_equal(cols, x, y, fired) for x, y in zip(ra, rb)):
                pass
            elif getattr(stmt, "unordered", False) and \
                    Counter(row_key(cols, r) for r in ra) == Counter(row_key(cols, r) for r in rb):
                fired.add("unordered_rows")
            else:
                diffs.append(Diff("rows", ra, rb, "row values or order"))
    if list(a.get("warnings") or []) != list(b.get("warnings") or []):
        diffs.append(Diff("warnings", a.get("warnings"), b.get("warnings")))
    if not diffs:
        norm.counts.update(fired)
    return diffs


_LIT = re.compile(r"'(?:[^']|'')*'|0x[0-9a-fA-F]*|-?\b\d[\d.eE+-]*\b|[0-9a-f]{8}-[0-9a-f-]{27}"
                  r"|\b[kcsv]\d+\b|\bdt\d+(?:_\w+)?")


def shape(s: str) -> str:
    """A message or statement with its literals blanked, for grouping."""
    return _LIT.sub("_", str(s or ""))


def signature(stmt, diffs: list[Diff]) -> str:
    """What makes two divergences "the same" (for grouping and for the
    minimiser's "still shows the same divergence")."""
    d = diffs[0]
    if d.field == "kind":
        return f"{stmt.feature}|kind:{d.widerow}->{d.cassandra}|{shape(d.detail)[:160]}"
    if d.field in ("types", "columns") and isinstance(d.widerow, list) and isinstance(d.cassandra, list) \
            and len(d.widerow) == len(d.cassandra):
        pairs = sorted({f"{x}->{y}" for x, y in zip(d.widerow, d.cassandra) if x != y})
        return f"{d.field}|{shape(','.join(pairs))}"
    if d.field in ("message", "error", "warnings"):
        return f"{stmt.feature.split('/')[0]}|{d.field}|{shape(text(d.cassandra))[:160]}"
    return f"{stmt.feature.split('/')[0]}|{d.field}"
