"""Paging: 10,000 rows at fetch_size 1000, resumption by paging_state, and a
tampered paging state that must fail fast."""

import pytest
from cassandra.concurrent import execute_concurrent_with_args
from cassandra.protocol import ProtocolException
from cassandra.query import SimpleStatement

from conftest import PROTOCOL, make_cluster

PARTITIONS = 10
PER_PARTITION = 1000  # 10,000 rows


@pytest.fixture(scope="module")
def paged(session, keyspace):
    table = f"{keyspace}.paged"
    session.execute(f"CREATE TABLE {table} (p int, c int, v text, PRIMARY KEY (p, c))")
    ins = session.prepare(f"INSERT INTO {table} (p, c, v) VALUES (?, ?, ?)")
    # written out of clustering order; the server must sort them
    args = [(p, (i * 7919) % PER_PARTITION, f"{p}:{(i * 7919) % PER_PARTITION}")
            for p in range(PARTITIONS) for i in range(PER_PARTITION)]
    for ok, res in execute_concurrent_with_args(session, ins, args, concurrency=64, raise_on_first_error=True):
        assert ok, res
    return table


def check_order(rows):
    """All rows; each partition in one run, clustering 0..N-1 ascending."""
    runs = []
    for r in rows:
        assert r.v == f"{r.p}:{r.c}", r
        if not runs or runs[-1][0] != r.p:
            assert r.p not in [p for p, _ in runs], f"partition {r.p} comes back in two runs"
            runs.append((r.p, []))
        runs[-1][1].append(r.c)
    assert sorted(p for p, _ in runs) == list(range(PARTITIONS))
    for p, cs in runs:
        assert cs == list(range(PER_PARTITION)), f"partition {p} out of clustering order or incomplete"
    return [p for p, _ in runs]


def test_paging_all_rows(session, paged):
    rs = session.execute(SimpleStatement(f"SELECT p, c, v FROM {paged}", fetch_size=1000))
    assert len(rs.current_rows) == 1000
    assert rs.has_more_pages
    rows = list(rs)
    assert len(rows) == PARTITIONS * PER_PARTITION
    check_order(rows)


def test_paging_prepared_by_hand(session, paged):
    """Page by page with paging_state: 10 pages of 1000, the last with no state,
    and the pages put together equal the auto-paged result."""
    stmt = session.prepare(f"SELECT p, c, v FROM {paged}")
    stmt.fetch_size = 1000
    full = list(session.execute(stmt))
    pages, state = [], None
    while True:
        rs = session.execute(stmt, paging_state=state)
        pages.append(list(rs.current_rows))
        state = rs.paging_state
        assert len(pages) <= 11, "paging never ends"
        if state is None:
            break
    sizes = [len(p) for p in pages]
    # Cassandra knows a page is the last only when it runs short; with exactly
    # 10,000 rows it may send an empty 11th page.
    assert sizes in ([1000] * 10, [1000] * 10 + [0]), sizes
    assert [r for p in pages for r in p] == full


def test_paging_resume_from_state(session, paged):
    """A paging state from one execution resumes a new one where it stopped."""
    stmt = SimpleStatement(f"SELECT p, c, v FROM {paged}", fetch_size=1000)
    first = session.execute(stmt)
    ps = first.paging_state
    assert isinstance(ps, bytes) and ps
    page1 = list(first.current_rows)
    # the same state twice gives the same next page
    again1 = list(session.execute(stmt, paging_state=ps).current_rows)
    again2 = list(session.execute(stmt, paging_state=ps).current_rows)
    assert again1 == again2 and len(again1) == 1000
    everything = list(session.execute(SimpleStatement(f"SELECT p, c, v FROM {paged}", fetch_size=5000)))
    assert page1 == everything[:1000]
    assert again1 == everything[1000:2000]


def test_paging_within_partition(session, paged):
    stmt = session.prepare(f"SELECT c FROM {paged} WHERE p = ? AND c >= ?")
    stmt.fetch_size = 300
    rs = session.execute(stmt, (4, 100))
    assert len(rs.current_rows) == 300
    assert [r.c for r in rs] == list(range(100, PER_PARTITION))
    desc = SimpleStatement(f"SELECT c FROM {paged} WHERE p = 4 ORDER BY c DESC", fetch_size=333)
    assert [r.c for r in session.execute(desc)] == list(range(PER_PARTITION - 1, -1, -1))


def test_paging_with_limit(session, paged):
    rs = session.execute(SimpleStatement(f"SELECT p, c FROM {paged} LIMIT 2500", fetch_size=1000))
    assert len(list(rs)) == 2500


@pytest.mark.parametrize("how", ["flipped", "truncated", "junk"])
def test_tampered_paging_state(paged, how):
    """A paging state the server never issued is an error, quickly, not a hang
    and not rows. (Cassandra answers a Protocol error, code 0x000A, "Invalid
    value for the paging state"; the driver then drops that connection, so
    this test uses a cluster of its own.)"""
    c = make_cluster(PROTOCOL, request_timeout=10)
    try:
        s = c.connect()
        stmt = SimpleStatement(f"SELECT p, c, v FROM {paged}", fetch_size=1000)
        ps = s.execute(stmt).paging_state
        bad = {
            "flipped": bytes([ps[0] ^ 0xFF]) + ps[1:],
            "truncated": ps[:3],
            "junk": b"\xde\xad\xbe\xef" * 5,
        }[how]
        with pytest.raises(ProtocolException, match="paging state"):
            s.execute(stmt, paging_state=bad)
    finally:
        c.shutdown()
