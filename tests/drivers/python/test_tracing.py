"""Tracing through the protocol: a traced request's trace, as the driver
reads it back from system_traces on the node it ran on. The shape is the
node's (request type, parameters, coordinator, the Parsing event first);
on widerow the events also name the replicas the coordinator contacted,
checked against the driver's own token map.
"""

import pytest
from cassandra.protocol import SyntaxException


def test_a_traced_query_has_the_nodes_shape(session, keyspace):
    session.execute(f"CREATE TABLE IF NOT EXISTS {keyspace}.traced (k int PRIMARY KEY, v int)")
    session.execute(f"INSERT INTO {keyspace}.traced (k, v) VALUES (1, 1)")
    query = f"SELECT v FROM {keyspace}.traced WHERE k = 1"
    result = session.execute(query, trace=True)
    assert result.one().v == 1
    trace = result.get_query_trace(20)
    assert trace.request_type == "Execute CQL3 query"
    assert trace.parameters["query"] == query
    assert trace.parameters["consistency_level"]
    assert trace.duration is not None and trace.duration.total_seconds() > 0
    assert trace.coordinator in {h.address for h in session.cluster.metadata.all_hosts()}
    assert trace.events, "a trace has events"
    assert trace.events[0].description == f"Parsing {query}"


def test_a_traced_prepared_read_names_its_replica(session, keyspace):
    try:
        session.execute("CLUSTER")
    except SyntaxException:
        pytest.skip("a real node's events name its internals, not a route to compare")
    session.execute(f"CREATE TABLE IF NOT EXISTS {keyspace}.routed_trace (k int PRIMARY KEY, v int)")
    select = session.prepare(f"SELECT v FROM {keyspace}.routed_trace WHERE k = ?")
    for k in range(8):
        bound = select.bind((k,))
        token_map = session.cluster.metadata.token_map
        owners = token_map.get_replicas(keyspace, token_map.token_class.from_key(bound.routing_key))
        trace = session.execute(bound, trace=True).get_query_trace(20)
        assert trace.request_type == "Execute CQL3 prepared query"
        sources = {e.source for e in trace.events if e.description.startswith("Executing")}
        assert sources == {owners[0].address}, (k, sources, owners)
        # Token-aware routing: the replica coordinated its own read.
        assert trace.coordinator == owners[0].address
