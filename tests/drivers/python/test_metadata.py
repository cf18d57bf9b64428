"""What the driver learns of the schema and the ring, server-side DESCRIBE,
and warnings the server sends with results."""

import re
import struct

import pytest
from cassandra.query import BatchStatement, BatchType, SimpleStatement

from conftest import HOST, PORT


@pytest.fixture(scope="module")
def meta_table(session, keyspace):
    session.execute(f"CREATE TYPE {keyspace}.point (x double, y double, label text)")
    session.execute(
        f"CREATE TABLE {keyspace}.meta (a int, b text, c timestamp, d int, s text STATIC, "
        f"v text, pts list<frozen<point>>, PRIMARY KEY ((a, b), c, d)) "
        f"WITH CLUSTERING ORDER BY (c DESC, d ASC) AND comment = 'driver suite'"
    )
    return "meta"


def test_keyspace_metadata(cluster, keyspace, meta_table):
    ks = cluster.metadata.keyspaces.get(keyspace)
    assert ks is not None, f"driver metadata has no keyspace {keyspace}: {sorted(cluster.metadata.keyspaces)}"
    assert ks.replication_strategy.name == "SimpleStrategy"
    assert ks.replication_strategy.replication_factor == 1
    assert ks.durable_writes is True
    for system in ("system", "system_schema"):
        assert system in cluster.metadata.keyspaces


def test_table_metadata(cluster, keyspace, meta_table):
    t = cluster.metadata.keyspaces[keyspace].tables[meta_table]
    assert [c.name for c in t.partition_key] == ["a", "b"]
    assert [c.name for c in t.clustering_key] == ["c", "d"]
    assert [c.name for c in t.primary_key] == ["a", "b", "c", "d"]
    assert set(t.columns) == {"a", "b", "c", "d", "s", "v", "pts"}
    types = {name: col.cql_type for name, col in t.columns.items()}
    assert types == {"a": "int", "b": "text", "c": "timestamp", "d": "int", "s": "text", "v": "text",
                     "pts": "list<frozen<point>>"}
    assert t.columns["c"].is_reversed and not t.columns["d"].is_reversed
    assert t.columns["s"].is_static and not t.columns["v"].is_static
    assert t.options.get("comment") == "driver suite"
    cql = t.export_as_string()
    assert f"CREATE TABLE {keyspace}.meta (" in cql
    assert "PRIMARY KEY ((a, b), c, d)" in cql
    assert "CLUSTERING ORDER BY (c DESC, d ASC)" in cql


def test_udt_metadata(cluster, keyspace, meta_table):
    ut = cluster.metadata.keyspaces[keyspace].user_types["point"]
    assert ut.field_names == ["x", "y", "label"]
    assert ut.field_types == ["double", "double", "text"]


def test_schema_change_refreshes_metadata(cluster, session, keyspace):
    session.execute(f"CREATE TABLE {keyspace}.evolving (k int PRIMARY KEY)")
    assert "evolving" in cluster.metadata.keyspaces[keyspace].tables
    session.execute(f"ALTER TABLE {keyspace}.evolving ADD extra map<int, text>")
    cols = cluster.metadata.keyspaces[keyspace].tables["evolving"].columns
    assert cols["extra"].cql_type == "map<int, text>"
    session.execute(f"CREATE INDEX evolving_extra ON {keyspace}.evolving (keys(extra))")
    assert "evolving_extra" in cluster.metadata.keyspaces[keyspace].indexes
    session.execute(f"DROP TABLE {keyspace}.evolving")
    assert "evolving" not in cluster.metadata.keyspaces[keyspace].tables


def test_token_map_and_replicas(cluster, session, keyspace, meta_table):
    tm = cluster.metadata.token_map
    assert tm is not None, "the driver built no token map (system.local tokens / partitioner?)"
    assert tm.ring, "empty token ring"
    assert tm.token_to_host_owner
    key = struct.pack(">i", 1)
    replicas = cluster.metadata.get_replicas(keyspace, key)
    assert replicas, "get_replicas found no replica"
    assert all(h.is_up for h in replicas)
    assert {h.endpoint.port for h in replicas} == {PORT}
    # the server's token() is the driver's Murmur3 of the serialized key
    session.execute(f"CREATE TABLE IF NOT EXISTS {keyspace}.tok (k int PRIMARY KEY)")
    for k in (1, -1, 0, 123456789):
        session.execute(f"INSERT INTO {keyspace}.tok (k) VALUES ({k})")
        server = session.execute(f"SELECT token(k) FROM {keyspace}.tok WHERE k = {k}").one()[0]
        assert server == tm.token_class.from_key(struct.pack(">i", k)).value, k


