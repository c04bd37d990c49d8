#!/usr/bin/env bash
# Benchmark of `safe-ad show` on a 1,000-item handle, against the same chain of requests sent by a
# loop of curl calls, measured side by side in one run, over loopback only.
#
#   bash benches/show.sh                      # builds target/release/safe-ad first
#   SAFE_AD_BIN=/path/to/safe-ad bash benches/show.sh
#
# Knobs (environment): ITEMS (items of the handle, default 1000), RUNS (safe-ad runs, default 10),
# CURL_ITEMS (items the curl loop reads, default 100: one process per request, so its time per
# item does not depend on the count, and 1,000 items would take about a minute); KINDS
# (`structured`, the default: every item structured data; `mixed`: every other item an
# appendable data on the network, each its own); BEFORE_BIN (another safe-ad, e.g. one built
# before a change: `show` is then timed with both, run for run, and the requests each sends
# per item counted from the emulator's --log, so before and after compare on one handle).
#
# What it does: writes an emulator state file with one appendable data of ITEMS structured-data
# items, starts `safe-ad emulator --state` on 127.0.0.1 with a random port, gets a handle for it
# with `safe-ad open`, then alternates
#   1. `safe-ad show HANDLE > /dev/null` (default --jobs 8: 8 items at once, 16 handles at most);
#   2. the same chain per item as curl calls in a shell loop: the item's data id, its serialised
#      bytes, the structured data fetched through it, its content, the two handles dropped, the
#      signer's sign key, its serialised bytes (hashed, as show fingerprints it), that dropped;
#      once before the items, the metadata and the user's own sign key (get, serialise, drop).
# Time per item is each side's wall time over the items it read; the ratio is safe-ad's over
# curl's. Wall times are python3's perf_counter around the child. A measurement, not a test:
# the exit code is 0 whether or not the target is met (the run fails only if a side fails).
set -euo pipefail

# ROOT, BIN, WORK, EMU_PID, the cleanup at exit, no proxies, no user config; start_emulator,
# text_items_state.
. "$(dirname "${BASH_SOURCE[0]}")/common.sh" show.sh

ITEMS=${ITEMS:-1000}
RUNS=${RUNS:-10}
CURL_ITEMS=${CURL_ITEMS:-100}

for tool in curl python3 sha256sum; do
    command -v "$tool" >/dev/null || { echo "show.sh: $tool is needed" >&2; exit 1; }
done

# One appendable data on the "network" with ITEMS structured-data items whose content is text.
KINDS=${KINDS:-structured}
case "$KINDS" in structured|mixed) ;; *) echo "show.sh: KINDS is structured or mixed" >&2; exit 1 ;; esac
NAME=$(ITEMS=$ITEMS KINDS=$KINDS python3 - "$WORK/state.json" <<'PYEOF'
import base64, json, os, sys
items, mixed = int(os.environ["ITEMS"]), os.environ["KINDS"] == "mixed"
def name(n, tag):
    return base64.b64encode(n.to_bytes(4, "big") + bytes([tag]) * 28).decode()
appendable = [n for n in range(items) if mixed and n % 2]
structured = [n for n in range(items) if n not in set(appendable)]
sds = [{"name": name(n, 0x73), "typeTag": 500, "version": 0,
        "data": [base64.b64encode(f"bench item {n}".encode()).decode()]} for n in structured]
data = [{"structuredData": {"name": name(n, 0x73), "typeTag": 500}} for n in structured]
data += [{"appendableData": {"name": name(n, 0x62)}} for n in appendable]
ad = name(0, 0x61)
ads = [{"name": ad, "version": 1, "filterType": "BlackList", "data": data}]
ads += [{"name": name(n, 0x62), "version": 0, "filterType": "BlackList"} for n in appendable]
json.dump({"format": "safe-ad-emulator-state/1", "appendableData": ads,
           "structuredData": sds}, open(sys.argv[1], "w"))
print(ad)
PYEOF
)

start_emulator --state "$WORK/state.json" --log "$WORK/requests.jsonl"
HANDLE=$("$BIN" -q open "$NAME")

