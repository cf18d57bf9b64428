"""The Cassandra side of widerow's oracle: run CQL on a real Cassandra 5.0 node
and write each result as ONE record in widerow's JSON Lines shape.

Start a node with ``scripts/cassandra/node start --wait`` (CQL on 127.0.0.1:19042),
make the venv with ``scripts/difftest/venv.sh``, then::

    import cassandra_side as cs
    session = cs.connect()                       # protocol v5, retries while the node warms up
    rec = cs.run(session, "SELECT k, v FROM ks.t WHERE k = 1")
    print(cs.to_jsonl(rec))
    # {"kind":"rows","columns":["k","v"],"types":["int","text"],"rows":[[1,"a"]],"warnings":[]}

Stable API (other scripts import it; add to it, do not change it):

``connect(host="127.0.0.1", port=19042, *, clock=None, keyspace=None, retry_for=120.0) -> Session``
    A driver session on one node, protocol v5, ready for :func:`run`. ``clock`` is an
    optional :class:`Clock` that gives writes widerow's deterministic write timestamps.
``run(session, statement, *, paged=False) -> dict``
    Executes one statement (no trailing ``;`` needed) and returns one record:
    ``{"kind": "ok", "warnings": [...]}``,
    ``{"kind": "rows", "columns": [...], "types": [...], "rows": [[...]], "warnings": [...]}`` or
    ``{"kind": "error", "error": "InvalidRequest", "message": "..."}``.
    Unpaged by default (``fetch_size=None``); ``paged=True`` pages by 100 rows, as cqlsh and
    widerow's scripts do, and returns all pages. Values are Python values as JSON would
    hold them: ints, ``decimal.Decimal`` for decimal/float/double (exact digits), str,
    bool, None, lists, dicts (in Cassandra's order). ``line`` and ``class`` are never
    set: they are widerow's planner facts.
``prepare(session, statement) -> dict``
    Prepares without executing: ``{"kind": "ok", "warnings": []}`` or an error record.
    (For statements with ``?`` markers: Cassandra checks restrictions at prepare time.)
``to_jsonl(record) -> str``
    The record as one compact JSON line, keys in widerow's order, numbers with their
    exact digits.
``split_statements(text) -> list[Statement]``
    Splits a script as cqlsh does (``;`` in strings, ``$$`` bodies and comments does not
    count; ``BEGIN … APPLY BATCH;`` is one statement). Each ``Statement`` has ``line``
    (1-based start line), ``text`` (the original text, without the ``;``), ``directives``
    (``-- @name args`` comment lines met since the previous statement, as
    ``(name, args)`` tuples) and ``complete`` (False for text left without a ``;`` at end).
``Clock(start_micros=1748736000000000)``
    widerow's conformance clock: the session starts at 2025-06-01 00:00:00Z; every
    INSERT/UPDATE/DELETE/BATCH gets ``max(now, last + 1)`` microseconds as its write
    timestamp (the driver sends it; ``USING TIMESTAMP`` still wins on the server);
    ``advance(seconds)`` moves ``now``. Only write timestamps follow it: the node's own
    clock (TTL expiry, ``now()``, LWT ballots) is the machine's.
``drop_user_keyspaces(session)``, ``reset(session) -> Session``
    Drop every non-system keyspace; ``reset`` also gives a fresh session (no current
    keyspace) with the clock back at its start.
``close(session)``
"""

from __future__ import annotations

import decimal
import logging
import math
import re
import struct
import time
import uuid as _uuid
from dataclasses import dataclass, field
from typing import Any

from cassandra import ProtocolVersion
from cassandra.cluster import Cluster, NoHostAvailable, ResponseFuture
from cassandra.policies import RoundRobinPolicy
from cassandra.protocol import (
    ErrorMessage,
    PrepareMessage,
    ResultMessage,
    _ProtocolHandler,
    read_int,
)
from cassandra.query import SimpleStatement
from cassandra.timestamps import MonotonicTimestampGenerator

__all__ = [
    "Clock",
    "Statement",
    "close",
    "connect",
    "drop_user_keyspaces",
    "prepare",
    "reset",
    "run",
    "split_statements",
    "to_jsonl",
]

