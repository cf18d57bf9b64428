"""Runs a CQL script on a real Cassandra node and prints one JSON line per statement,
in widerow's `--format json` shape: the quickest way to ask the oracle what Cassandra
says, beside `widerow --format json -f FILE`.

    scripts/oracle-ask FILE.cql            # or: echo "…;" | scripts/oracle-ask -
    ORACLE_PORT=19242 scripts/oracle-ask FILE.cql

The node must be running (`scripts/cassandra/node start --wait`); every user keyspace
is dropped first unless --keep is given, so a script starts from an empty schema.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cassandra_side as cs  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", help="a .cql script, or - for standard input")
    parser.add_argument("--keep", action="store_true", help="keep existing keyspaces")
    parser.add_argument("--paged", action="store_true", help="page by 100 rows as cqlsh does")
    args = parser.parse_args()
    text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
    session = cs.connect(os.environ.get("ORACLE_HOST", "127.0.0.1"),
                         int(os.environ.get("ORACLE_PORT", "19042")))
    try:
        if not args.keep:
            cs.drop_user_keyspaces(session)
        for statement in cs.split_statements(text):
            record = {"line": statement.line, **cs.run(session, statement.text, paged=args.paged)}
            print(cs.to_jsonl(record), flush=True)
    finally:
        cs.close(session)
    return 0


if __name__ == "__main__":
    sys.exit(main())
