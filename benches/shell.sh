#!/usr/bin/env bash
# Benchmark of `safe-ad shell`: LINES `metadata 1` lines through one `safe-ad shell` process,
# against LINES processes of `safe-ad metadata 1`, side by side in one run, over loopback only.
#
#   bash benches/shell.sh                    # builds target/release/safe-ad first
#   SAFE_AD_BIN=/path/to/safe-ad bash benches/shell.sh
#
# Knobs (environment): LINES (commands in each, default 1000), RUNS (runs of each, default 3).
#
# What it does: starts `safe-ad emulator` on 127.0.0.1 with a random port, writes a script of
# LINES `metadata 1` lines, then alternates
#   1. `safe-ad shell SCRIPT > /dev/null`: one process, LINES commands;
#   2. a loop in sh of LINES `safe-ad metadata 1 > /dev/null`: one process each.
# Both must exit 0. The ratio is the processes' median wall time over the shell's; issue 45's
# target is at least 5. Wall times are python3's perf_counter around the child. A measurement,
# not a test: the exit code is 0 whether or not the target is met.
set -euo pipefail

# ROOT, BIN, WORK, EMU_PID, the cleanup at exit, no proxies, no user config; start_emulator,
# text_items_state.
. "$(dirname "${BASH_SOURCE[0]}")/common.sh" shell.sh

LINES=${LINES:-1000}
RUNS=${RUNS:-3}

command -v python3 >/dev/null || { echo "shell.sh: python3 is needed" >&2; exit 1; }

start_emulator

for _ in $(seq 1 "$LINES"); do echo 'metadata 1'; done >"$WORK/script"

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
timed(shell)  # warm-up
shells, loops = [], []
for _ in range(RUNS):
    shells.append(timed(shell))
    loops.append(timed(loop))
a, b = statistics.median(shells), statistics.median(loops)
def ms(values):
    return f"{statistics.median(values) * 1000:.0f} ms ({min(values) * 1000:.0f}-{max(values) * 1000:.0f})"
print(f"safe-ad shell, {LINES} lines:     median {ms(shells)} over {RUNS} runs")
print(f"{LINES} safe-ad metadata processes: median {ms(loops)} over {RUNS} runs")
print()
print("| measure | shell | processes | ratio | target |")
print("|---|---|---|---|---|")
print(f"| {LINES:,} `metadata 1` (median wall) | {ms(shells)} | {ms(loops)} | {b / a:.1f} | "
      f"at least 5: {'yes' if b / a >= 5 else 'NO'} |")
PYEOF
