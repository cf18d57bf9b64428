"""Comparing widerow's JSON Lines records with the oracle's (cassandra_side.run).

``load_record(line) -> dict``            a JSON line, numbers kept exact (ints, Decimal)
``differences(expected, actual) -> list[str]``
    What differs between two records, ignoring ``line``, ``class``, ``metrics`` and
    ``file`` (widerow's own facts); empty when they agree. Values are compared by the
    column's CQL type: float and double by their binary value (digit strings may differ
    in JDK 17's rare non-shortest cases), other numbers exactly, maps with their key
    order, booleans never equal to numbers.
"""

from __future__ import annotations

import decimal
import json
import math
import struct

IGNORED_KEYS = ("line", "class", "metrics", "file")


def load_record(line: str) -> dict:
    return json.loads(line, parse_float=decimal.Decimal)


def parse_type(text: str):
    """'frozen<map<text, list<int>>>' -> ('map', [('text', []), ('list', [('int', [])])])."""
    text = text.strip()

    def parse(i: int):
        j = i
        while j < len(text) and text[j] not in "<>,":
            j += 1
        name = text[i:j].strip()
        args = []
        if j < len(text) and text[j] == "<":
            j += 1
            while True:
                arg, j = parse(j)
                args.append(arg)
                while j < len(text) and text[j] == " ":
                    j += 1
                if j < len(text) and text[j] == ",":
                    j += 1
                    continue
                if j < len(text) and text[j] == ">":
                    j += 1
                break
        if name == "frozen" and args:
            return args[0], j
        return (name, args), j

    return parse(0)[0]


def _is_number(v) -> bool:
    return isinstance(v, (int, decimal.Decimal, float)) and not isinstance(v, bool)


def _as_float(v, single: bool):
    if isinstance(v, str):
        return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}.get(v)
    if not _is_number(v):
        return None
    f = float(v)
    if single:
        try:
            f = struct.unpack(">f", struct.pack(">f", f))[0]
        except OverflowError:
            return None
    return f


def same_value(ty, a, b) -> bool:
    name, args = ty if ty else ("", [])
    if a is None or b is None:
        return a is None and b is None
    if name in ("float", "double"):
        fa, fb = _as_float(a, name == "float"), _as_float(b, name == "float")
        if fa is None or fb is None:
            return a == b and type(a) is type(b)
        if math.isnan(fa) or math.isnan(fb):
            return math.isnan(fa) and math.isnan(fb)
        return fa == fb and math.copysign(1, fa) == math.copysign(1, fb)
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if _is_number(a) and _is_number(b):
        return decimal.Decimal(a) == decimal.Decimal(b)
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str) and a == b
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return False
        if name == "tuple":
            types = list(args) + [None] * (len(a) - len(args))
        elif name in ("list", "set", "vector") and args:
            types = [args[0]] * len(a)
        else:
            types = [None] * len(a)
        return all(same_value(t, x, y) for t, x, y in zip(types, a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a.keys()) != list(b.keys()):
            return False
        vt = args[1] if name == "map" and len(args) == 2 else None
        return all(same_value(vt, a[k], b[k]) for k in a)
    return a == b


def _show(v) -> str:
    from cassandra_side import to_json_text  # same writer as the records

    return to_json_text(v)


def differences(expected: dict, actual: dict) -> list[str]:
    out = []
    e = {k: v for k, v in expected.items() if k not in IGNORED_KEYS}
    a = {k: v for k, v in actual.items() if k not in IGNORED_KEYS}
    if e.get("kind") != a.get("kind"):
        return [f"kind: expected {e.get('kind')}, Cassandra {a.get('kind')}"]
    for key in ("error", "message", "columns", "types", "warnings"):
        if key in e or key in a:
            if e.get(key) != a.get(key):
                out.append(f"{key}: expected {_show(e.get(key))}, Cassandra {_show(a.get(key))}")
    if "rows" in e or "rows" in a:
        er, ar = e.get("rows") or [], a.get("rows") or []
        types = [parse_type(t) for t in (a.get("types") or e.get("types") or [])]
        if len(er) != len(ar):
            out.append(f"rows: expected {len(er)} rows, Cassandra {len(ar)}")
        else:
            for i, (x, y) in enumerate(zip(er, ar)):
                if len(x) != len(y) or not all(
                    same_value(types[j] if j < len(types) else None, x[j], y[j]) for j in range(len(x))
                ):
                    out.append(f"row {i}: expected {_show(x)}, Cassandra {_show(y)}")
    for key in set(e) | set(a):
        if key not in ("kind", "error", "message", "columns", "types", "warnings", "rows") and e.get(key) != a.get(key):
            out.append(f"{key}: expected {_show(e.get(key))}, Cassandra {_show(a.get(key))}")
    return out
