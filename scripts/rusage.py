#!/usr/bin/env python3
"""Runs a command and writes its wall time, CPU time and peak memory in the
lines of GNU `time -v`'s report that scripts/cli-compare.sh reads, to
microseconds rather than GNU time's hundredths of a second: a 100,000-row
script runs in a tenth of a second, where hundredths moved a ratio by a
tenth.

    scripts/rusage.py REPORT COMMAND [ARG...]

The peak memory is GNU time's (`/usr/bin/time -f %M`, which the command
runs under): a child forked from Python would count Python's own pages in
its high-water mark. Its CPU time (a millisecond) is inside the figures.

Standard input, output and error are the command's. Exits with the
command's exit code (128 + N when signal N ended it).
"""

import os
import subprocess
import sys
import time


def main(argv) -> int:
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    report, command = argv[1], argv[2:]
    rss_file = report + ".rss"
    start = time.perf_counter()
    child = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", rss_file] + command)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = 0  # reaped here, not by Popen
    cpu = usage.ru_utime + usage.ru_stime
    minutes, seconds = divmod(wall, 60)
    with open(rss_file) as rss_text:
        # GNU time writes "Command exited with non-zero status N" first then.
        rss_kb = rss_text.read().split()[-1]
    with open(report, "w") as out:
        out.write(f"\tUser time (seconds): {usage.ru_utime:.6f}\n")
        out.write(f"\tSystem time (seconds): {usage.ru_stime:.6f}\n")
        out.write(f"\tPercent of CPU this job got: {round(100 * cpu / wall) if wall > 0 else 0}%\n")
        out.write(f"\tElapsed (wall clock) time (h:mm:ss or m:ss): {int(minutes)}:{seconds:09.6f}\n")
        out.write(f"\tMaximum resident set size (kbytes): {rss_kb}\n")
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
