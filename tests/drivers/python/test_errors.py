"""Errors arrive as the driver's own exception classes, with their fields."""

import os
import uuid

import pytest
from cassandra import AlreadyExists, ConsistencyLevel, InvalidRequest, Unavailable
from cassandra.policies import FallthroughRetryPolicy
from cassandra.protocol import ConfigurationException, SyntaxException
from cassandra.query import SimpleStatement


@pytest.fixture(scope="module")
def etable(session, keyspace):
    t = f"{keyspace}.etable"
    session.execute(f"CREATE TABLE {t} (k int PRIMARY KEY, v text)")
    return t


def test_unknown_table_is_invalid_request(session, keyspace):
    with pytest.raises(InvalidRequest, match="table no_such_table does not exist") as e:
        session.execute(f"SELECT * FROM {keyspace}.no_such_table")
    assert str(e.value).startswith("Error from server: code=2200 [Invalid query] message=")
    with pytest.raises(InvalidRequest, match="no_such_table"):
        session.prepare(f"SELECT * FROM {keyspace}.no_such_table WHERE k = ?")


def test_unknown_keyspace_is_invalid_request(session):
    with pytest.raises(InvalidRequest, match="no_such_ks"):
        session.execute("SELECT * FROM no_such_ks.t")


def test_unknown_column_is_invalid_request(session, etable):
    with pytest.raises(InvalidRequest, match="nope"):
        session.execute(f"SELECT nope FROM {etable}")
    with pytest.raises(InvalidRequest, match="Some partition key parts are missing: k"):
        session.execute(f"INSERT INTO {etable} (v) VALUES ('x')")


def test_filtering_refused(session, etable):
    with pytest.raises(InvalidRequest, match="ALLOW FILTERING"):
        session.execute(f"SELECT * FROM {etable} WHERE v = 'x'")


def test_syntax_error(session):
    with pytest.raises(SyntaxException, match=r"line 1:0 no viable alternative at input 'SELEC'") as e:
        session.execute("SELEC * FROM system.local")
    assert e.value.code == 0x2000
    with pytest.raises(SyntaxException):
        session.prepare("SELECT * FROM system.local WHERE")


def test_already_exists_table(session, keyspace, etable):
    with pytest.raises(AlreadyExists) as e:
        session.execute(f"CREATE TABLE {etable} (k int PRIMARY KEY)")
    assert (e.value.keyspace, e.value.table) == (keyspace, "etable")
    # IF NOT EXISTS is no error
    session.execute(f"CREATE TABLE IF NOT EXISTS {etable} (k int PRIMARY KEY)")


def test_already_exists_keyspace(session, keyspace):
    with pytest.raises(AlreadyExists) as e:
        session.execute(f"CREATE KEYSPACE {keyspace} WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 1}")
    assert e.value.keyspace == keyspace
    assert e.value.table in ("", None)


def test_configuration_exception(session):
    name = f"drv_py_bad_{uuid.uuid4().hex[:8]}"
    with pytest.raises(ConfigurationException, match="NoSuchStrategy") as e:
        session.execute(f"CREATE KEYSPACE {name} WITH replication = {{'class': 'NoSuchStrategy'}}")
    assert e.value.code == 0x2300


def test_session_survives_errors(session, etable):
    for _ in range(3):
        with pytest.raises(InvalidRequest):
            session.execute(f"SELECT nope FROM {etable}")
    session.execute(f"INSERT INTO {etable} (k, v) VALUES (1, 'ok')")
    assert session.execute(f"SELECT v FROM {etable} WHERE k = 1").one().v == "ok"


def test_unavailable(cluster, session):
    """RF 3 at QUORUM needs 2 replicas. A target that says it is one node
    cannot have them: Unavailable, with the numbers. (A target that advertises
    three or more nodes in its ring has nothing to prove here.)"""
    if len(cluster.metadata.all_hosts()) >= 3:
        pytest.skip("the target advertises 3+ nodes")
    name = f"drv_py_rf3_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    session.execute(f"CREATE KEYSPACE {name} WITH replication = "
                    "{'class': 'SimpleStrategy', 'replication_factor': 3}")
    try:
        session.execute(f"CREATE TABLE {name}.t (k int PRIMARY KEY, v int)")
        w = SimpleStatement(f"INSERT INTO {name}.t (k, v) VALUES (1, 1)", consistency_level=ConsistencyLevel.QUORUM)
        w.retry_policy = FallthroughRetryPolicy()  # else the driver retries and says NoHostAvailable
        with pytest.raises(Unavailable) as e:
            session.execute(w)
        assert e.value.consistency == ConsistencyLevel.QUORUM
        assert (e.value.required_replicas, e.value.alive_replicas) == (2, len(cluster.metadata.all_hosts()))
        assert "Cannot achieve consistency level QUORUM" in str(e.value)
        # ONE is still fine
        session.execute(SimpleStatement(w.query_string, consistency_level=ConsistencyLevel.ONE))
    finally:
        session.execute(f"DROP KEYSPACE {name}")
