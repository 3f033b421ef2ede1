#!/usr/bin/env python3
"""Runs one bin/stress and measures it: used by bench/run-stress-ab.

  stress_cpu.py STRESS_HOME SERVER_PID LOG SKIP_SECONDS -- BIN_STRESS_OPTIONS...

Reads bin/stress's progress lines as they are printed and samples the CPU time (utime + stime, /proc/PID/stat) of
its JVM and of the server at the first line at or after SKIP_SECONDS and at the last progress line, so that the
steady-state figures leave out the JVM's start (and the server's CPU between runs). Prints one line of
key=value pairs: ops, ops_s, p50, p99 (ms), errors, stress_us (whole process, start included, as bench/lib.sh
run_stress), stress_us_steady, server_us_steady (CPU µs per call in the window).
"""
import os
import re
import subprocess
import sys

HZ = os.sysconf("SC_CLK_TCK")


def ticks(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 counted from 1)


def main(argv):
    if len(argv) < 6 or argv[5] != "--" or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv[1:2] in (["-h"], ["--help"]) else 2
    home, server_pid, log, skip = argv[1], int(argv[2]), argv[3], float(argv[4])
    proc = subprocess.Popen([f"{home}/bin/stress", *argv[6:]], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    first = last = None  # (elapsed, total ops, stress ticks, server ticks)
    total_ticks = None
    with open(log, "w") as out:
        for line in proc.stdout:
            out.write(line)
            fields = line.split()
            if len(fields) == 9 and re.fullmatch(r"[0-9.]+", fields[0]) and fields[1].isdigit():
                sample = (float(fields[0]), int(fields[1]), ticks(proc.pid), ticks(server_pid))
                if first is None and sample[0] >= skip:
                    first = sample
                last = sample
            if line.startswith("Done:"):
                # bin/stress exec's its JVM, so proc.pid is the JVM: its whole CPU time just before it exits.
                try:
                    total_ticks = ticks(proc.pid)
                except OSError:
                    pass
    proc.wait()
    text = open(log).read()
    done = re.search(r"^Done: (\d+) .*\((\d+) ops/s\), (\d+) errors", text, re.M)
    lat = re.search(r"^Latency.* p50 ([0-9.]+), .* p99 ([0-9.]+),", text, re.M)
    if not done or not lat or first is None or last is None or last[1] <= first[1]:
        print(f"bin/stress {' '.join(argv[6:])} failed or ran too short; see {log}", file=sys.stderr)
        return 1
    ops = int(done.group(1))
    window = last[1] - first[1]
    us = lambda t, n: t * 1e6 / HZ / n
    print(f"ops={ops} ops_s={done.group(2)} errors={done.group(3)} p50={lat.group(1)} p99={lat.group(2)} "
          f"stress_us={us(total_ticks, ops):.1f} stress_us_steady={us(last[2] - first[2], window):.1f} "
          f"server_us_steady={us(last[3] - first[3], window):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
