"""Imported by the benchmarks' python (the heredocs that common.sh's scripts run): the timing of one
whole command and the header every report starts with, written once. common.sh exports BENCHES
(this directory) and BENCH (the script's name, for messages)."""
import os, platform, subprocess, sys, time

DEVNULL = subprocess.DEVNULL


def timed(argv):
    """Wall seconds of one run of argv (stdin, stdout empty); a run that fails ends the bench."""
    t = time.perf_counter()
    r = subprocess.run(argv, stdin=DEVNULL, stdout=DEVNULL, stderr=subprocess.PIPE)
    dt = time.perf_counter() - t
    if r.returncode != 0:
        sys.exit(f"{os.environ['BENCH']}: {argv[:4]} exited {r.returncode}: {r.stderr.decode()[:500]}")
    return dt


def header(bin):
    """The machine, its load at the start, and the safe-ad measured."""
    cpu_model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    print(f"machine: {os.cpu_count()} cores, {cpu_model}, {platform.system()} {platform.release()}")
    print(f"load:    {' '.join(open('/proc/loadavg').read().split()[:3])} (1, 5, 15 min) at start")
    version = subprocess.run([bin, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"safe-ad: {version} ({bin})")
