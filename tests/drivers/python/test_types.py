"""Every CQL type, written two ways and read back through the driver's codecs.

One wide table, one test per column: a row written with a CQL literal (the
server parses it) and a row written through a prepared statement (the driver
encodes it) must both read back as the same Python value, by a simple and by a
prepared SELECT.
"""

import datetime
import uuid
from decimal import Decimal

import pytest
from cassandra.util import Date, Duration, Time

NS = 1_000_000_000

# (column, CQL type, CQL literal, value bound to a prepared INSERT, value read back)
TYPES = [
    ("c_ascii", "ascii", "'abc ~'", "abc ~", "abc ~"),
    ("c_bigint", "bigint", "-9223372036854775808", -(2**63), -(2**63)),
    ("c_blob", "blob", "0x00ff10", b"\x00\xff\x10", b"\x00\xff\x10"),
    ("c_boolean", "boolean", "true", True, True),
    ("c_date", "date", "'2024-02-29'", datetime.date(2024, 2, 29), Date(datetime.date(2024, 2, 29))),
    ("c_date_old", "date", "'1583-01-01'", Date(datetime.date(1583, 1, 1)), Date(datetime.date(1583, 1, 1))),
    ("c_decimal", "decimal", "-12345.678901234567890123", Decimal("-12345.678901234567890123"),
     Decimal("-12345.678901234567890123")),
    ("c_double", "double", "1.5e300", 1.5e300, 1.5e300),
    ("c_duration", "duration", "14mo3d4h5m6s7ms8us9ns", Duration(14, 3, 4 * 3600 * NS + 5 * 60 * NS + 6 * NS + 7_008_009),
     Duration(14, 3, 4 * 3600 * NS + 5 * 60 * NS + 6 * NS + 7_008_009)),
    ("c_duration_neg", "duration", "-2d10h", Duration(0, -2, -10 * 3600 * NS), Duration(0, -2, -10 * 3600 * NS)),
    ("c_float", "float", "3.25", 3.25, 3.25),
    ("c_inet4", "inet", "'192.168.10.1'", "192.168.10.1", "192.168.10.1"),
    ("c_inet6", "inet", "'2001:db8::1'", "2001:db8::1", "2001:db8::1"),
    ("c_int", "int", "-2147483648", -(2**31), -(2**31)),
    ("c_smallint", "smallint", "-32768", -32768, -32768),
    ("c_text", "text", "'zoë ✓ 日本 ''quoted'''", "zoë ✓ 日本 'quoted'", "zoë ✓ 日本 'quoted'"),
    ("c_time", "time", "'13:14:15.123456789'", Time(((13 * 60 + 14) * 60 + 15) * NS + 123456789),
     Time(((13 * 60 + 14) * 60 + 15) * NS + 123456789)),
    ("c_timestamp", "timestamp", "'2024-02-29 23:59:58.123+0000'",
     datetime.datetime(2024, 2, 29, 23, 59, 58, 123000), datetime.datetime(2024, 2, 29, 23, 59, 58, 123000)),
    ("c_timeuuid", "timeuuid", "e7a6d3a0-4c6f-11ee-be56-0242ac120002",
     uuid.UUID("e7a6d3a0-4c6f-11ee-be56-0242ac120002"), uuid.UUID("e7a6d3a0-4c6f-11ee-be56-0242ac120002")),
    ("c_tinyint", "tinyint", "-128", -128, -128),
    ("c_uuid", "uuid", "550e8400-e29b-41d4-a716-446655440000",
     uuid.UUID("550e8400-e29b-41d4-a716-446655440000"), uuid.UUID("550e8400-e29b-41d4-a716-446655440000")),
    ("c_varint", "varint", str(2**100 + 1), 2**100 + 1, 2**100 + 1),
    ("c_varint_neg", "varint", str(-(2**70)), -(2**70), -(2**70)),
    ("c_list", "list<int>", "[3, 1, 2]", [3, 1, 2], [3, 1, 2]),
    ("c_set", "set<text>", "{'b', 'a'}", {"b", "a"}, {"a", "b"}),
    ("c_map", "map<text, int>", "{'y': -2, 'x': 1}", {"y": -2, "x": 1}, {"x": 1, "y": -2}),
    ("c_flist", "frozen<list<int>>", "[1, 1]", [1, 1], [1, 1]),
    ("c_fset", "frozen<set<int>>", "{3, 2}", {3, 2}, {2, 3}),
    ("c_fmap", "frozen<map<int, text>>", "{2: 'b', 1: 'a'}", {2: "b", 1: "a"}, {1: "a", 2: "b"}),
    ("c_nested", "map<text, frozen<list<int>>>", "{'k': [1, 2]}", {"k": [1, 2]}, {"k": [1, 2]}),
    ("c_tuple", "tuple<int, text, boolean>", "(1, 'x', false)", (1, "x", False), (1, "x", False)),
    ("c_udt", "addr", "{street: '1 Main St', zip: 12345, tags: {'b', 'a'}}",
     ("1 Main St", 12345, {"a", "b"}), ("1 Main St", 12345, {"a", "b"})),
    ("c_fudt", "frozen<addr>", "{street: 'x', zip: -1}", ("x", -1, None), ("x", -1, None)),
    ("c_vector", "vector<float, 3>", "[1.0, 2.5, -3.0]", [1.0, 2.5, -3.0], [1.0, 2.5, -3.0]),
]


