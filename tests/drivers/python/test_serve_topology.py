"""A ring that grows and shrinks under the Python driver: `CLUSTER NODES`
on widerow serve adds nodes, which the driver learns of from TOPOLOGY_CHANGE
NEW_NODE events, connects to and routes token-aware requests to; and removes
them again, which REMOVED_NODE events take out of the driver's view. A
keyspace naming a data centre the ring lacks brings that data centre's nodes
the same way.

This file starts its own server (the ring changes would upset the shared
one), so it runs only where WIDEROW_SERVE_BIN names the binary.
"""

import pytest

from conftest import SERVE_BIN, make_cluster, serving, wait_until

pytestmark = pytest.mark.skipif(
    not SERVE_BIN, reason="WIDEROW_SERVE_BIN does not name a widerow binary to start"
)


def up_addresses(cluster):
    return {h.address for h in cluster.metadata.all_hosts() if h.is_up}


def known_addresses(cluster):
    return {h.address for h in cluster.metadata.all_hosts()}


def loopback(*numbers):
    return {f"127.0.0.{n}" for n in numbers}


def requests_by_address(session):
    return {str(row.address): row.requests for row in session.execute("CLUSTER")}


@pytest.fixture
def server():
    with serving() as port:
        # No random delay before the driver refreshes its view after an event.
        cluster = make_cluster(port=port, topology_event_refresh_window=0)
        session = cluster.connect()
        try:
            yield cluster, session
        finally:
            cluster.shutdown()


def test_nodes_that_join_are_connected_to_and_routed_to(server):
    cluster, session = server
    assert up_addresses(cluster) == loopback(1, 2, 3, 4)
    session.execute(
        "CREATE KEYSPACE grown WITH replication = "
        "{'class': 'SimpleStrategy', 'replication_factor': 1}"
    )
    session.execute("CREATE TABLE grown.kv (k int PRIMARY KEY, v int)")

    session.execute("CLUSTER NODES 6")
    assert wait_until(lambda: up_addresses(cluster) == loopback(1, 2, 3, 4, 5, 6)), up_addresses(
        cluster
    )
    assert wait_until(lambda: len(cluster.metadata.token_map.ring) == 6)

    # A key the driver's token map places on node6, read token-aware: the
    # reads arrive on node6.
    select = session.prepare("SELECT v FROM grown.kv WHERE k = ?")
    token_map = cluster.metadata.token_map

    def owner(k):
        token = token_map.token_class.from_key(select.bind((k,)).routing_key)
        return token_map.get_replicas("grown", token)[0].address

    key = next(k for k in range(10_000) if owner(k) == "127.0.0.6")
    session.execute("INSERT INTO grown.kv (k, v) VALUES (%s, 1)", (key,))
    before = requests_by_address(session)["127.0.0.6"]
    for _ in range(10):
        assert session.execute(select, (key,)).one().v == 1
    assert requests_by_address(session)["127.0.0.6"] >= before + 10


def test_nodes_that_leave_leave_the_drivers_view(server):
    cluster, session = server
    session.execute("CLUSTER NODES 2")
    assert wait_until(lambda: known_addresses(cluster) == loopback(1, 2)), known_addresses(cluster)
    assert len(list(session.execute("SELECT peer FROM system.peers"))) == 1
    # The driver goes on working on the nodes left.
    assert session.execute("SELECT release_version FROM system.local").one()


def test_a_data_centre_a_keyspace_names_joins_the_ring(server):
    cluster, session = server
    session.execute(
        "CREATE KEYSPACE far WITH replication = "
        "{'class': 'NetworkTopologyStrategy', 'datacenter1': 1, 'dc9': 1}"
    )
    # The load-balancing policy keeps to datacenter1, so the driver knows the
    # remote nodes without connecting to them.
    assert wait_until(lambda: known_addresses(cluster) == loopback(*range(1, 9))), (
        known_addresses(cluster)
    )
    datacenters = {h.address: h.datacenter for h in cluster.metadata.all_hosts()}
    assert {datacenters[a] for a in loopback(5, 6, 7, 8)} == {"dc9"}
