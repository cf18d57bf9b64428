"""widerow serve's settings a test suite turns on, as the Python driver meets
them: TLS (`--ssl-cert`, `--ssl-key`, `--ssl-client-ca`, as a node's
client_encryption_options) and a write timeout of zero
(`--write-request-timeout 0`), which fails every write with the driver's
WriteTimeout so an application's retry handling can be tested.

This file starts its own servers, so it runs only where WIDEROW_SERVE_BIN
names the binary (scripts/drivers-widerow sets it); certificates are made
here with trustme, the server's naming every node address.
"""

import ssl
import uuid

import pytest
import trustme
from cassandra import WriteTimeout, WriteType
from cassandra.cluster import NoHostAvailable

from conftest import SERVE_BIN, make_cluster, serving

pytestmark = pytest.mark.skipif(
    not SERVE_BIN, reason="WIDEROW_SERVE_BIN does not name a widerow binary to start"
)

NODES = ["127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4"]


@pytest.fixture(scope="module")
def pems(tmp_path_factory):
    ca = trustme.CA()
    files = tmp_path_factory.mktemp("tls")
    server = ca.issue_cert(*NODES)
    server.private_key_pem.write_to_path(str(files / "server.key"))
    for pem in server.cert_chain_pems:
        pem.write_to_path(str(files / "server.pem"), append=True)
    client = ca.issue_cert("client.test")
    client.private_key_pem.write_to_path(str(files / "client.key"))
    client.cert_chain_pems[0].write_to_path(str(files / "client.pem"))
    ca.cert_pem.write_to_path(str(files / "ca.pem"))
    trustme.CA().cert_pem.write_to_path(str(files / "stranger.pem"))
    return files


def tls_flags(pems):
    return ["--ssl-cert", str(pems / "server.pem"), "--ssl-key", str(pems / "server.key")]


def context(pems, ca="ca.pem", identity=False):
    """A client context that checks the server's chain and names (the
    certificate names each node's address)."""
    ctx = ssl.create_default_context(cafile=str(pems / ca))
    if identity:
        ctx.load_cert_chain(str(pems / "client.pem"), str(pems / "client.key"))
    return ctx


@pytest.mark.parametrize("version", [4, 5])
def test_tls_reaches_every_node_and_routes_by_token(pems, version):
    with serving(*tls_flags(pems)) as port:
        cluster = make_cluster(version, port=port, ssl_context=context(pems))
        try:
            s = cluster.connect()
            ks = f"tls_{uuid.uuid4().hex[:8]}"
            s.execute(
                f"CREATE KEYSPACE {ks} WITH replication = "
                "{'class': 'SimpleStrategy', 'replication_factor': 1}"
            )
            s.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, v text)")
            insert = s.prepare(f"INSERT INTO {ks}.t (k, v) VALUES (?, ?)")
            for k in range(40):
                s.execute(insert, (k, str(k)))
            assert s.execute(f"SELECT count(*) FROM {ks}.t").one().count == 40
            up = sorted(h.address for h in cluster.metadata.all_hosts() if h.is_up)
            assert up == NODES
            # Token-aware routing spread the inserts: every node coordinated some.
            counts = s.execute("CLUSTER")
            assert all(row.requests > 0 for row in counts), list(counts)
        finally:
            cluster.shutdown()


def test_a_tls_port_refuses_plain_clients_and_strangers(pems):
    with serving(*tls_flags(pems)) as port:
        for kwargs in ({}, {"ssl_context": context(pems, ca="stranger.pem")}):
            cluster = make_cluster(4, port=port, **kwargs)
            with pytest.raises(NoHostAvailable):
                cluster.connect()
            cluster.shutdown()


def test_optional_tls_takes_both_on_one_port(pems):
    with serving(*tls_flags(pems), "--ssl-optional") as port:
        for kwargs in ({}, {"ssl_context": context(pems)}):
            cluster = make_cluster(5, port=port, **kwargs)
            try:
                row = cluster.connect().execute("SELECT release_version FROM system.local").one()
                assert row.release_version.startswith("5.0.")
            finally:
                cluster.shutdown()


def test_a_client_ca_asks_for_a_certificate_it_signed(pems):
    flags = [*tls_flags(pems), "--ssl-client-ca", str(pems / "ca.pem")]
    with serving(*flags) as port:
        anonymous = make_cluster(4, port=port, ssl_context=context(pems))
        with pytest.raises(NoHostAvailable):
            anonymous.connect()
        anonymous.shutdown()
        identified = make_cluster(4, port=port, ssl_context=context(pems, identity=True))
        try:
            assert identified.connect().execute("SELECT key FROM system.local").one().key == "local"
        finally:
            identified.shutdown()


@pytest.mark.parametrize("version", [4, 5])
def test_a_zero_write_timeout_fails_every_write_with_write_timeout(version):
    with serving("--write-request-timeout", "0") as port:
        cluster = make_cluster(version, port=port)
        try:
            s = cluster.connect()
            ks = f"wt_{uuid.uuid4().hex[:8]}"
            s.execute(
                f"CREATE KEYSPACE {ks} WITH replication = "
                "{'class': 'SimpleStrategy', 'replication_factor': 3}"
            )
            s.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, v int)")
            cases = [
                (f"INSERT INTO {ks}.t (k, v) VALUES (1, 1)", WriteType.SIMPLE, 1),
                (f"INSERT INTO {ks}.t (k, v) VALUES (1, 1) IF NOT EXISTS", WriteType.CAS, 2),
                (
                    f"BEGIN BATCH INSERT INTO {ks}.t (k, v) VALUES (1, 1); "
                    f"INSERT INTO {ks}.t (k, v) VALUES (2, 2); APPLY BATCH",
                    # The batch log's write, at TWO: nothing was applied,
                    # so the driver's retry policy may retry it.
                    WriteType.BATCH_LOG,
                    2,
                ),
            ]
            for cql, write_type, required in cases:
                with pytest.raises(WriteTimeout) as caught:
                    s.execute(cql)
                assert caught.value.write_type == write_type, cql
                assert caught.value.required_responses == required, cql
                assert caught.value.received_responses == 0, cql
            # Nothing was applied; reads keep their own limits.
            assert list(s.execute(f"SELECT * FROM {ks}.t")) == []
        finally:
            cluster.shutdown()
