"""Checks widerow's syntax errors against a real Cassandra 5.0 node, word for word.

Run it through ``scripts/oracle-syntax`` (which makes the venv). Every statement of
``tests/parser/err/*.cql`` is sent to the node (the one ``ORACLE_HOST``/``ORACLE_PORT``
name, else one started and stopped here) and run by widerow (``widerow -f FILE --format json``); the two
messages are compared. ``syntax_known.txt`` lists, as ``FILE:LINE``, the statements
whose message is known to differ (where ANTLR's prediction looks further ahead than
widerow's parser, see docs/divergences.md): those are reported, not failed on.

Exit 1 when a statement not on the list differs — or one on the list now agrees, so
the list is kept true (take it off); 2 when the node could not be used.
"""

from __future__ import annotations

import collections
import glob
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
REPO = os.path.dirname(os.path.dirname(HERE))

import cassandra_side as cs  # noqa: E402
from cassandra.query import SimpleStatement  # noqa: E402
from corpus import node  # noqa: E402

WIDEROW = os.environ.get("WIDEROW_BIN") or os.path.join(REPO, "target", "release", "widerow")
KNOWN = os.path.join(HERE, "syntax_known.txt")


def widerow_messages(path: str) -> dict[int, list[str]]:
    out = subprocess.run([WIDEROW, "-f", path, "--format", "json"], capture_output=True, text=True,
                         timeout=120)
    messages: dict[int, list[str]] = {}
    for line in out.stdout.splitlines():
        record = json.loads(line)
        messages.setdefault(record["line"], []).append(
            f"{record['error']}: {record['message']}" if record.get("kind") == "error" else "accepted")
    return messages


def cassandra_message(session, statement: str) -> str:
    """The node's answer to the statement exactly as cqlsh sends it, with its
    semicolon (which ANTLR's snippets count)."""
    try:
        session.execute(SimpleStatement(statement))
    except Exception as exc:  # noqa: BLE001 - every refusal is compared
        got = cs._error_record(exc)
        return f"{got['error']}: {got['message']}"
    return "accepted"


RANK = {"agree": 0, "snippet": 1, "message": 2}


def known() -> dict[str, str]:
    """``FILE:LINE snippet`` (only the snippet in parentheses differs) or
    ``FILE:LINE message`` (the message itself differs)."""
    listed = {}
    with open(KNOWN, encoding="utf-8") as f:
        for line in f:
            words = line.split("#")[0].split()
            if len(words) == 2 and words[1] in RANK:
                listed[words[0]] = words[1]
    return listed


def head(message: str) -> str:
    return message.split(" (", 1)[0] if message.startswith("SyntaxException: line") else message


def state(theirs: str, mine: str) -> str:
    if theirs == mine:
        return "agree"
    return "snippet" if head(theirs) == head(mine) else "message"


def main() -> int:
    if not os.path.exists(WIDEROW):
        print(f"oracle-syntax: no widerow at {WIDEROW}: cargo build --release, or set WIDEROW_BIN",
              file=sys.stderr)
        return 2
    managed = "ORACLE_HOST" not in os.environ and "ORACLE_PORT" not in os.environ
    if managed:
        node("stop")
        started = node("start", "--wait")
        sys.stderr.write(started.stdout + started.stderr)
        if started.returncode != 0:
            print("oracle-syntax: the node did not start", file=sys.stderr)
            return 2
    try:
        return check()
    finally:
        if managed:
            node("stop")


def check() -> int:
    host = os.environ.get("ORACLE_HOST", "127.0.0.1")
    port = int(os.environ.get("ORACLE_PORT", "19042"))
    try:
        session = cs.connect(host, port, clock=cs.Clock())
    except Exception as e:  # noqa: BLE001 - any failure to reach the node
        print(f"oracle-syntax: no node at {host}:{port}: {e}", file=sys.stderr)
        return 2
    listed = known()
    counts = {"agree": 0, "snippet": 0, "message": 0}
    worse, better, found = [], [], []
    for path in sorted(glob.glob(os.path.join(REPO, "tests", "parser", "err", "*.cql"))):
        rel = os.path.relpath(path, REPO)
        ours = widerow_messages(path)
        with open(path, encoding="utf-8") as f:
            statements = cs.split_statements(f.read())
        on_line = collections.Counter()
        for st in statements:
            # A second statement on a line is FILE:LINE+1, and so on.
            nth = on_line[st.line]
            on_line[st.line] += 1
            where = f"{rel}:{st.line}" + (f"+{nth}" if nth else "")
            theirs = cassandra_message(session, st.text.rstrip() + ";")
            records = ours.get(st.line, [])
            mine = records[nth] if nth < len(records) else "(no record)"
            now = state(theirs, mine)
            counts[now] += 1
            was = listed.get(where, "agree")
            entry = (where, now, st.text, theirs, mine)
            if now != "agree":
                found.append(entry)
            if RANK[now] > RANK[was]:
                worse.append(entry)
            elif RANK[now] < RANK[was]:
                better.append(entry)
    cs.close(session)
    total = sum(counts.values())
    print(f"syntax errors: {total} statements as cqlsh sends them; {counts['agree']} word for word, "
          f"{counts['snippet']} differ only in the snippet, {counts['message']} in the message")
    for title, entries in (("worse than syntax_known.txt says", worse),
                           ("better than syntax_known.txt says: update it", better),
                           ("every difference", found)):
        if entries:
            print(f"== {title} ==")
        for where, now, text, theirs, mine in entries:
            print(f"{where} {now}: {text}\n    Cassandra: {theirs}\n    widerow:   {mine}")
    return 1 if worse or better else 0


if __name__ == "__main__":
    sys.exit(main())