# The driver logs every server warning and every reconnection; the records carry
# what matters.
logging.getLogger("cassandra").setLevel(logging.CRITICAL)

PAGE_SIZE = 100  # cqlsh's and widerow's scripts' page size
SYSTEM_KEYSPACES = frozenset(
    {
        "system",
        "system_auth",
        "system_distributed",
        "system_schema",
        "system_traces",
        "system_views",
        "system_virtual_schema",
    }
)

# ---------------------------------------------------------------------------
# Raw results: the driver decodes values into Python types that lose what
# toJson() writes (float digits, timestamp range, decimal scale, duration
# units, UDT field names). A protocol handler that keeps each cell's bytes lets
# this module decode them itself, exactly.


class _ColName(str):
    """A column name that also remembers the keyspace and table of its result column."""

    keyspace: str | None = None
    table: str | None = None


class _RawResultMessage(ResultMessage):
    def recv_results_rows(self, f, protocol_version, user_type_map, result_metadata, column_encryption_policy):
        self.recv_results_metadata(f, user_type_map)
        column_metadata = self.column_metadata or result_metadata
        rowcount = read_int(f)
        self.parsed_rows = [self.recv_row(f, len(column_metadata)) for _ in range(rowcount)]
        names = []
        for ks, table, name, _ctype in column_metadata:
            n = _ColName(name)
            n.keyspace, n.table = ks, table
            names.append(n)
        self.column_names = names
        self.column_types = [c[3] for c in column_metadata]


class _ErrorCapture:
    # A plain global, not thread-local: frames are decoded on the driver's event-loop
    # thread. run() sends one request at a time, so the last frame is its own.
    last: Any = None


_errors = _ErrorCapture()


class _CapturingErrorMessage(ErrorMessage):
    """Records the server's error frame (code and message as sent) before the driver
    turns it into an exception whose text is the driver's own."""

    @classmethod
    def recv_body(cls, f, protocol_version, *args):
        msg = ErrorMessage.recv_body(f, protocol_version, *args)
        _errors.last = (msg.code, msg.message)
        return msg


class _RawProtocolHandler(_ProtocolHandler):
    message_types_by_opcode = dict(_ProtocolHandler.message_types_by_opcode)
    message_types_by_opcode[ResultMessage.opcode] = _RawResultMessage
    message_types_by_opcode[ErrorMessage.opcode] = _CapturingErrorMessage


def _raw_rows(colnames, rows):
    return rows


# Cassandra's exception for each native-protocol error code, named as the drivers
# and cqlsh name them (widerow's ErrorKind names the first six the same way).
ERROR_NAMES = {
    0x0000: "ServerError",
    0x000A: "ProtocolError",
    0x0100: "AuthenticationFailed",
    0x1000: "Unavailable",
    0x1001: "Overloaded",
    0x1002: "IsBootstrapping",
    0x1003: "TruncateError",
    0x1100: "WriteTimeout",
    0x1200: "ReadTimeout",
    0x1300: "ReadFailure",
    0x1400: "FunctionFailure",
    0x1500: "WriteFailure",
    0x1600: "CDCWriteFailure",
    0x1700: "CASWriteUnknown",
    0x2000: "SyntaxException",
    0x2100: "Unauthorized",
    0x2200: "InvalidRequest",
    0x2300: "ConfigurationException",
    0x2400: "AlreadyExists",
    0x2500: "Unprepared",
}

_SUMMARY_RE = re.compile(r'^Error from server: code=([0-9a-fA-F]{4}) \[[^\]]*\] message="(.*)"$', re.S)

# ---------------------------------------------------------------------------
# The clock


