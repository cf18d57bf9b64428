"""widerow's own CLUSTER statements, sent as QUERY by the real driver: a
node taken down and up (the driver sees it through STATUS_CHANGE events and
closed connections), where token-aware requests went, snapshots and the
clock (CLUSTER RESET would drop this suite's keyspaces; the Rust tests cover
it). A real node answers CLUSTER with a syntax error, so against one
the whole file is skipped: it tests widerow's extensions, nothing else.
"""

import uuid

import pytest
from cassandra import ConsistencyLevel, Unavailable
from cassandra.policies import ConstantReconnectionPolicy
from cassandra.protocol import SyntaxException
from cassandra.query import SimpleStatement

from conftest import make_cluster, wait_until


@pytest.fixture(scope="module")
def control(session):
    try:
        session.execute("CLUSTER")
    except SyntaxException:
        pytest.skip("the target is not widerow: CLUSTER is widerow's own statement")
    return session


@pytest.fixture(scope="module")
def rf3(control):
    """A keyspace with three replicas per partition on widerow's four nodes."""
    name = f"drv_ctl_{uuid.uuid4().hex[:8]}"
    control.execute(
        f"CREATE KEYSPACE {name} WITH replication = "
        "{'class': 'SimpleStrategy', 'replication_factor': 3}"
    )
    control.execute(f"CREATE TABLE {name}.kv (k int PRIMARY KEY, v text)")
    yield name
    control.execute(f"DROP KEYSPACE IF EXISTS {name}")


def nodes(session):
    return {row.node: row for row in session.execute("CLUSTER")}


def test_cluster_lists_the_nodes_the_driver_sees(control, cluster):
    listed = nodes(control)
    assert set(listed) == {"node1", "node2", "node3", "node4"}
    addresses = {str(row.address) for row in listed.values()}
    assert addresses == {h.address for h in cluster.metadata.all_hosts()}
    assert all(row.state == "UP" for row in listed.values())


def test_token_aware_requests_reach_a_replica(control, keyspace):
    control.execute(f"CREATE TABLE IF NOT EXISTS {keyspace}.routed (k int PRIMARY KEY, v int)")
    control.execute(f"INSERT INTO {keyspace}.routed (k, v) VALUES (7, 1)")
    select = control.prepare(f"SELECT v FROM {keyspace}.routed WHERE k = ?")
    token_map = control.cluster.metadata.token_map
    token = token_map.token_class.from_key(select.bind((7,)).routing_key)
    owners = token_map.get_replicas(keyspace, token)
    # RF 1: one replica owns k = 7, and the token-aware policy sends every
    # read there (CLUSTER's own requests are not counted).
    assert len(owners) == 1
    before = {name: row.requests for name, row in nodes(control).items()}
    for _ in range(20):
        assert control.execute(select, (7,)).one().v == 1
    after = nodes(control)
    grown = {name for name, row in after.items() if row.requests > before[name]}
    owner = {name for name, row in after.items() if str(row.address) == owners[0].address}
    assert grown == owner, (grown, owner)
    assert sum(after[n].requests - before[n] for n in owner) == 20


def test_a_node_taken_down_and_up(control, rf3, cluster):
    # Reconnect every half second rather than on the default backoff.
    c = make_cluster(reconnection_policy=ConstantReconnectionPolicy(0.5))
    s = c.connect()
    try:
        host = next(h for h in c.metadata.all_hosts() if h.address == "127.0.0.2")
        assert host.is_up
        s.execute("CLUSTER DOWN node2")
        assert nodes(control)["node2"].state == "DOWN"
        assert wait_until(lambda: not host.is_up), "the driver did not see node2 go down"
        # One replica of three down: QUORUM still reaches two.
        quorum = SimpleStatement(
            f"SELECT * FROM {rf3}.kv WHERE k = 1", consistency_level=ConsistencyLevel.QUORUM
        )
        s.execute(quorum)
        s.execute("CLUSTER DOWN node3")
        with pytest.raises(Unavailable):
            # Some key has node2 and node3 among its three replicas; ALL
            # fails for every key with a replica down.
            s.execute(SimpleStatement(
                f"SELECT * FROM {rf3}.kv WHERE k = 1", consistency_level=ConsistencyLevel.ALL
            ))
        s.execute("CLUSTER UP node3")
        s.execute("CLUSTER UP node2")
        assert nodes(control)["node2"].state == "UP"
        assert wait_until(lambda: host.is_up, 30), "the driver did not see node2 come back"
        s.execute(SimpleStatement(
            f"SELECT * FROM {rf3}.kv WHERE k = 1", consistency_level=ConsistencyLevel.ALL
        ))
    finally:
        control.execute("CLUSTER UP node2")
        control.execute("CLUSTER UP node3")
        c.shutdown()
        # The suite's shared cluster saw them go too: the tests after this
        # one need every host up again.
        assert wait_until(lambda: all(h.is_up for h in cluster.metadata.all_hosts()), 60), \
            "the shared cluster did not see every node come back"


def test_snapshot_and_restore_go_back(control, rf3):
    control.execute(f"TRUNCATE {rf3}.kv")
    control.execute(f"INSERT INTO {rf3}.kv (k, v) VALUES (1, 'kept')")
    control.execute("CLUSTER SNAPSHOT one_row")
    control.execute(f"INSERT INTO {rf3}.kv (k, v) VALUES (2, 'dropped')")
    assert len(list(control.execute(f"SELECT * FROM {rf3}.kv"))) == 2
    control.execute("CLUSTER RESTORE one_row")
    assert [r.v for r in control.execute(f"SELECT * FROM {rf3}.kv")] == ["kept"]
    with pytest.raises(Exception, match="No snapshot named 'missing'"):
        control.execute("CLUSTER RESTORE missing")


def test_the_clock_moves_so_ttls_expire_without_sleeping(control, rf3):
    control.execute(f"INSERT INTO {rf3}.kv (k, v) VALUES (10, 'brief') USING TTL 3600")
    assert control.execute(f"SELECT v FROM {rf3}.kv WHERE k = 10").one().v == "brief"
    before = control.execute("CLUSTER CLOCK").one().now
    control.execute("CLUSTER CLOCK ADVANCE 1h1m")
    try:
        after = control.execute("CLUSTER CLOCK").one().now
        assert (after - before).total_seconds() >= 3660
        assert control.execute(f"SELECT v FROM {rf3}.kv WHERE k = 10").one() is None
    finally:
        # The driver stamps its writes with its own clock: put the server's
        # back for the tests after this one.
        control.execute("CLUSTER CLOCK ADVANCE -1h1m")
