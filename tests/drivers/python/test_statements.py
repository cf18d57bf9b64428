"""Simple and prepared statements, named and UNSET binds, batches, LWT,
per-query consistency, USE through set_keyspace."""

import pytest
from cassandra import ConsistencyLevel, InvalidRequest
from cassandra.query import UNSET_VALUE, BatchStatement, BatchType, SimpleStatement

from conftest import PROTOCOL


@pytest.fixture(scope="module")
def kv(session, keyspace):
    t = f"{keyspace}.kv"
    session.execute(f"CREATE TABLE {t} (k int PRIMARY KEY, a text, b int)")
    return t


@pytest.fixture(scope="module")
def wide(session, keyspace):
    t = f"{keyspace}.wide"
    session.execute(f"CREATE TABLE {t} (p int, c int, v text, PRIMARY KEY (p, c))")
    return t


def row_of(session, table, k):
    return session.execute(f"SELECT k, a, b FROM {table} WHERE k = %s", (k,)).one()


def test_simple_statement_positional_and_named(session, kv):
    # the driver interpolates these client side
    session.execute(f"INSERT INTO {kv} (k, a, b) VALUES (%s, %s, %s)", (1, "it's", 10))
    session.execute(f"INSERT INTO {kv} (k, a, b) VALUES (%(k)s, %(a)s, %(b)s)", {"k": 2, "a": "two", "b": 20})
    assert tuple(row_of(session, kv, 1)) == (1, "it's", 10)
    assert tuple(row_of(session, kv, 2)) == (2, "two", 20)
    rs = session.execute(f"SELECT k FROM {kv} WHERE k IN (1, 2, 999)")
    assert sorted(r.k for r in rs) == [1, 2]


def test_prepared_positional(session, kv):
    ins = session.prepare(f"INSERT INTO {kv} (k, a, b) VALUES (?, ?, ?)")
    assert len(ins.column_metadata) == 3
    assert [c.name for c in ins.column_metadata] == ["k", "a", "b"]
    session.execute(ins, (3, "three", 30))
    sel = session.prepare(f"SELECT a, b FROM {kv} WHERE k = ?")
    assert [c[2] for c in sel.result_metadata] == ["a", "b"]  # (keyspace, table, name, type)
    # the PREPARED result names the partition key's bind index, for token-aware routing
    assert ins.routing_key_indexes == [0] and sel.routing_key_indexes == [0]
    assert tuple(session.execute(sel, (3,)).one()) == ("three", 30)
    assert session.execute(sel, (404,)).one() is None
    # bound statement with a null
    session.execute(ins.bind((4, None, 40)))
    assert tuple(session.execute(sel, (4,)).one()) == (None, 40)


def test_prepared_named_markers(session, kv):
    ins = session.prepare(f"INSERT INTO {kv} (k, a, b) VALUES (:key, :label, :num)")
    assert [c.name for c in ins.column_metadata] == ["key", "label", "num"]
    session.execute(ins, {"num": 50, "key": 5, "label": "five"})
    sel = session.prepare(f"SELECT a FROM {kv} WHERE k = :key")
    assert session.execute(sel, {"key": 5}).one().a == "five"


def test_unset_leaves_column_unchanged(session, kv):
    ins = session.prepare(f"INSERT INTO {kv} (k, a, b) VALUES (?, ?, ?)")
    session.execute(ins, (6, "keep", 60))
    session.execute(ins, (6, UNSET_VALUE, 61))
    assert tuple(row_of(session, kv, 6)) == (6, "keep", 61)
    upd = session.prepare(f"UPDATE {kv} SET a = :a, b = :b WHERE k = :k")
    session.execute(upd, {"k": 6, "a": "changed", "b": UNSET_VALUE})
    assert tuple(row_of(session, kv, 6)) == (6, "changed", 61)
    # a missing named value is UNSET too (protocol v4+), a None is a delete
    session.execute(upd, {"k": 6, "a": None})
    assert tuple(row_of(session, kv, 6)) == (6, None, 61)