class Clock:
    """widerow's conformance clock for write timestamps (see the module docstring)."""

    START_MICROS = 1748736000000000  # 2025-06-01 00:00:00.000Z

    def __init__(self, start_micros: int = START_MICROS):
        self.start_micros = start_micros
        self.reset()

    def reset(self) -> None:
        self.now_micros = self.start_micros
        self.last = None
        self._pending = None

    def advance(self, seconds: float) -> None:
        self.now_micros += int(seconds * 1_000_000)

    def next_write(self) -> int:
        """The timestamp the next write would get (not yet taken)."""
        return self.now_micros if self.last is None else max(self.now_micros, self.last + 1)

    # driver side
    def _arm(self) -> None:
        self._pending = self.next_write()

    def _commit(self) -> None:
        if self._pending is not None:
            self.last = self._pending
        self._pending = None

    def _disarm(self) -> None:
        self._pending = None

    def __call__(self) -> int:  # the driver's timestamp_generator
        return self._pending if self._pending is not None else self.now_micros


class _State:
    def __init__(self, cluster: Cluster, clock: Clock | None):
        self.cluster = cluster
        self.clock = clock
        self.schema: dict[tuple[str, str], dict[str, str]] = {}


_states: dict[int, _State] = {}


def _state(session) -> _State:
    return _states[id(session)]


# ---------------------------------------------------------------------------
# Sessions


def _new_session(state: _State, keyspace: str | None = None):
    session = state.cluster.connect(keyspace)
    session.client_protocol_handler = _RawProtocolHandler
    session.row_factory = _raw_rows
    session.default_timeout = 120.0
    session.default_fetch_size = None
    _states[id(session)] = state
    return session


def connect(host: str = "127.0.0.1", port: int = 19042, *, clock: Clock | None = None,
            keyspace: str | None = None, retry_for: float = 120.0):
    """A session on the node at host:port (protocol v5). Retries for ``retry_for``
    seconds while the node is still starting."""
    gen = clock if clock is not None else MonotonicTimestampGenerator()
    deadline = time.monotonic() + retry_for
    last_error = None
    while True:
        cluster = Cluster(
            [host],
            port=port,
            protocol_version=ProtocolVersion.V5,
            load_balancing_policy=RoundRobinPolicy(),
            schema_metadata_enabled=False,
            token_metadata_enabled=False,
            max_schema_agreement_wait=0,
            connect_timeout=10,
            control_connection_timeout=10,
            timestamp_generator=gen,
        )
        try:
            state = _State(cluster, clock)
            session = _new_session(state, keyspace)
            return session
        except (NoHostAvailable, OSError) as e:  # not up yet
            last_error = e
            cluster.shutdown()
            if time.monotonic() > deadline:
                raise ConnectionError(f"no Cassandra node answered on {host}:{port}: {last_error}") from e
            time.sleep(1.0)


def close(session) -> None:
    state = _states.pop(id(session), None)
    if state is not None:
        state.cluster.shutdown()


def drop_user_keyspaces(session) -> list[str]:
    """Drops every keyspace that is not a system one; returns their names."""
    rec = run(session, "SELECT keyspace_name FROM system_schema.keyspaces")
    names = [r[0] for r in rec.get("rows", []) if r[0] not in SYSTEM_KEYSPACES]
    for name in names:
        quoted = '"' + name.replace('"', '""') + '"'
        run(session, f"DROP KEYSPACE IF EXISTS {quoted}")
    _state(session).schema.clear()
    return names


def reset(session):
    """Drops the user keyspaces, puts the clock back to its start and returns a fresh
    session (no current keyspace) on the same connection pool's cluster."""
    state = _state(session)
    drop_user_keyspaces(session)
    _states.pop(id(session), None)
    session.shutdown()
    if state.clock is not None:
        state.clock.reset()
    return _new_session(state)


# ---------------------------------------------------------------------------
# Running statements

_WRITE_RE = re.compile(r"^\s*(INSERT|UPDATE|DELETE|BEGIN)\b", re.I)
_SCHEMA_RE = re.compile(r"^\s*(CREATE|ALTER|DROP|USE|TRUNCATE)\b", re.I)


def _error_record(exc: BaseException) -> dict:
    captured = _errors.last
    if captured is not None:
        code, message = captured
        return {"kind": "error", "error": ERROR_NAMES.get(code, f"Error{code:04x}"), "message": message}
    text = str(exc)
    m = _SUMMARY_RE.match(text)
    if m:
        code = int(m.group(1), 16)
        return {"kind": "error", "error": ERROR_NAMES.get(code, f"Error{code:04x}"), "message": m.group(2)}
    # raised by the driver itself (timeouts, connection loss): no server frame
    return {"kind": "error", "error": type(exc).__name__, "message": text}


