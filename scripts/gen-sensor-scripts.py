#!/usr/bin/env python3
"""Writes the sensor data of `benches/compare.rs` as two scripts.

    scripts/gen-sensor-scripts.py DIR [--rows N] [--slices N]

- DIR/sensors.cql: the keyspace and table, `USE iot;`, then one INSERT per
  reading, for `widerow -f DIR/sensors.cql`;
- DIR/sensors.sql: the same table as a `WITHOUT ROWID` table keyed on the
  three key columns, then the same rows inside `BEGIN; ... COMMIT;`, then
  `SELECT total_changes();` (constant time) so the caller can check that
  the `sqlite3` shell read every INSERT, for `sqlite3 :memory: < DIR/sensors.sql`.

The rows are compare.rs's: sensor s (0..sensors), day d (0..10), reading r
(0..100); sensor_id 'sensor-{s:05}', reading_date 2025-06-01 + d,
reading_ts the day's midnight + r × 864 s, temperature
((7s + 3d + r) mod 400) / 10, humidity r mod 100, pressure 1000 + s mod 50.
SQLite stores the date as days since the epoch and the timestamp as
milliseconds since the epoch, as compare.rs binds them.

--rows N (default 1,000,000) must be a multiple of 1,000 (10 days × 100
readings per sensor). The schema text is compare.rs's SCHEMA and SQL_SCHEMA.

--slices N (default 0: none) also writes the slice workload, N reads of one
whole partition (one sensor's day: 100 rows) each, the partitions in a fixed
pseudo-random order (all of them before any repeats):

- DIR/slices.cql: sensors.cql followed by the N SELECTs, for
  `widerow -f DIR/slices.cql` (the load and the reads in one process);
- DIR/slices.sql: the same N SELECTs in SQLite's terms, for
  `sqlite3 :memory: '.read sensors.sql' '.read slices.sql'`.
"""

import argparse
import datetime
import os
import random
import shutil
import sys

DAYS = 10
READINGS = 100
FIRST_DAY = 20_240  # 2025-06-01 in days since the epoch
DAY_MS = 86_400_000
STEP_MS = DAY_MS // READINGS

# compare.rs's SCHEMA, one statement a line.
CQL_SCHEMA = """CREATE KEYSPACE iot WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
USE iot;
CREATE TABLE sensor_readings (sensor_id text, reading_date date, reading_ts timestamp, temperature double, humidity double, pressure double, PRIMARY KEY ((sensor_id, reading_date), reading_ts));
"""

# compare.rs's SQL_SCHEMA.
SQL_SCHEMA = """CREATE TABLE sensor_readings (sensor_id TEXT NOT NULL, reading_date INTEGER NOT NULL, reading_ts INTEGER NOT NULL, temperature REAL, humidity REAL, pressure REAL, PRIMARY KEY (sensor_id, reading_date, reading_ts)) WITHOUT ROWID;
"""

EPOCH = datetime.date(1970, 1, 1)


def number(x: float) -> str:
    """A double as Rust's `{}` prints it (compare.rs formats its statement
    text that way): shortest round-trip digits, no `.0` on whole numbers."""
    if x == int(x):
        return str(int(x))
    return repr(x)


def slice_keys(sensors: int, count: int):
    """`count` (sensor, day) partitions: every partition once in a shuffled
    order (seed 1, so every run reads the same), then again, until `count`."""
    keys = [(s, d) for s in range(sensors) for d in range(DAYS)]
    random.Random(1).shuffle(keys)
    return [keys[i % len(keys)] for i in range(count)]


def write_slices(directory: str, cql_path: str, sensors: int, dates, count: int) -> None:
    """slices.cql (the load, then the reads) and slices.sql (the reads)."""
    slices_cql = os.path.join(directory, "slices.cql")
    slices_sql = os.path.join(directory, "slices.sql")
    shutil.copyfile(cql_path, slices_cql)
    with open(slices_cql, "a", buffering=1 << 20) as cql, open(slices_sql, "w", buffering=1 << 20) as sql:
        for s, d in slice_keys(sensors, count):
            sid = f"sensor-{s:05}"
            cql.write(f"SELECT * FROM sensor_readings WHERE sensor_id = '{sid}' "
                      f"AND reading_date = '{dates[d]}';\n")
            sql.write(f"SELECT * FROM sensor_readings WHERE sensor_id = '{sid}' "
                      f"AND reading_date = {FIRST_DAY + d};\n")
    print(f"{count} slices: {slices_cql}, {slices_sql}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", help="directory to write sensors.cql and sensors.sql to")
    ap.add_argument("--rows", type=int, default=1_000_000,
                    help="number of rows, a multiple of 1000 (default 1000000)")
    ap.add_argument("--slices", type=int, default=0,
                    help="also write slices.cql and slices.sql with N partition reads")
    args = ap.parse_args()
    per_sensor = DAYS * READINGS
    if args.rows <= 0 or args.rows % per_sensor:
        ap.error(f"--rows must be a positive multiple of {per_sensor}")
    sensors = args.rows // per_sensor
    os.makedirs(args.dir, exist_ok=True)

    # Per-day and per-reading texts, computed once.
    dates = [(EPOCH + datetime.timedelta(days=FIRST_DAY + d)).isoformat() for d in range(DAYS)]
    times = []
    for r in range(READINGS):
        ms = r * STEP_MS
        h, rem = divmod(ms // 1000, 3600)
        m, s = divmod(rem, 60)
        # cqlsh's display, as compare.rs's ts_text writes it.
        times.append(f"{h:02}:{m:02}:{s:02}.{ms % 1000:03}000+0000")

    cql_path = os.path.join(args.dir, "sensors.cql")
    sql_path = os.path.join(args.dir, "sensors.sql")
    with open(cql_path, "w", buffering=1 << 20) as cql, open(sql_path, "w", buffering=1 << 20) as sql:
        cql.write(CQL_SCHEMA)
        sql.write(SQL_SCHEMA)
        sql.write("BEGIN;\n")
        for s in range(sensors):
            sid = f"sensor-{s:05}"
            pressure = number(1000.0 + (s % 50))
            for d in range(DAYS):
                date = dates[d]
                days = FIRST_DAY + d
                day_ms = days * DAY_MS
                cql_prefix = (
                    "INSERT INTO sensor_readings (sensor_id, reading_date, reading_ts, "
                    f"temperature, humidity, pressure) VALUES ('{sid}', '{date}', '{date} "
                )
                sql_prefix = f"INSERT INTO sensor_readings VALUES ('{sid}', {days}, "
                cql_lines = []
                sql_lines = []
                for r in range(READINGS):
                    temperature = number(((s * 7 + d * 3 + r) % 400) / 10.0)
                    humidity = number(float(r % 100))
                    cql_lines.append(
                        f"{cql_prefix}{times[r]}', {temperature}, {humidity}, {pressure});\n")
                    sql_lines.append(
                        f"{sql_prefix}{day_ms + r * STEP_MS}, {temperature}, {humidity}, {pressure});\n")
                cql.write("".join(cql_lines))
                sql.write("".join(sql_lines))
        sql.write("COMMIT;\n")
        sql.write("SELECT total_changes();\n")
    if args.slices > 0:
        write_slices(args.dir, cql_path, sensors, dates, args.slices)
    print(f"{args.rows} rows ({sensors} sensors x {DAYS} days x {READINGS} readings): "
          f"{cql_path} ({os.path.getsize(cql_path)} bytes), {sql_path} ({os.path.getsize(sql_path)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
