"""Connecting: negotiated and forced protocol versions, system.local."""

import pytest
from cassandra import ProtocolVersion

from conftest import HOST, PORT, PROTOCOL, make_cluster


def test_shared_cluster_protocol(cluster):
    if PROTOCOL:
        assert cluster.protocol_version == PROTOCOL
    else:
        # Cassandra 5.0 and the 3.30 driver settle on v5, the newest both speak.
        assert cluster.protocol_version == ProtocolVersion.V5


@pytest.mark.parametrize("version", [4, 5])
def test_connect_forced_protocol(version):
    c = make_cluster(version)
    try:
        s = c.connect()
        assert c.protocol_version == version
        row = s.execute("SELECT cluster_name, release_version, cql_version, native_protocol_version, "
                        "partitioner, data_center, rack FROM system.local").one()
        assert row is not None, "system.local has no row"
        assert row.release_version, row
        assert row.partitioner == "org.apache.cassandra.dht.Murmur3Partitioner"
        assert row.data_center and row.rack
        # One host per node: the contact point and each of system.peers
        # (one on a single real node, four on widerow's default ring), all
        # up, all on the contact point's port.
        peers = list(s.execute("SELECT peer FROM system.peers"))
        hosts = c.metadata.all_hosts()
        assert len(hosts) == 1 + len(peers)
        assert all(h.is_up for h in hosts)
        assert all(h.endpoint.port == PORT for h in hosts)
        assert row.data_center in {h.datacenter for h in hosts}
        # a second query on the pool, not only on the control connection
        assert s.execute("SELECT now() FROM system.local").one()[0] is not None
    finally:
        c.shutdown()


def test_two_sessions_one_cluster(cluster):
    a, b = cluster.connect(), cluster.connect()
    try:
        assert a.execute("SELECT key FROM system.local").one().key == "local"
        assert b.execute("SELECT key FROM system.local").one().key == "local"
    finally:
        a.shutdown()
        b.shutdown()