def run(session, statement: str, *, paged: bool = False) -> dict:
    """Executes one CQL statement and returns one widerow-shaped record (see module doc)."""
    state = _state(session)
    text = statement.strip()
    if text.endswith(";"):
        text = text[:-1]
    is_write = bool(_WRITE_RE.match(text))
    clock = state.clock
    if clock is not None and is_write:
        clock._arm()
    _errors.last = None
    stmt = SimpleStatement(text, fetch_size=PAGE_SIZE if paged else None)
    try:
        future = session.execute_async(stmt)
        result = future.result()
    except Exception as exc:  # noqa: BLE001 - every failure becomes a record
        record = _error_record(exc)
        if clock is not None:
            # widerow consumes a timestamp for a write that fails while executing
            # (it was planned); refusals before that do not. The server does not
            # say which; count only unavailability and timeouts as executed.
            if is_write and record["error"] in ("Unavailable", "WriteTimeout", "WriteFailure"):
                clock._commit()
            clock._disarm()
        if _SCHEMA_RE.match(text):
            state.schema.clear()
        return record
    if clock is not None and is_write:
        clock._commit()
    if _SCHEMA_RE.match(text):
        state.schema.clear()
    warnings = list(future.warnings or [])
    names = result.column_names
    if names is None:  # VOID, SET_KEYSPACE, SCHEMA_CHANGE
        return {"kind": "ok", "warnings": warnings}
    ctypes = result.column_types
    rows = list(result.current_rows)
    while result.has_more_pages:
        result.fetch_next_page()
        rows.extend(result.current_rows)
        for w in result.response_future.warnings or []:
            if w not in warnings:
                warnings.append(w)
    types = [_column_type_name(session, n, t) for n, t in zip(names, ctypes)]
    out_rows = [[_decode(t, raw) for t, raw in zip(ctypes, row)] for row in rows]
    return {
        "kind": "rows",
        "columns": [str(n) for n in names],
        "types": types,
        "rows": out_rows,
        "warnings": warnings,
    }


def prepare(session, statement: str) -> dict:
    """Prepares one statement without executing it: an ok record or an error record."""
    text = statement.strip()
    if text.endswith(";"):
        text = text[:-1]
    _errors.last = None
    message = PrepareMessage(query=text, keyspace=None)
    future = ResponseFuture(session, message, query=None, timeout=session.default_timeout)
    future._protocol_handler = _RawProtocolHandler
    try:
        future.send_request()
        future.result()
    except Exception as exc:  # noqa: BLE001
        return _error_record(exc)
    return {"kind": "ok", "warnings": list(future.warnings or [])}


# ---------------------------------------------------------------------------
# Type names, as widerow (and Cassandra's CQL3Type) writes them

_SIMPLE_NAMES = {
    "varchar": "text",
    "text": "text",
    "ascii": "ascii",
    "bigint": "bigint",
    "blob": "blob",
    "boolean": "boolean",
    "counter": "counter",
    "date": "date",
    "decimal": "decimal",
    "double": "double",
    "duration": "duration",
    "float": "float",
    "inet": "inet",
    "int": "int",
    "smallint": "smallint",
    "time": "time",
    "timestamp": "timestamp",
    "timeuuid": "timeuuid",
    "tinyint": "tinyint",
    "uuid": "uuid",
    "varint": "varint",
}


def _kind(ctype) -> str:
    cass = getattr(ctype, "cassname", "") or ""
    if cass == "VectorType" or ctype.typename == "org.apache.cassandra.db.marshal.VectorType":
        return "vector"
    if cass == "UserType":
        return "udt"
    if cass == "ReversedType":
        return "reversed"
    return ctype.typename


def _quote_ident(name: str) -> str:
    if re.fullmatch(r"[a-z][a-z0-9_]*", name):
        return name
    return '"' + name.replace('"', '""') + '"'


