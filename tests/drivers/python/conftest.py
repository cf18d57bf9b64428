"""Fixtures for the Python driver suite of `widerow serve`.

The target comes from CQL_HOST (default 127.0.0.1) and CQL_PORT (default
9042); CQL_PROTOCOL (4 or 5) forces the protocol version of the shared
cluster, otherwise the driver negotiates. Every run works in a keyspace of its
own (SimpleStrategy, RF 1) that it creates first and drops last.
"""

import os
import subprocess
import time
import uuid
from contextlib import contextmanager

import pytest
from cassandra.cluster import EXEC_PROFILE_DEFAULT, Cluster, ExecutionProfile
from cassandra.policies import DCAwareRoundRobinPolicy, TokenAwarePolicy

HOST = os.environ.get("CQL_HOST") or "127.0.0.1"
PORT = int(os.environ.get("CQL_PORT") or "9042")
_proto = os.environ.get("CQL_PROTOCOL") or ""
if _proto not in ("", "4", "5"):
    raise SystemExit(f"CQL_PROTOCOL must be 4 or 5, not {_proto!r}")
PROTOCOL = int(_proto) if _proto else None

# The widerow binary for the tests that start servers of their own
# (scripts/drivers-widerow sets it); they are skipped without it.
SERVE_BIN = os.environ.get("WIDEROW_SERVE_BIN")

# Every request has a deadline: a server that never answers fails the test
# with OperationTimedOut instead of hanging the run.
REQUEST_TIMEOUT = 30.0


def make_cluster(protocol_version=None, **kwargs):
    """A Cluster aimed at the target; protocol_version None lets it negotiate."""
    profile = ExecutionProfile(
        load_balancing_policy=TokenAwarePolicy(DCAwareRoundRobinPolicy()),
        request_timeout=kwargs.pop("request_timeout", REQUEST_TIMEOUT),
    )
    args = dict(
        contact_points=[HOST],
        port=PORT,
        execution_profiles={EXEC_PROFILE_DEFAULT: profile},
        connect_timeout=10,
        control_connection_timeout=10,
    )
    if protocol_version is not None:
        args["protocol_version"] = protocol_version
    args.update(kwargs)
    return Cluster(**args)


def wait_until(predicate, seconds=20.0):
    """Whether `predicate` holds within `seconds`, polled every 0.1 s."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


@contextmanager
def serving(*flags):
    """`widerow serve --port 0 FLAGS…` from SERVE_BIN: its port while it
    runs; it must exit 0 on SIGTERM."""
    server = subprocess.Popen(
        [SERVE_BIN, "serve", "--port", "0", *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = server.stdout.readline()
    if not line.startswith("listening on "):
        server.kill()
        raise AssertionError(f"widerow serve said {line!r}: {server.stderr.read()}")
    try:
        yield int(line.rsplit(":", 1)[1])
    finally:
        server.terminate()
        assert server.wait(timeout=30) == 0


@pytest.fixture(scope="session")
def cluster():
    c = make_cluster(PROTOCOL)
    c.connect()  # fail here, once, with the driver's own message
    yield c
    c.shutdown()


@pytest.fixture(scope="session")
def keyspace(cluster):
    name = f"drv_py_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    s = cluster.connect()
    s.execute(
        f"CREATE KEYSPACE {name} WITH replication = "
        "{'class': 'SimpleStrategy', 'replication_factor': 1}"
    )
    yield name
    s.execute(f"DROP KEYSPACE IF EXISTS {name}")


@pytest.fixture(scope="session")
def session(cluster, keyspace):
    """A session without a current keyspace: tests qualify their tables."""
    return cluster.connect()


def pytest_report_header(config):
    forced = f"forced v{PROTOCOL}" if PROTOCOL else "negotiated"
    return f"CQL target {HOST}:{PORT}, protocol {forced}"