def test_logged_batch(session, wide):
    b = BatchStatement(batch_type=BatchType.LOGGED)
    ins = session.prepare(f"INSERT INTO {wide} (p, c, v) VALUES (?, ?, ?)")
    b.add(ins, (1, 1, "a"))
    b.add(ins, (2, 1, "b"))
    b.add(SimpleStatement(f"INSERT INTO {wide} (p, c, v) VALUES (%s, %s, %s)"), (3, 1, "c"))
    b.add(f"UPDATE {wide} SET v = 'a2' WHERE p = 1 AND c = 1")
    session.execute(b)
    rows = {(r.p, r.c): r.v for r in session.execute(f"SELECT p, c, v FROM {wide} WHERE p IN (1, 2, 3)")}
    assert rows == {(1, 1): "a2", (2, 1): "b", (3, 1): "c"}


def test_unlogged_batch(session, wide):
    b = BatchStatement(batch_type=BatchType.UNLOGGED)
    for c in range(5):
        b.add(SimpleStatement(f"INSERT INTO {wide} (p, c, v) VALUES (10, %s, 'u')"), (c,))
    session.execute(b)
    assert [r.c for r in session.execute(f"SELECT c FROM {wide} WHERE p = 10")] == [0, 1, 2, 3, 4]


def test_counter_batch(session, keyspace):
    t = f"{keyspace}.bcounters"
    session.execute(f"CREATE TABLE {t} (k int PRIMARY KEY, n counter)")
    upd = session.prepare(f"UPDATE {t} SET n = n + ? WHERE k = ?")
    b = BatchStatement(batch_type=BatchType.COUNTER)
    b.add(upd, (3, 1))
    b.add(upd, (4, 1))
    b.add(upd, (-5, 2))
    session.execute(b)
    assert {r.k: r.n for r in session.execute(f"SELECT k, n FROM {t}")} == {1: 7, 2: -5}


def test_counter_in_logged_batch_is_refused(session, keyspace):
    t = f"{keyspace}.bcounters2"
    session.execute(f"CREATE TABLE {t} (k int PRIMARY KEY, n counter)")
    b = BatchStatement(batch_type=BatchType.LOGGED)
    b.add(f"UPDATE {t} SET n = n + 1 WHERE k = 1")
    with pytest.raises(InvalidRequest, match="(?i)counter"):
        session.execute(b)


def test_batch_failure_changes_nothing(session, wide):
    b = BatchStatement()
    b.add(f"INSERT INTO {wide} (p, c, v) VALUES (20, 1, 'x')")
    b.add(f"INSERT INTO {wide} (p, c, nope) VALUES (20, 2, 'y')")
    with pytest.raises(InvalidRequest):
        session.execute(b)
    assert session.execute(f"SELECT * FROM {wide} WHERE p = 20").one() is None


def test_lwt_insert_if_not_exists(session, wide):
    rs = session.execute(f"INSERT INTO {wide} (p, c, v) VALUES (30, 1, 'first') IF NOT EXISTS")
    assert rs.was_applied
    assert rs.column_names == ["[applied]"]
    assert rs.one()[0] is True
    rs = session.execute(f"INSERT INTO {wide} (p, c, v) VALUES (30, 1, 'second') IF NOT EXISTS")
    assert not rs.was_applied
    assert rs.column_names == ["[applied]", "p", "c", "v"]
    assert tuple(rs.one()) == (False, 30, 1, "first")
    assert session.execute(f"SELECT v FROM {wide} WHERE p = 30 AND c = 1").one().v == "first"