def _wire_type_name(ctype, top: bool = True) -> str:
    """The CQL name of a wire type. The protocol does not say what is frozen: at top
    level a collection or UDT is written non-frozen / frozen as the schema lookup
    decides (see _column_type_name); nested ones are always frozen, as Cassandra
    requires; tuples are always frozen."""
    kind = _kind(ctype)
    if kind in _SIMPLE_NAMES:
        return _SIMPLE_NAMES[kind]
    if kind == "reversed":
        return _wire_type_name(ctype.subtypes[0], top)
    if kind in ("list", "set"):
        bare = f"{kind}<{_wire_type_name(ctype.subtypes[0], False)}>"
        return bare if top else f"frozen<{bare}>"
    if kind == "map":
        k, v = ctype.subtypes
        bare = f"map<{_wire_type_name(k, False)}, {_wire_type_name(v, False)}>"
        return bare if top else f"frozen<{bare}>"
    if kind == "tuple":
        return "frozen<tuple<" + ", ".join(_wire_type_name(t, False) for t in ctype.subtypes) + ">>"
    if kind == "udt":
        return f"frozen<{_quote_ident(ctype.typename)}>"
    if kind == "vector":
        return f"vector<{_wire_type_name(ctype.subtype, False)}, {ctype.vector_size}>"
    return getattr(ctype, "cass_parameterized_type", lambda: str(ctype))()


def _unfreeze(name: str) -> str:
    return re.sub(r"frozen<", "", name).replace(">", "").replace(" ", "")


def _schema_columns(session, keyspace: str, table: str) -> dict[str, str]:
    state = _state(session)
    key = (keyspace, table)
    if key not in state.schema:
        cols: dict[str, str] = {}
        for ks_table in ("system_schema.columns",):
            stmt = SimpleStatement(
                f"SELECT column_name, type FROM {ks_table} WHERE keyspace_name = %s AND table_name = %s",
                fetch_size=None,
            )
            try:
                rs = session.execute(stmt, (keyspace, table))
            except Exception:  # noqa: BLE001 - asked again next time, never cached
                return {}
            for name_b, type_b in rs.current_rows:
                cols[name_b.decode("utf-8")] = type_b.decode("utf-8")
        state.schema[key] = cols
    return state.schema[key]


def _column_type_name(session, name: _ColName, ctype) -> str:
    wire = _wire_type_name(ctype)
    ks, table = getattr(name, "keyspace", None), getattr(name, "table", None)
    if ks and table and _kind(ctype) in ("list", "set", "map", "udt", "tuple", "vector", "reversed"):
        declared = _schema_columns(session, ks, table).get(str(name))
        if declared is not None and _unfreeze(declared) == _unfreeze(wire):
            return declared
        if _kind(ctype) == "udt":
            return wire
    if _kind(ctype) == "udt":
        return wire
    return wire


# ---------------------------------------------------------------------------
# Values, as Cassandra's toJson() writes them (AbstractType.toJSONString of each
# type, cassandra-all 5.0.8), with DESIGN.md's one change: NaN and infinities
# are the strings "NaN", "Infinity", "-Infinity".


def _java_digits(value: float, single: bool) -> tuple[str, int]:
    """Shortest decimal digits (and the exponent of the first one) that read back as
    the same float (single) or double. These are the digits of Java's Float/Double.toString
    except in rare cases where JDK 17's FloatingDecimal adds a digit or breaks a tie its
    own way (widerow's src/types/javafloat.rs ports that algorithm): compare float and
    double values by their binary value, not by their digits."""
    if single:
        target = struct.unpack(">f", struct.pack(">f", value))[0]
        for p in range(1, 10):
            s = f"{target:.{p - 1}e}"
            try:
                if struct.unpack(">f", struct.pack(">f", float(s)))[0] == target:
                    break
            except OverflowError:  # rounded past the largest float
                continue
    else:
        s = repr(value)
    _sign, digits, exp = decimal.Decimal(s).as_tuple()
    digits_s = "".join(map(str, digits)).rstrip("0") or "0"
    return digits_s, exp + len(digits) - 1


