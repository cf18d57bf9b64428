#!/usr/bin/env python3
"""Writes the inputs of BENCHMARKS.md's `widerow -f` memory and COPY FROM runs.

    scripts/gen-load-scripts.py same-rows DIR [--statements N] [--distinct K]
        DIR/res_big.cql: a keyspace and table, then N INSERTs (default
        1,000,000) cycling over the same K rows (default 1,000);
        DIR/res_small.cql: the same with only the first K INSERTs.

    scripts/gen-load-scripts.py users DIR [--rows N]
        DIR/users.csv: N generated rows (default 1,000,000) of
        `int, text, text, int, double, timestamp`;
        DIR/copy.cql: the schema, `COPY ... FROM 'users.csv'`, a count;
        DIR/inserts.cql: the schema, the same rows as N INSERTs, a count.
        Run both from DIR (COPY reads users.csv relative to it).
"""

import argparse
import os
import sys

KEYSPACE = "CREATE KEYSPACE bench WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\nUSE bench;\n"


def same_rows(args) -> None:
    schema = KEYSPACE + "CREATE TABLE kv (k int PRIMARY KEY, v text, n bigint);\n"

    def write(path: str, count: int) -> None:
        with open(path, "w", buffering=1 << 20) as out:
            out.write(schema)
            lines = []
            for i in range(count):
                k = i % args.distinct
                lines.append(f"INSERT INTO kv (k, v, n) VALUES ({k}, 'value-{i:07}', {i});\n")
                if len(lines) == 10_000:
                    out.write("".join(lines))
                    lines.clear()
            out.write("".join(lines))

    write(os.path.join(args.dir, "res_big.cql"), args.statements)
    write(os.path.join(args.dir, "res_small.cql"), min(args.distinct, args.statements))
    print(f"{args.dir}/res_big.cql: {args.statements} INSERTs to {args.distinct} rows; "
          f"{args.dir}/res_small.cql: the first {min(args.distinct, args.statements)}")


def users(args) -> None:
    schema = KEYSPACE + (
        "CREATE TABLE users (id int PRIMARY KEY, name text, email text, age int, "
        "score double, created timestamp);\n")
    count = "SELECT count(*) FROM users;\n"
    csv_path = os.path.join(args.dir, "users.csv")
    with open(csv_path, "w", buffering=1 << 20) as csv, \
            open(os.path.join(args.dir, "inserts.cql"), "w", buffering=1 << 20) as cql:
        cql.write(schema)
        csv_lines, cql_lines = [], []
        for i in range(args.rows):
            name = f"user {i}"
            email = f"user{i}@example.com"
            age = 18 + i % 60
            score = (i * 37 % 10_000) / 100
            day = 1 + i % 28
            sec = i % 86_400
            created = f"2025-06-{day:02} {sec // 3600:02}:{sec // 60 % 60:02}:{sec % 60:02}+0000"
            csv_lines.append(f"{i},{name},{email},{age},{score},{created}\n")
            cql_lines.append(
                "INSERT INTO users (id, name, email, age, score, created) VALUES "
                f"({i}, '{name}', '{email}', {age}, {score}, '{created}');\n")
            if len(csv_lines) == 10_000:
                csv.write("".join(csv_lines))
                cql.write("".join(cql_lines))
                csv_lines.clear()
                cql_lines.clear()
        csv.write("".join(csv_lines))
        cql.write("".join(cql_lines))
        cql.write(count)
    with open(os.path.join(args.dir, "copy.cql"), "w") as out:
        out.write(schema)
        out.write("COPY users (id, name, email, age, score, created) FROM 'users.csv';\n")
        out.write(count)
    print(f"{csv_path}: {args.rows} rows; {args.dir}/copy.cql, {args.dir}/inserts.cql")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="kind", required=True)
    a = sub.add_parser("same-rows", help="res_big.cql and res_small.cql")
    a.add_argument("dir")
    a.add_argument("--statements", type=int, default=1_000_000)
    a.add_argument("--distinct", type=int, default=1_000)
    b = sub.add_parser("users", help="users.csv, copy.cql and inserts.cql")
    b.add_argument("dir")
    b.add_argument("--rows", type=int, default=1_000_000)
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    same_rows(args) if args.kind == "same-rows" else users(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
