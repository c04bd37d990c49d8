#!/usr/bin/env bash
# Benchmark of `safe-ad shell`: LINES `metadata 1` lines through one `safe-ad shell` process,
# against LINES processes of `safe-ad metadata 1`, and against `curl -K` sending the same LINES
# requests in one process (one kept connection), side by side in one run, over loopback only.
#
#   bash benches/shell.sh                    # builds target/release/safe-ad first
#   SAFE_AD_BIN=/path/to/safe-ad bash benches/shell.sh
#
# Knobs (environment): LINES (commands in each, default 1000), RUNS (runs of each, default 5).
#
# What it does: starts `safe-ad emulator` on 127.0.0.1 with a random port, writes a script of
# LINES `metadata 1` lines and a curl config of the same LINES requests (the line `--curl`
# prints for `metadata 1`), then alternates
#   1. `safe-ad shell SCRIPT > /dev/null`: one process, LINES commands;
#   2. a loop in sh of LINES `safe-ad metadata 1 > /dev/null`: one process each;
#   3. `curl -K CONFIG > /dev/null`: one process, LINES requests.
# All must exit 0. Issue 54's targets: the shell at least 20 times faster than the processes,
# and within 1.3 times curl's time. Wall times are python3's perf_counter around the child. A
# measurement, not a test: the exit code is 0 whether or not the targets are met.
set -euo pipefail

# ROOT, BIN, WORK, EMU_PID, the cleanup at exit, no proxies, no user config; start_emulator,
# text_items_state.
. "$(dirname "${BASH_SOURCE[0]}")/common.sh" shell.sh

LINES=${LINES:-1000}
RUNS=${RUNS:-5}

command -v python3 >/dev/null || { echo "shell.sh: python3 is needed" >&2; exit 1; }
command -v curl >/dev/null || { echo "shell.sh: curl is needed" >&2; exit 1; }

start_emulator

for _ in $(seq 1 "$LINES"); do echo 'metadata 1'; done >"$WORK/script"
# The token goes in the config file, never on a command line; the file is the bench's own.
{
    printf 'silent\nshow-error\nfail-with-body\nheader = "Authorization: Bearer %s"\n' "$TOKEN"
    for _ in $(seq 1 "$LINES"); do printf 'url = "%s/appendable-data/metadata/1"\n' "$URL"; done
} >"$WORK/curl.config"

export BIN LINES RUNS WORK
timeout --kill-after=10 1800 python3 - <<'PYEOF'
import os, statistics, subprocess, sys

sys.path.insert(0, os.environ["BENCHES"])
from common import DEVNULL, header, timed

BIN, WORK = os.environ["BIN"], os.environ["WORK"]
LINES, RUNS = int(os.environ["LINES"]), int(os.environ["RUNS"])

header(BIN)
shell = [BIN, "shell", f"{WORK}/script"]
loop = ["sh", "-c", f'i=0; while [ $i -lt {LINES} ]; do "$0" metadata 1 >/dev/null || exit $?; i=$((i+1)); done', BIN]
curl = ["curl", "-K", f"{WORK}/curl.config"]
for warm in (shell, curl):
    timed(warm)
shells, loops, curls = [], [], []
for _ in range(RUNS):
    shells.append(timed(shell))
    loops.append(timed(loop))
    curls.append(timed(curl))
a, b, c = (statistics.median(v) for v in (shells, loops, curls))
def ms(values):
    return f"{statistics.median(values) * 1000:.0f} ms ({min(values) * 1000:.0f}-{max(values) * 1000:.0f})"
print(f"safe-ad shell, {LINES} lines:         median {ms(shells)} over {RUNS} runs")
print(f"{LINES} safe-ad metadata processes:     median {ms(loops)} over {RUNS} runs")
print(f"curl -K, {LINES} requests, one process: median {ms(curls)} over {RUNS} runs")
print()
print("| measure | shell | processes | curl -K | processes / shell | shell / curl -K | targets |")
print("|---|---|---|---|---|---|---|")
met = b / a >= 20 and a / c <= 1.3
print(f"| {LINES:,} `metadata 1` (median wall) | {ms(shells)} | {ms(loops)} | {ms(curls)} | "
      f"{b / a:.1f} | {a / c:.2f} | at least 20, at most 1.3: {'yes' if met else 'NO'} |")
PYEOF
