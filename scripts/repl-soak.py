#!/usr/bin/env python3
"""A long interactive session: drives `widerow` (the REPL) on a
pseudo-terminal with N statements typed one after another, as a person
would, and prints a Markdown table of its resident memory and the length
of its history file as the session goes on. Both must stay flat: the
history keeps the last 2,000 statements, and nothing else grows per
statement.

    scripts/repl-soak.py [--statements N] [--binary PATH]

Nine statements in ten are INSERTs to the same 100,000 rows, the tenth a
point SELECT; the history file is a scratch one (`WIDEROW_HISTORY`).
"""
import argparse
import os
import pty
import select
import tempfile
import time

PROMPT = b"widerow:ks>"


class Repl:
    def __init__(self, binary, history):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.environ["WIDEROW_HISTORY"] = history
            os.environ["NO_COLOR"] = "1"
            os.execv(binary, [binary])
        self.buffer = b""

    def wait_for(self, pattern, timeout=60):
        end = time.time() + timeout
        while pattern not in self.buffer:
            ready, _, _ = select.select([self.fd], [], [], max(0, end - time.time()))
            if not ready:
                raise SystemExit(f"timed out waiting for {pattern!r}: {self.buffer[-300:]!r}")
            self.buffer += os.read(self.fd, 65536)
        self.buffer = self.buffer[self.buffer.index(pattern) + len(pattern):]

    def run(self, statement, prompt=PROMPT):
        os.write(self.fd, statement.encode() + b"\r")
        self.wait_for(prompt)

    def rss_kb(self):
        with open(f"/proc/{self.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS"):
                    return int(line.split()[1])
        return 0


def statement(i):
    if i % 10 == 0:
        return f"SELECT * FROM t WHERE k = {i % 100} AND c = {i % 1000};"
    return f"INSERT INTO t (k, c, v) VALUES ({i % 100}, {i % 1000}, 'value {i}');"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--statements", type=int, default=100_000)
    parser.add_argument("--binary", default="target/release/widerow")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        history = os.path.join(scratch, "history")
        repl = Repl(os.path.abspath(args.binary), history)
        repl.wait_for(b"widerow>")
        repl.run(
            "CREATE KEYSPACE ks WITH replication = "
            "{'class': 'SimpleStrategy', 'replication_factor': 1};",
            b"widerow>",
        )
        repl.run("USE ks;")
        repl.run("CREATE TABLE t (k int, c int, v text, PRIMARY KEY (k, c));")
        marks = sorted({m for m in (1_000, 10_000, 50_000, 100_000) if m < args.statements} | {args.statements})
        print("| statements run | resident memory | history file | elapsed |")
        print("| ---: | ---: | ---: | ---: |")
        start = time.time()
        for i in range(1, args.statements + 1):
            repl.run(statement(i))
            if i in marks:
                with open(history) as f:
                    lines = sum(1 for _ in f)
                print(f"| {i:,} | {repl.rss_kb() / 1024:.1f} MB | {lines:,} lines | {time.time() - start:.0f} s |", flush=True)
        os.write(repl.fd, b"EXIT\r")
        os.waitpid(repl.pid, 0)


if __name__ == "__main__":
    main()