# How the driver renders a column's type from the result metadata, where that
# differs from the declared type (text is varchar on the wire; frozen is not
# sent for collections; tuples and UDTs always are frozen).
WIRE_TYPE = {
    "c_text": "varchar",
    "c_set": "set<varchar>",
    "c_map": "map<varchar, int>",
    "c_flist": "list<int>",
    "c_fset": "set<int>",
    "c_fmap": "map<int, varchar>",
    "c_nested": "map<varchar, list<int>>",
    "c_tuple": "frozen<tuple<int, varchar, boolean>>",
    "c_udt": "frozen<addr>",
    "c_fudt": "frozen<addr>",
    "c_vector": "org.apache.cassandra.db.marshal.VectorType<float, 3>",
}

def normal(value):
    """Driver containers (SortedSet, OrderedMap, UDT classes) as plain Python."""
    if value is None or isinstance(value, (str, bytes, int, float, Decimal, uuid.UUID)):
        return value
    if hasattr(value, "_fields"):  # a UDT or named tuple
        return tuple(normal(v) for v in value)
    if isinstance(value, tuple):
        return tuple(normal(v) for v in value)
    if hasattr(value, "items"):
        return {normal(k): normal(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)) or type(value).__name__ == "SortedSet":
        return frozenset(normal(v) for v in value)
    if isinstance(value, list):
        return [normal(v) for v in value]
    return value


@pytest.fixture(scope="module")
def types_table(session, keyspace):
    session.execute(f"CREATE TYPE {keyspace}.addr (street text, zip int, tags frozen<set<text>>)")
    cols = ", ".join(f"{c} {t}" for c, t, *_ in TYPES)
    session.execute(f"CREATE TABLE {keyspace}.types (k int PRIMARY KEY, {cols})")
    return f"{keyspace}.types"


@pytest.mark.parametrize("col,cql_type,literal,bound,expected", TYPES, ids=[t[0] for t in TYPES])
def test_type_round_trip(session, types_table, col, cql_type, literal, bound, expected):
    idx = [t[0] for t in TYPES].index(col)
    k_lit, k_bound = 1000 + idx, 2000 + idx
    session.execute(f"INSERT INTO {types_table} (k, {col}) VALUES ({k_lit}, {literal})")
    ins = session.prepare(f"INSERT INTO {types_table} (k, {col}) VALUES (?, ?)")
    session.execute(ins, (k_bound, bound))

    sel = session.prepare(f"SELECT {col} FROM {types_table} WHERE k = ?")
    for k in (k_lit, k_bound):
        for rs in (session.execute(f"SELECT {col} FROM {types_table} WHERE k = {k}"), session.execute(sel, (k,))):
            rows = list(rs)
            assert len(rows) == 1, f"{cql_type}: row {k} not found"
            got = rows[0][0]
            assert normal(got) == normal(expected), f"{cql_type} row {k}: got {got!r}, expected {expected!r}"
    # the result metadata's type for the column, as the driver renders it
    wire = rs.column_types[0].cql_parameterized_type()
    assert wire == WIRE_TYPE.get(col, cql_type), f"{col}: result metadata type {wire!r}"


def test_udt_fields_by_name(session, types_table):
    session.execute(f"INSERT INTO {types_table} (k, c_udt) VALUES (1, {{street: 's', zip: 7}})")
    got = session.execute(f"SELECT c_udt FROM {types_table} WHERE k = 1").one().c_udt
    assert (got.street, got.zip, got.tags) == ("s", 7, None)


def test_nulls_read_back_as_none(session, types_table):
    session.execute(f"INSERT INTO {types_table} (k) VALUES (0)")
    row = session.execute(f"SELECT * FROM {types_table} WHERE k = 0").one()
    assert row is not None
    cols = [t[0] for t in TYPES]
    assert {c: getattr(row, c) for c in cols} == {c: None for c in cols}


def test_counter(session, keyspace):
    session.execute(f"CREATE TABLE {keyspace}.counters (k text PRIMARY KEY, hits counter, misses counter)")
    session.execute(f"UPDATE {keyspace}.counters SET hits = hits + 5 WHERE k = 'a'")
    session.execute(f"UPDATE {keyspace}.counters SET hits = hits - 2, misses = misses + 1 WHERE k = 'a'")
    upd = session.prepare(f"UPDATE {keyspace}.counters SET hits = hits + ? WHERE k = ?")
    session.execute(upd, (2**40, "a"))
    session.execute(upd, (-1, "b"))
    rows = {r.k: (r.hits, r.misses) for r in session.execute(f"SELECT k, hits, misses FROM {keyspace}.counters")}
    assert rows == {"a": (3 + 2**40, 1), "b": (-1, None)}
    assert session.execute(f"SELECT hits FROM {keyspace}.counters WHERE k = 'a'").column_types[0].typename == "counter"
