"""Logins with PlainTextAuthProvider against a server that requires them.

Skipped unless WIDEROW_AUTH=1 says the target authenticates (`widerow serve
--auth`, or a node with PasswordAuthenticator): scripts/drivers-widerow runs
this file once more against a second server started with --auth. The
default superuser is cassandra/cassandra, as on a new node.
"""

import os
import uuid

import pytest
from cassandra import AuthenticationFailed, Unauthorized
from cassandra.auth import PlainTextAuthProvider
from cassandra.cluster import NoHostAvailable

from conftest import make_cluster

pytestmark = pytest.mark.skipif(
    os.environ.get("WIDEROW_AUTH") != "1",
    reason="the target does not require logins (set WIDEROW_AUTH=1 when it does)",
)


def login(user, password, version=None):
    return make_cluster(version, auth_provider=PlainTextAuthProvider(user, password))


def refusal(cluster):
    """The error each host gave when connecting failed."""
    with pytest.raises(NoHostAvailable) as caught:
        cluster.connect()
    cluster.shutdown()
    return " ".join(str(e) for e in caught.value.errors.values())


@pytest.mark.parametrize("version", [4, 5])
def test_the_default_superuser_logs_in(version):
    c = login("cassandra", "cassandra", version)
    try:
        s = c.connect()
        assert c.protocol_version == version
        roles = {r.role: r for r in s.execute("SELECT * FROM system_auth.roles")}
        assert roles["cassandra"].is_superuser and roles["cassandra"].can_login
        assert roles["cassandra"].salted_hash.startswith("$2a$10$")
        listed = list(s.execute("LIST ROLES"))
        assert listed[0]._fields == ("role", "super", "login", "options", "datacenters")
    finally:
        c.shutdown()


def test_a_wrong_password_is_refused_with_cassandras_message():
    message = refusal(login("cassandra", "wrong"))
    assert "Provided username cassandra and/or password are incorrect" in message, message


def test_a_client_without_credentials_is_refused():
    c = make_cluster()
    with pytest.raises(NoHostAvailable) as caught:
        c.connect()
    c.shutdown()
    assert any(isinstance(e, AuthenticationFailed) for e in caught.value.errors.values())


def test_a_suite_makes_its_own_user():
    name = f"drv_user_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    admin = login("cassandra", "cassandra")
    s = admin.connect()
    try:
        s.execute(f"CREATE ROLE {name} WITH PASSWORD = 'pw1' AND LOGIN = true")
        user = login(name, "pw1")
        try:
            us = user.connect()
            mine = [r.role for r in us.execute("LIST ROLES")]
            assert mine == [name]
            with pytest.raises(Unauthorized):
                us.execute(f"CREATE ROLE {name}_x")
            us.execute(f"ALTER ROLE {name} WITH PASSWORD = 'pw2'")
        finally:
            user.shutdown()
        assert "and/or password are incorrect" in refusal(login(name, "pw1"))
        again = login(name, "pw2")
        again.connect()
        again.shutdown()
        s.execute(f"ALTER ROLE {name} WITH LOGIN = false")
        assert f"{name} is not permitted to log in" in refusal(login(name, "pw2"))
    finally:
        s.execute(f"DROP ROLE IF EXISTS {name}")
        admin.shutdown()
