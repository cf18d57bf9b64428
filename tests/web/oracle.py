"""Facts about partitions computed without the page: the token from the
Python cassandra-driver's own Murmur3, the replicas from the driver's token
map, built from the tokens `widerow serve` advertises in system.local and
system.peers on the default ring, for a keyspace replicated as the page's
`demo` keyspace is (NetworkTopologyStrategy, datacenter1: 3).

Reads JSON requests on standard input, one a line:
    {"type": "uuid" | "timeuuid" | "text", "value": "..."}
    {"type": "token", "value": "-4611686018427387904"}  (the range ending there)
and answers each with one JSON line:
    {"token": "...", "replicas": ["node2", ...]}

Usage: python oracle.py PORT   (the port of a running `widerow serve`)
"""

import json
import sys
import uuid

from cassandra.cluster import Cluster
from cassandra.metadata import Murmur3Token
from cassandra.murmur3 import murmur3


def key_bytes(kind, value):
    if kind in ("uuid", "timeuuid"):
        return uuid.UUID(value).bytes
    if kind == "text":
        return value.encode("utf-8")
    raise ValueError(f"unknown key type {kind!r}")


def node_name(address):
    # The default ring: nodeN answers on 127.0.0.N (DESIGN.md's contract).
    last = str(address).rsplit(".", 1)[1]
    return f"node{last}"


def main():
    port = int(sys.argv[1])
    cluster = Cluster(["127.0.0.1"], port=port, protocol_version=5)
    session = cluster.connect()
    session.execute(
        "CREATE KEYSPACE IF NOT EXISTS demo WITH replication = "
        "{'class': 'NetworkTopologyStrategy', 'datacenter1': 3}"
    )
    cluster.refresh_schema_metadata()
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        if request["type"] == "token":
            # The replicas of the token range ending at this token.
            token = int(request["value"])
            hosts = cluster.metadata.token_map.get_replicas("demo", Murmur3Token(token))
        else:
            raw = key_bytes(request["type"], request["value"])
            token = murmur3(raw)
            hosts = cluster.metadata.get_replicas("demo", raw)
        print(
            json.dumps({"token": str(token), "replicas": sorted(node_name(h.address) for h in hosts)}),
            flush=True,
        )
    cluster.shutdown()


if __name__ == "__main__":
    main()
