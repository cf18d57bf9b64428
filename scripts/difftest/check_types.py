"""Runs scripts/difftest/all_types.cql on the Cassandra node and on widerow and
compares the two record by record: a check of cassandra_side's value formatting
(and of widerow's). Exit 1 on any difference.

    scripts/difftest/venv.sh && target/oracle-venv/bin/python scripts/difftest/check_types.py
        [--host 127.0.0.1] [--port 19042] [--widerow target/release/widerow]
"""

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import cassandra_side as cs  # noqa: E402
from records import differences, load_record  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default=os.environ.get("ORACLE_HOST", "127.0.0.1"))
    ap.add_argument("--port", type=int, default=int(os.environ.get("ORACLE_PORT", "19042")))
    ap.add_argument("--widerow", default=os.path.join(REPO, "target/release/widerow"))
    ap.add_argument("--file", default=os.path.join(HERE, "all_types.cql"))
    args = ap.parse_args()
    text = open(args.file, encoding="utf-8").read()
    wr = subprocess.run([args.widerow, "-f", args.file, "--format", "json"], capture_output=True, text=True)
    expected = {}
    for line in wr.stdout.splitlines():
        rec = load_record(line)
        expected[rec["line"]] = rec
    session = cs.connect(args.host, args.port)
    cs.run(session, "DROP KEYSPACE IF EXISTS types")
    bad = 0
    for st in cs.split_statements(text):
        got = cs.run(session, st.text, paged=True)
        exp = expected.get(st.line)
        if exp is None:
            print(f"{st.line}: widerow printed nothing for: {st.text[:80]}")
            bad += 1
            continue
        diffs = differences(exp, got)
        if diffs:
            bad += 1
            print(f"--- line {st.line}: {st.text[:100]}")
            for d in diffs:
                print("   ", d)
            print("    widerow:  ", cs.to_jsonl({k: v for k, v in exp.items() if k not in ('metrics',)}))
            print("    Cassandra:", cs.to_jsonl(got))
    cs.close(session)
    print(f"{bad} statement(s) differ" if bad else "all statements agree")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
