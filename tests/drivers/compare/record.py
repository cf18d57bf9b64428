"""Records what the Python driver answers for each step of a steps file —
columns and their types, rows, page sizes, warnings, errors as the driver's
exception classes — as one JSON line per step, so the same steps run against
widerow serve and a real Cassandra node can be diffed line by line.

    python record.py HOST PORT STEPS.cql OUT.jsonl

A steps file is CQL, one statement per step, each ending with `;` at the end
of a line (a batch: at its `APPLY BATCH;`). A comment line just before a statement says how it is sent:

    -- @prepared [1, "one"]     prepare it, then execute with these values
    -- @page 3                  a simple statement fetched 3 rows a page
    -- @consistency QUORUM      at this level (default ONE)

Values in `@prepared` are JSON, decoded to Python values for the driver's
codecs; `{"uuid": "..."}`, `{"decimal": "..."}`, `{"blob": "hex"}`,
`{"set": [...]}` and `{"date": "YYYY-MM-DD"}` name the others; `{"unset": true}`
is the protocol's UNSET value.
"""

import datetime
import decimal
import json
import sys
import uuid

from cassandra import ConsistencyLevel
from cassandra.cluster import EXEC_PROFILE_DEFAULT, Cluster, ExecutionProfile
from cassandra.policies import DCAwareRoundRobinPolicy, FallthroughRetryPolicy, TokenAwarePolicy
from cassandra.query import UNSET_VALUE, SimpleStatement
from cassandra.util import Date, OrderedMapSerializedKey, SortedSet


def steps_of(text):
    """(line, directives, statement) for each statement of a steps file."""
    steps, directives, lines, first = [], {}, [], None
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not lines and stripped.startswith("-- @"):
            name, _, arg = stripped[4:].partition(" ")
            directives[name] = arg.strip()
            continue
        if not lines and (not stripped or stripped.startswith("--")):
            continue
        first = first or number
        lines.append(line)
        in_batch = lines[0].lstrip().upper().startswith("BEGIN")
        if stripped.endswith(";") and (not in_batch or stripped.upper().endswith("APPLY BATCH;")):
            steps.append((first, directives, "\n".join(lines).rstrip()[:-1]))
            directives, lines, first = {}, [], None
    if lines:
        raise SystemExit(f"steps: the statement at line {first} has no ';'")
    return steps


def bind_value(v):
    if isinstance(v, dict) and len(v) == 1:
        (kind, x), = v.items()
        return {
            "uuid": lambda: uuid.UUID(x),
            "decimal": lambda: decimal.Decimal(x),
            "blob": lambda: bytes.fromhex(x),
            "set": lambda: set(bind_value(i) for i in x),
            "date": lambda: datetime.date.fromisoformat(x),
            "map": lambda: {bind_value(k): bind_value(w) for k, w in x},
            "unset": lambda: UNSET_VALUE,
        }[kind]()
    if isinstance(v, list):
        return [bind_value(i) for i in v]
    return v


def plain(value):
    """A value as JSON can hold it, its Python type kept in the name."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return {"float": repr(value)}
    if isinstance(value, (bytes, bytearray)):
        return {"blob": bytes(value).hex()}
    if isinstance(value, (OrderedMapSerializedKey, dict)):
        return {"map": [[plain(k), plain(v)] for k, v in value.items()]}
    if isinstance(value, (SortedSet, set, frozenset)):
        return {"set": [plain(v) for v in value]}
    if isinstance(value, (list, tuple)):
        return {type(value).__name__: [plain(v) for v in value]}
    if hasattr(value, "_fields"):  # a UDT as a named tuple
        return {"udt": {f: plain(getattr(value, f)) for f in value._fields}}
    if isinstance(value, Date):
        return {"date": str(value)}
    return {type(value).__name__: str(value)}


def error_of(e):
    return {"class": type(e).__name__, "text": str(e)}


def run_step(session, directives, cql):
    level = getattr(ConsistencyLevel, directives.get("consistency", "ONE"))
    page = int(directives["page"]) if "page" in directives else None
    if "prepared" in directives:
        prepared = session.prepare(cql)
        prepared.consistency_level = level
        values = [bind_value(v) for v in json.loads(directives["prepared"])]
        statement, args = prepared.bind(values), None
        if page:
            statement.fetch_size = page
    else:
        statement, args = SimpleStatement(cql, consistency_level=level, fetch_size=page), None
    result = session.execute(statement, args)
    answer = {"warnings": list(result.response_future.warnings or [])}
    if result.column_names:
        answer["columns"] = [
            [name, t.cql_parameterized_type()]
            for name, t in zip(result.column_names, result.column_types)
        ]
        pages = [len(result.current_rows)]
        rows = [[plain(v) for v in row] for row in result.current_rows]
        while result.has_more_pages:
            result.fetch_next_page()
            pages.append(len(result.current_rows))
            rows.extend([plain(v) for v in row] for row in result.current_rows)
        answer["rows"] = rows
        if page:
            answer["pages"] = pages
    return answer


def main():
    host, port, steps_path, out_path = sys.argv[1:5]
    profile = ExecutionProfile(
        load_balancing_policy=TokenAwarePolicy(DCAwareRoundRobinPolicy()),
        retry_policy=FallthroughRetryPolicy(),
        request_timeout=30,
    )
    cluster = Cluster(
        [host], port=int(port), execution_profiles={EXEC_PROFILE_DEFAULT: profile},
        connect_timeout=10, control_connection_timeout=10,
    )
    session = cluster.connect()
    with open(steps_path) as f:
        steps = steps_of(f.read())
    with open(out_path, "w") as out:
        for line, directives, cql in steps:
            try:
                answer = run_step(session, directives, cql)
            except Exception as e:  # the driver's exception is the answer
                answer = {"error": error_of(e)}
            out.write(json.dumps({"line": line, **answer}, sort_keys=True) + "\n")
    cluster.shutdown()


if __name__ == "__main__":
    main()