def java_float_text(value: float, single: bool = False) -> str:
    """Java's Float.toString / Double.toString of a finite value."""
    if value == 0.0:
        return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
    sign = "-" if value < 0 else ""
    digits, e = _java_digits(abs(value), single)
    if -3 <= e < 7:
        if e >= 0:
            int_part = digits[: e + 1].ljust(e + 1, "0")
            frac = digits[e + 1 :] or "0"
        else:
            int_part = "0"
            frac = "0" * (-e - 1) + digits
        return f"{sign}{int_part}.{frac}"
    frac = digits[1:] or "0"
    return f"{sign}{digits[0]}.{frac}E{e}"


def _number(text: str) -> decimal.Decimal:
    return decimal.Decimal(text)


def _float_value(value: float, single: bool):
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return _number(java_float_text(value, single))


def _civil_from_days(z: int) -> tuple[int, int, int]:
    # days since 1970-01-01 -> proleptic Gregorian (y, m, d)
    z += 719468
    era = (z if z >= 0 else z - 146096) // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    return (y + (1 if m <= 2 else 0), m, d)


def _iso_year(y: int) -> str:
    # DateTimeFormatter ISO_LOCAL_DATE: 4 digits, '+' past 9999, '-' before year 0
    if y > 9999:
        return f"+{y}"
    if y < 0:
        return f"-{-y:04d}"
    return f"{y:04d}"


def _era_year(y: int) -> str:
    # pattern "yyyy" is year-of-era: 1 BC is year 0; '+' past 9999 (EXCEEDS_PAD)
    yoe = y if y > 0 else 1 - y
    return f"+{yoe}" if yoe > 9999 else f"{yoe:04d}"


def timestamp_text(ms: int) -> str:
    days, rem = divmod(ms, 86_400_000)
    y, m, d = _civil_from_days(days)
    hh, rem = divmod(rem, 3_600_000)
    mm, rem = divmod(rem, 60_000)
    ss, milli = divmod(rem, 1000)
    return f"{_era_year(y)}-{m:02d}-{d:02d} {hh:02d}:{mm:02d}:{ss:02d}.{milli:03d}Z"


def date_text(raw: int) -> str:
    y, m, d = _civil_from_days(raw - 2**31)
    return f"{_iso_year(y)}-{m:02d}-{d:02d}"


def time_text(ns: int) -> str:
    s, nano = divmod(ns, 1_000_000_000)
    hh, s = divmod(s, 3600)
    mm, ss = divmod(s, 60)
    return f"{hh:02d}:{mm:02d}:{ss:02d}.{nano:09d}"


def _read_vint_signed(b: bytes, pos: int) -> tuple[int, int]:
    v, pos = _read_uvint(b, pos)
    return (v >> 1) ^ -(v & 1), pos


def _read_uvint(b: bytes, pos: int) -> tuple[int, int]:
    first = b[pos]
    pos += 1
    extra = 0
    while extra < 8 and first & (0x80 >> extra):
        extra += 1
    value = first & (0xFF >> extra) if extra < 8 else 0
    for _ in range(extra):
        value = (value << 8) | b[pos]
        pos += 1
    return value, pos


def duration_text(b: bytes) -> str:
    months, pos = _read_vint_signed(b, 0)
    days, pos = _read_vint_signed(b, pos)
    nanos, pos = _read_vint_signed(b, pos)
    out = "-" if (months < 0 or days < 0 or nanos < 0) else ""

    def part(amount: int, unit: int, suffix: str) -> int:
        nonlocal out
        if amount == 0 or amount < unit:
            return amount
        out += f"{amount // unit}{suffix}"
        return amount % unit

    rem = part(abs(months), 12, "y")
    part(rem, 1, "mo")
    part(abs(days), 1, "d")
    if nanos != 0:
        rem = part(abs(nanos), 3_600_000_000_000, "h")
        rem = part(rem, 60_000_000_000, "m")
        rem = part(rem, 1_000_000_000, "s")
        rem = part(rem, 1_000_000, "ms")
        rem = part(rem, 1_000, "us")
        part(rem, 1, "ns")
    return out


