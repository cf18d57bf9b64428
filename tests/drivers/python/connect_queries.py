"""Lists every request the Python driver sends while it connects (and while it
refreshes after one CREATE TABLE): the queries a server must answer before a
driver will use it. Not a test; run by hand:

    CQL_PORT=19242 target/drivers-venv/bin/python tests/drivers/python/connect_queries.py [--debug]
"""

import itertools
import logging
import os
import sys
import uuid

from cassandra import connection, protocol
from cassandra.cluster import Cluster

HOST = os.environ.get("CQL_HOST") or "127.0.0.1"
PORT = int(os.environ.get("CQL_PORT") or "9042")
PROTOCOL = int(os.environ["CQL_PROTOCOL"]) if os.environ.get("CQL_PROTOCOL") else None

sent = []
_tags = itertools.count()
_orig = connection.Connection.send_msg


def describe(msg):
    if isinstance(msg, protocol.QueryMessage):
        return f"QUERY   {msg.query}"
    if isinstance(msg, protocol.PrepareMessage):
        return f"PREPARE {msg.query}"
    if isinstance(msg, protocol.StartupMessage):
        return f"STARTUP {msg.options}"
    if isinstance(msg, protocol.RegisterMessage):
        return f"REGISTER {msg.event_list}"
    return type(msg).__name__.replace("Message", "").upper()


def send_msg(self, msg, request_id, cb, encoder=protocol.ProtocolHandler.encode_message,
             decoder=protocol.ProtocolHandler.decode_message, result_metadata=None):
    if not hasattr(self, "_drv_tag"):
        self._drv_tag = f"conn{next(_tags)}"
    sent.append((self._drv_tag, describe(msg)))
    return _orig(self, msg, request_id, cb, encoder=encoder, decoder=decoder, result_metadata=result_metadata)


connection.Connection.send_msg = send_msg

if "--debug" in sys.argv:
    logging.basicConfig(level=logging.DEBUG, format="%(name)s %(message)s")

kwargs = {"protocol_version": PROTOCOL} if PROTOCOL else {}
cluster = Cluster([HOST], port=PORT, **kwargs)
session = cluster.connect()
print(f"# connected, protocol v{cluster.protocol_version}")
for tag, text in sent:
    print(f"{tag}  {text}")
n = len(sent)
ks = f"drv_connq_{uuid.uuid4().hex[:8]}"
session.execute(f"CREATE KEYSPACE {ks} WITH replication = {{'class': 'SimpleStrategy', 'replication_factor': 1}}")
session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, v text)")
session.execute(f"DROP KEYSPACE {ks}")
print("# after CREATE KEYSPACE, CREATE TABLE, DROP KEYSPACE")
for tag, text in sent[n:]:
    print(f"{tag}  {text.replace(ks, '<ks>')}")
cluster.shutdown()