# The chain `show` sends, as curl calls: JSON answers read with sed, bytes kept as show keeps them.
cat >"$WORK/curl-chain.sh" <<'EOF'
h=$1; n=$2
auth="Authorization: Bearer $SAFE_LAUNCHER_TOKEN"
id() { sed -n 's/.*"handleId":\([0-9]*\).*/\1/p'; }
curl -s -H "$auth" "$SAFE_LAUNCHER_URL/appendable-data/metadata/$h" >/dev/null || exit 1
k=$(curl -s -H "$auth" "$SAFE_LAUNCHER_URL/sign-key" | id)
curl -s -H "$auth" "$SAFE_LAUNCHER_URL/sign-key/serialise/$k" | sha256sum >/dev/null
curl -s -X DELETE -H "$auth" "$SAFE_LAUNCHER_URL/sign-key/$k" >/dev/null
for ((i = 0; i < n; i++)); do
    d=$(curl -s -H "$auth" "$SAFE_LAUNCHER_URL/appendable-data/$h/$i" | id)
    curl -s -H "$auth" "$SAFE_LAUNCHER_URL/data-id/$d" | base64 -w0 >/dev/null
    s=$(curl -s -H "$auth" "$SAFE_LAUNCHER_URL/structured-data/handle/$d" | id)
    curl -s -H "$auth" "$SAFE_LAUNCHER_URL/structured-data/$s" >/dev/null
    curl -s -X DELETE -H "$auth" "$SAFE_LAUNCHER_URL/structured-data/handle/$s" >/dev/null
    curl -s -X DELETE -H "$auth" "$SAFE_LAUNCHER_URL/data-id/$d" >/dev/null
    k=$(curl -s -H "$auth" "$SAFE_LAUNCHER_URL/appendable-data/sign-key/$h/$i" | id)
    curl -s -H "$auth" "$SAFE_LAUNCHER_URL/sign-key/serialise/$k" | sha256sum >/dev/null
    curl -s -X DELETE -H "$auth" "$SAFE_LAUNCHER_URL/sign-key/$k" >/dev/null
    [ -n "$d" ] && [ -n "$s" ] && [ -n "$k" ] || { echo "item $i: an answer held no handle" >&2; exit 1; }
done
EOF

BEFORE_BIN=${BEFORE_BIN:-}
[ -z "$BEFORE_BIN" ] || [ -x "$BEFORE_BIN" ] || { echo "show.sh: $BEFORE_BIN is not an executable" >&2; exit 1; }
export BIN HANDLE ITEMS RUNS CURL_ITEMS WORK KINDS BEFORE_BIN
timeout --kill-after=10 900 python3 - <<'PYEOF'
import os, statistics, subprocess, sys, time

sys.path.insert(0, os.environ["BENCHES"])
from common import DEVNULL, header, timed

BIN, HANDLE, WORK = os.environ["BIN"], os.environ["HANDLE"], os.environ["WORK"]
ITEMS, RUNS, CURL_ITEMS = (int(os.environ[k]) for k in ("ITEMS", "RUNS", "CURL_ITEMS"))

header(BIN)
BEFORE, KINDS = os.environ["BEFORE_BIN"], os.environ["KINDS"]
what = "structured-data items" if KINDS == "structured" else "items, every other one appendable data"
print(f"handle {HANDLE}: {ITEMS} {what}")
show = [BIN, "show", HANDLE]

def requests_per_item(argv):
    log = f"{WORK}/requests.jsonl"
    before = sum(1 for _ in open(log))
    timed(argv)
    # The emulator writes a request's record once it has answered; give the last a moment.
    time.sleep(0.2)
    return (sum(1 for _ in open(log)) - before) / ITEMS

if BEFORE:
    old = [BEFORE, "show", HANDLE]
    print(f"before:  {subprocess.run([BEFORE, '--version'], capture_output=True, text=True).stdout.strip()} ({BEFORE})")
    r_new, r_old = requests_per_item(show), requests_per_item(old)
    timed(old)  # warm-up
    now, then = [], []
    for run in range(RUNS):
        now.append(timed(show))
        then.append(timed(old))
    n, o = statistics.median(now), statistics.median(then)
    print()
    print("| measure | before | after | after / before |")
    print("|---|---|---|---|")
    print(f"| requests per item (handle's share included) | {r_old:.2f} | {r_new:.2f} | {r_new / r_old:.3f} |")
    print(f"| show of a {ITEMS:,}-item handle (median wall, {RUNS} runs each) | {o * 1000:.0f} ms | {n * 1000:.0f} ms | {n / o:.3f} |")
    print()
chain = ["bash", f"{WORK}/curl-chain.sh", HANDLE, str(CURL_ITEMS)]
timed(show)  # warm-up
safe, curl = [], []
for run in range(RUNS):
    safe.append(timed(show))
    if run < 3:  # the curl loop is slow; three runs are enough for its median
        curl.append(timed(chain))
s, c = statistics.median(safe), statistics.median(curl)
per_s, per_c = s / ITEMS, c / CURL_ITEMS
print(f"safe-ad show {HANDLE}: median {s * 1000:.0f} ms over {RUNS} runs "
      f"(min {min(safe) * 1000:.0f}, max {max(safe) * 1000:.0f}), {per_s * 1e6:.0f} us per item")
print(f"curl loop, {CURL_ITEMS} items: median {c:.2f} s over {len(curl)} runs, {per_c * 1000:.1f} ms per item "
      f"(about {per_c * ITEMS:.0f} s for {ITEMS} items)")
print()
print("| measure | safe-ad | curl loop | ratio | target |")
print("|---|---|---|---|---|")
print(f"| show of a {ITEMS:,}-item handle (median wall) | {s * 1000:.0f} ms | about {per_c * ITEMS:.0f} s "
      f"(from {CURL_ITEMS} items) | {per_s / per_c:.4f} | well under 1 s: {'yes' if s < 1 else 'NO'} |")
PYEOF