def test_host_metadata(cluster):
    hosts = cluster.metadata.all_hosts()
    assert hosts
    h = [h for h in hosts if h.endpoint.port == PORT][0]
    assert h.datacenter and h.rack
    assert h.release_version and h.release_version.split(".")[0].isdigit()
    assert h.host_id is not None


def test_describe_keyspace(session, keyspace, meta_table):
    rs = session.execute(f"DESCRIBE KEYSPACE {keyspace}")
    assert rs.column_names == ["keyspace_name", "type", "name", "create_statement"]
    rows = list(rs)
    assert rows[0].type == "keyspace" and rows[0].name == keyspace
    assert rows[0].create_statement.startswith(
        f"CREATE KEYSPACE {keyspace} WITH replication = {{'class': 'SimpleStrategy', 'replication_factor': '1'}}")
    kinds = {(r.type, r.name) for r in rows}
    assert ("type", "point") in kinds and ("table", "meta") in kinds
    assert all(r.keyspace_name == keyspace for r in rows)
    table = [r for r in rows if r.type == "table" and r.name == "meta"][0]
    assert table.create_statement.startswith(f"CREATE TABLE {keyspace}.meta (\n")
    # types come before the tables that use them
    order = [(r.type, r.name) for r in rows]
    assert order.index(("type", "point")) < order.index(("table", "meta"))


def test_describe_table(session, keyspace, meta_table):
    rows = list(session.execute(f"DESCRIBE TABLE {keyspace}.meta"))
    assert len(rows) == 1
    assert (rows[0].keyspace_name, rows[0].type, rows[0].name) == (keyspace, "table", "meta")
    assert "PRIMARY KEY ((a, b), c, d)" in rows[0].create_statement


@pytest.fixture(scope="module")
def warn_table(session, keyspace):
    t = f"{keyspace}.warned"
    session.execute(f"CREATE TABLE {t} (p int, c int, v text, PRIMARY KEY (p, c))")
    for i in range(6):
        session.execute(f"INSERT INTO {t} (p, c, v) VALUES ({i % 3}, {i}, 'x')")
    return t


def test_aggregate_without_partition_key_warns(session, warn_table):
    rs = session.execute(f"SELECT count(*) FROM {warn_table}")
    assert rs.one()[0] == 6
    assert rs.response_future.warnings == ["Aggregation query used without partition key"]


def test_no_warning_when_not_due(session, warn_table):
    rs = session.execute(f"SELECT count(*) FROM {warn_table} WHERE p = 1")
    assert rs.one()[0] == 2
    assert not rs.response_future.warnings
    rs = session.execute(f"SELECT * FROM {warn_table} WHERE p = 1")
    assert len(list(rs)) == 2 and not rs.response_future.warnings


def test_unlogged_batch_across_partitions_warns(session, keyspace, warn_table):
    b = BatchStatement(batch_type=BatchType.UNLOGGED)
    for p in range(100, 120):
        b.add(SimpleStatement(f"INSERT INTO {warn_table} (p, c, v) VALUES (%s, 1, 'y')"), (p,))
    rs = session.execute(b)
    assert rs.response_future.warnings == [
        f"Unlogged batch covering 20 partitions detected against table [{warn_table}]. "
        "You should use a logged batch for atomicity, or asynchronous writes for performance."]
    small = BatchStatement(batch_type=BatchType.UNLOGGED)
    for p in range(200, 202):
        small.add(SimpleStatement(f"INSERT INTO {warn_table} (p, c, v) VALUES (%s, 1, 'y')"), (p,))
    assert not session.execute(small).response_future.warnings


def test_large_batch_warns(session, warn_table):
    b = BatchStatement(batch_type=BatchType.LOGGED)
    for p in range(300, 320):
        b.add(SimpleStatement(f"INSERT INTO {warn_table} (p, c, v) VALUES (%s, 1, %s)"), (p, "y" * 300))
    warnings = session.execute(b).response_future.warnings
    assert warnings and len(warnings) == 1, warnings
    assert re.fullmatch(rf"Batch for \[{re.escape(warn_table)}\] is of size \d+, exceeding specified "
                        r"threshold of 5120 by \d+\.", warnings[0]), warnings
