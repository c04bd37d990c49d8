#!/usr/bin/env bash
# Benchmark of one poll of `safe-ad wait` and `safe-ad watch` on a 1,000-item handle, against
# `safe-ad show` of the same handle, in requests and in milliseconds, over loopback only.
#
#   bash benches/poll.sh                      # builds target/release/safe-ad first
#   SAFE_AD_BIN=/path/to/safe-ad bash benches/poll.sh
#
# Knobs (environment): ITEMS (items of the handle, default 1000), RUNS (runs of each, default 10),
# POLLS (polls of the long watch, default 21).
#
# What it does: writes an emulator state file with one appendable data of ITEMS structured-data
# items, starts `safe-ad emulator --state` on 127.0.0.1 with a random port, gets a handle for it
# with `safe-ad open`, then alternates
#   1. `safe-ad show HANDLE`;
#   2. `safe-ad watch HANDLE --json --count 1` (your key, one poll);
#   3. `safe-ad watch HANDLE --json --count POLLS --interval 0.001` (your key, POLLS polls back to
#      back: the interval is shorter than a poll, so none waits).
# One poll's time is (3 - 2) / (POLLS - 1): start-up and your key cancel out. Requests are counted
# in the emulator's journal (`safe-ad emulator requests --count`) around one run of each; a poll
# of a handle's network side (`wait --for new-items|item|version-above=N`, `watch` of a name)
# sends the same requests as `watch` of a handle but the copy's metadata. A measurement, not a
# test: the exit code is 0 (the run fails only if a command fails).
set -euo pipefail

# ROOT, BIN, WORK, EMU_PID, the cleanup at exit, no proxies, no user config; start_emulator,
# text_items_state.
. "$(dirname "${BASH_SOURCE[0]}")/common.sh" poll.sh

ITEMS=${ITEMS:-1000}
RUNS=${RUNS:-10}
POLLS=${POLLS:-21}

command -v python3 >/dev/null || { echo "poll.sh: python3 is needed" >&2; exit 1; }

NAME=$(text_items_state "$WORK/state.json")

start_emulator --state "$WORK/state.json"
HANDLE=$("$BIN" -q open "$NAME")

export BIN HANDLE NAME ITEMS RUNS POLLS
timeout --kill-after=10 900 python3 - <<'PYEOF'
import os, statistics, subprocess, sys

sys.path.insert(0, os.environ["BENCHES"])
from common import DEVNULL, header, timed

BIN, HANDLE, NAME = os.environ["BIN"], os.environ["HANDLE"], os.environ["NAME"]
ITEMS, RUNS, POLLS = int(os.environ["ITEMS"]), int(os.environ["RUNS"]), int(os.environ["POLLS"])

def journal():
    r = subprocess.run([BIN, "emulator", "requests", "--count"], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"poll.sh: emulator requests --count exited {r.returncode}: {r.stderr[:500]}")
    return int(r.stdout.split()[0])

def requests(argv):
    before = journal()
    timed(argv)
    return journal() - before

header(BIN)
print(f"handle {HANDLE}: {ITEMS} structured-data items")
show = [BIN, "show", HANDLE]
one = [BIN, "watch", HANDLE, "--json", "--count", "1"]
many = [BIN, "watch", HANDLE, "--json", "--count", str(POLLS), "--interval", "0.001"]
by_name = [BIN, "watch", NAME, "--json", "--count", "1"]
on_network = [BIN, "wait", HANDLE, "--for", "version-above=0"]
counts = {"show": requests(show), "one": requests(one), "many": requests(many),
          "name": requests(by_name), "wait": requests(on_network)}
per_poll = (counts["many"] - counts["one"]) / (POLLS - 1)
key = counts["one"] - per_poll
shows, ones, manys = [], [], []
for _ in range(RUNS):
    shows.append(timed(show))
    ones.append(timed(one))
    manys.append(timed(many))
a, b, c = (statistics.median(v) for v in (shows, ones, manys))
poll_ms = (c - b) / (POLLS - 1) * 1000
def ms(values):
    return f"{statistics.median(values) * 1000:.0f} ms ({min(values) * 1000:.0f}-{max(values) * 1000:.0f})"
print(f"safe-ad show {HANDLE}:                       median {ms(shows)}, {counts['show']} requests")
print(f"safe-ad watch {HANDLE} --count 1:            median {ms(ones)}, {counts['one']} requests")
print(f"safe-ad watch {HANDLE} --count {POLLS} (back to back): median {ms(manys)}, {counts['many']} requests")
print(f"safe-ad watch NAME --count 1:           {counts['name']} requests; "
      f"safe-ad wait {HANDLE} --for version-above=0: {counts['wait']} requests (your key, one poll)")
print()
print("| measure | show | one poll | ratio |")
print("|---|---|---|---|")
print(f"| requests, a {ITEMS:,}-item handle | {counts['show']} | {per_poll:.0f} (watch of a handle; "
      f"{counts['wait'] - key:.0f} for wait's network side, {counts['name'] - key:.0f} for a name) | "
      f"{per_poll / counts['show']:.4f} |")
print(f"| milliseconds (median wall) | {a * 1000:.0f} | {poll_ms:.1f} | {poll_ms / (a * 1000):.3f} |")
PYEOF