def inet_text(b: bytes) -> str:
    if len(b) == 4:
        return ".".join(str(x) for x in b)
    # Java's Inet6Address.getHostAddress: eight groups, no '::' compression
    groups = struct.unpack(">8H", b[:16])
    return ":".join(f"{g:x}" for g in groups)


def _fixed_size(ctype) -> int | None:
    kind = _kind(ctype)
    sizes = {"uuid": 16, "timeuuid": 16, "boolean": 1, "timestamp": 8, "double": 8, "float": 4,
             "int": 4, "bigint": 8, "counter": 8}
    if kind in sizes:
        return sizes[kind]
    if kind == "reversed":
        return _fixed_size(ctype.subtypes[0])
    if kind == "vector":
        inner = _fixed_size(ctype.subtype)
        return None if inner is None else inner * ctype.vector_size
    return None


def _split_collection(b: bytes) -> tuple[int, list[bytes | None]]:
    n = struct.unpack(">i", b[:4])[0]
    pos = 4
    out: list[bytes | None] = []
    while pos < len(b):
        size = struct.unpack(">i", b[pos : pos + 4])[0]
        pos += 4
        if size < 0:
            out.append(None)
        else:
            out.append(b[pos : pos + size])
            pos += size
    return n, out


def _split_fields(b: bytes) -> list[bytes | None]:
    pos = 0
    out: list[bytes | None] = []
    while pos < len(b):
        size = struct.unpack(">i", b[pos : pos + 4])[0]
        pos += 4
        if size < 0:
            out.append(None)
        else:
            out.append(b[pos : pos + size])
            pos += size
    return out


def _json_key(ctype, b: bytes) -> str:
    """MapType.toJSONString: a key whose JSON is a string is used as is; any other
    key's JSON text becomes the string."""
    v = _decode(ctype, b)
    if isinstance(v, str):
        return v
    return to_json_text(v)


def _decode(ctype, b: bytes | None):
    if b is None:
        return None
    kind = _kind(ctype)
    if kind == "reversed":
        return _decode(ctype.subtypes[0], b)
    if len(b) == 0 and kind not in ("ascii", "text", "varchar", "blob", "list", "set", "map", "tuple", "udt"):
        return ""  # an empty value: Objects.toString(null, "\"\"") and friends
    if kind in ("ascii", "varchar", "text"):
        return b.decode("utf-8", errors="replace")
    if kind == "blob":
        return "0x" + b.hex()
    if kind == "boolean":
        return b[0] != 0
    if kind in ("int", "bigint", "counter", "smallint", "tinyint", "varint"):
        return int.from_bytes(b, "big", signed=True)
    if kind == "decimal":
        scale = struct.unpack(">i", b[:4])[0]
        unscaled = int.from_bytes(b[4:], "big", signed=True)
        sign = 1 if unscaled < 0 else 0
        digits = tuple(int(c) for c in str(abs(unscaled)))
        return decimal.Decimal((sign, digits, -scale))
    if kind == "double":
        return _float_value(struct.unpack(">d", b)[0], False)
    if kind == "float":
        return _float_value(struct.unpack(">f", b)[0], True)
    if kind in ("uuid", "timeuuid"):
        return str(_uuid.UUID(bytes=b))
    if kind == "timestamp":
        return timestamp_text(struct.unpack(">q", b)[0])
    if kind == "date":
        return date_text(struct.unpack(">I", b)[0])
    if kind == "time":
        return time_text(struct.unpack(">q", b)[0])
    if kind == "duration":
        return duration_text(b)
    if kind == "inet":
        return inet_text(b)
    if kind in ("list", "set"):
        _, items = _split_collection(b)
        return [_decode(ctype.subtypes[0], x) for x in items]
    if kind == "map":
        kt, vt = ctype.subtypes
        _, items = _split_collection(b)
        out = {}
        for i in range(0, len(items) - 1, 2):
            out[_json_key(kt, items[i])] = _decode(vt, items[i + 1])
        return out
    if kind == "tuple":
        fields = _split_fields(b)
        return [_decode(t, fields[i] if i < len(fields) else None) for i, t in enumerate(ctype.subtypes)]
    if kind == "udt":
        fields = _split_fields(b)
        out = {}
        for i, (fname, ftype) in enumerate(zip(ctype.fieldnames, ctype.subtypes)):
            key = fname if fname == fname.lower() else f'"{fname}"'
            out[key] = _decode(ftype, fields[i] if i < len(fields) else None)
        return out
    if kind == "vector":
        inner = ctype.subtype
        size = _fixed_size(inner)
        out, pos = [], 0
        for _ in range(ctype.vector_size):
            if size is not None:
                chunk = b[pos : pos + size]
                pos += size
            else:
                n, pos = _read_uvint(b, pos)
                chunk = b[pos : pos + n]
                pos += n
            out.append(_decode(inner, chunk))
        return out
    return "0x" + b.hex()  # a custom type: its bytes