def test_lwt_update_if(session, wide):
    session.execute(f"INSERT INTO {wide} (p, c, v) VALUES (31, 1, 'x')")
    rs = session.execute(f"UPDATE {wide} SET v = 'y' WHERE p = 31 AND c = 1 IF v = 'nope'")
    assert not rs.was_applied
    assert rs.column_names == ["[applied]", "v"]
    assert tuple(rs.one()) == (False, "x")
    upd = session.prepare(f"UPDATE {wide} SET v = ? WHERE p = ? AND c = ? IF v = ?")
    rs = session.execute(upd, ("y", 31, 1, "x"))
    assert rs.was_applied and rs.column_names == ["[applied]"]
    rs = session.execute(f"DELETE FROM {wide} WHERE p = 31 AND c = 1 IF EXISTS")
    assert rs.was_applied
    rs = session.execute(f"DELETE FROM {wide} WHERE p = 31 AND c = 1 IF EXISTS")
    assert not rs.was_applied and rs.column_names == ["[applied]"]


def test_lwt_serial_consistency(session, wide):
    stmt = SimpleStatement(f"INSERT INTO {wide} (p, c, v) VALUES (32, 1, 's') IF NOT EXISTS",
                           consistency_level=ConsistencyLevel.QUORUM,
                           serial_consistency_level=ConsistencyLevel.LOCAL_SERIAL)
    assert session.execute(stmt).was_applied
    read = SimpleStatement(f"SELECT v FROM {wide} WHERE p = 32 AND c = 1", consistency_level=ConsistencyLevel.SERIAL)
    assert session.execute(read).one().v == "s"


@pytest.mark.parametrize("cl", [ConsistencyLevel.ONE, ConsistencyLevel.QUORUM, ConsistencyLevel.ALL,
                                ConsistencyLevel.LOCAL_ONE, ConsistencyLevel.LOCAL_QUORUM],
                         ids=lambda cl: ConsistencyLevel.value_to_name[cl])
def test_per_query_consistency(session, wide, cl):
    w = SimpleStatement(f"INSERT INTO {wide} (p, c, v) VALUES (40, %s, 'cl')", consistency_level=cl)
    session.execute(w, (cl,))
    r = SimpleStatement(f"SELECT v FROM {wide} WHERE p = 40 AND c = %s", consistency_level=cl)
    assert session.execute(r, (cl,)).one().v == "cl"


def test_consistency_is_read_by_the_server(session, wide):
    """The server sees the consistency of each request: these two it refuses."""
    read_any = SimpleStatement(f"SELECT v FROM {wide} WHERE p = 40", consistency_level=ConsistencyLevel.ANY)
    with pytest.raises(InvalidRequest, match="ANY ConsistencyLevel is only supported for writes"):
        session.execute(read_any)
    serial_write = SimpleStatement(f"INSERT INTO {wide} (p, c, v) VALUES (41, 1, 'x')",
                                   consistency_level=ConsistencyLevel.SERIAL)
    with pytest.raises(InvalidRequest, match="You must use conditional updates for serializable writes"):
        session.execute(serial_write)
    ins = session.prepare(f"INSERT INTO {wide} (p, c, v) VALUES (?, ?, ?)")
    ins.consistency_level = ConsistencyLevel.SERIAL
    with pytest.raises(InvalidRequest, match="serializable writes"):
        session.execute(ins, (41, 2, "y"))
    assert session.execute(f"SELECT * FROM {wide} WHERE p = 41").one() is None


def test_set_keyspace(cluster, keyspace, kv):
    s = cluster.connect()
    try:
        with pytest.raises(InvalidRequest):
            s.execute("SELECT * FROM kv")  # no keyspace yet
        s.set_keyspace(keyspace)
        assert s.keyspace == keyspace
        s.execute("INSERT INTO kv (k, a, b) VALUES (100, 'unqualified', 1)")
        assert s.execute("SELECT a FROM kv WHERE k = 100").one().a == "unqualified"
        p = s.prepare("SELECT a FROM kv WHERE k = ?")
        assert s.execute(p, (100,)).one().a == "unqualified"
        # USE as a statement moves the session too
        s.execute("USE system")
        assert s.execute("SELECT key FROM local").one().key == "local"
    finally:
        s.shutdown()
    # and a session made with a keyspace
    s2 = cluster.connect(keyspace)
    try:
        assert s2.execute("SELECT a FROM kv WHERE k = 100").one().a == "unqualified"
    finally:
        s2.shutdown()