# ---------------------------------------------------------------------------
# JSON Lines

_KEY_ORDER = ("line", "file", "kind", "class", "columns", "types", "rows", "error", "message", "warnings")


def _quote(text: str) -> str:
    out = ['"']
    for ch in text:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\b":
            out.append("\\b")
        elif ch == "\f":
            out.append("\\f")
        elif o < 0x20:
            out.append(f"\\u{o:04X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def to_json_text(value) -> str:
    """Compact JSON of one value (Decimal written with its digits)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return _quote(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(to_json_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(_quote(str(k)) + ":" + to_json_text(v) for k, v in value.items()) + "}"
    return _quote(str(value))


def to_jsonl(record: dict) -> str:
    keys = [k for k in _KEY_ORDER if k in record] + [k for k in record if k not in _KEY_ORDER]
    return "{" + ",".join(_quote(k) + ":" + to_json_text(record[k]) for k in keys) + "}"


# ---------------------------------------------------------------------------
# Splitting scripts


@dataclass
class Statement:
    line: int
    text: str
    directives: list = field(default_factory=list)
    complete: bool = True


_DIRECTIVE_RE = re.compile(r"^--\s*@([A-Za-z_][\w-]*)\s*(.*?)\s*$")


def split_statements(text: str) -> list[Statement]:
    """Splits a CQL script into statements as cqlsh does (see the module docstring)."""
    out: list[Statement] = []
    i, n, line = 0, len(text), 1
    start = None  # index where the current statement starts
    start_line = 0
    words: list[str] = []  # upper-cased words of the current statement, outside strings
    pending: list = []

    def finish(end: int, complete: bool):
        nonlocal start, words, pending
        body = text[start:end].strip()
        if body:
            out.append(Statement(start_line, body, pending, complete))
            pending = []
        start, words = None, []

    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        two = text[i : i + 2]
        if two in ("--", "//"):
            j = text.find("\n", i)
            j = n if j < 0 else j
            m = _DIRECTIVE_RE.match(text[i:j])
            if m and two == "--":
                pending.append((m.group(1), m.group(2)))
            i = j
            continue
        if two == "/*":
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            line += text.count("\n", i, j)
            i = j
            continue
        if start is None:
            if c == ";":
                i += 1
                continue
            start, start_line = i, line
        if c in "'\"":
            j = i + 1
            while j < n:
                if text[j] == c:
                    if j + 1 < n and text[j + 1] == c:
                        j += 2
                        continue
                    break
                j += 1
            j = min(j + 1, n)
            line += text.count("\n", i, j)
            if c == '"':
                words.append("\0")
            i = j
            continue
        if two == "$$":
            j = text.find("$$", i + 2)
            j = n if j < 0 else j + 2
            line += text.count("\n", i, j)
            i = j
            continue
        if c == ";":
            if words and words[0] == "BEGIN" and words[-2:] != ["APPLY", "BATCH"]:
                i += 1
                continue
            finish(i, True)
            i += 1
            continue
        if c.isalnum() or c == "_":
            j = i
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            words.append(text[i:j].upper())
            i = j
            continue
        words.append(c)
        i += 1
    if start is not None:
        finish(n, False)
    return out
