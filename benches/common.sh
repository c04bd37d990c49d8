# Sourced by the benchmarks (bash): what every one of them sets up the same way.
#
# Sets ROOT (the checkout), BIN (the safe-ad to measure: $SAFE_AD_BIN, else a release build made
# here), WORK (a scratch directory, removed at exit) and EMU_PID (for the script to set when it
# starts an emulator, which is stopped at exit); keeps proxies out (loopback only) and the user's
# safe-ad config and ~/.curlrc out; exports BENCHES and BENCH for benches/common.py. $1 names the
# script in messages.
bench=$1
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# For the python the scripts run: `from common import timed, header` (benches/common.py).
export BENCHES=$ROOT/benches BENCH=$bench

# Loopback only: no proxy may see (or slow) these requests.
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY
export NO_PROXY='*' no_proxy='*'

if [ -n "${SAFE_AD_BIN:-}" ]; then
    BIN=$SAFE_AD_BIN
else
    echo "building: cargo build --release --locked" >&2
    (cd "$ROOT" && cargo build --release --locked --quiet)
    BIN=$ROOT/target/release/safe-ad
fi
[ -x "$BIN" ] || { echo "$bench: $BIN is not an executable" >&2; exit 1; }

WORK=$(mktemp -d)
EMU_PID=
cleanup() {
    if [ -n "$EMU_PID" ] && kill -0 "$EMU_PID" 2>/dev/null; then
        kill "$EMU_PID" 2>/dev/null || true
        for _ in $(seq 1 50); do kill -0 "$EMU_PID" 2>/dev/null || break; sleep 0.05; done
        kill -9 "$EMU_PID" 2>/dev/null || true
        wait "$EMU_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# safe-ad reads no config file of the user's; curl reads no ~/.curlrc.
mkdir -p "$WORK/config" "$WORK/curlhome"
export SAFE_AD_CONFIG_DIR=$WORK/config CURL_HOME=$WORK/curlhome

# Starts `safe-ad emulator` on a free loopback port with the extra flags given ("--state FILE",
# "--log FILE"), waits until it prints its variables, and exports SAFE_LAUNCHER_URL and
# SAFE_LAUNCHER_TOKEN; EMU_PID is set for the cleanup at exit.
start_emulator() {
    "$BIN" emulator --listen 127.0.0.1:0 --quiet "$@" >"$WORK/emulator.env" 2>"$WORK/emulator.err" &
    EMU_PID=$!
    for _ in $(seq 1 200); do
        grep -q '^SAFE_LAUNCHER_TOKEN=' "$WORK/emulator.env" 2>/dev/null && break
        kill -0 "$EMU_PID" 2>/dev/null || { echo "$bench: the emulator exited:" >&2; cat "$WORK/emulator.err" >&2; exit 1; }
        sleep 0.05
    done
    URL=$(sed -n 's/^SAFE_LAUNCHER_URL=//p' "$WORK/emulator.env")
    TOKEN=$(sed -n 's/^SAFE_LAUNCHER_TOKEN=//p' "$WORK/emulator.env")
    case "$URL" in http://127.*) ;; *) echo "$bench: $URL is not loopback" >&2; exit 1 ;; esac
    export SAFE_LAUNCHER_URL=$URL SAFE_LAUNCHER_TOKEN=$TOKEN
}

# Writes the emulator state FILE ($1): one appendable data on the "network" with ITEMS
# structured-data items whose content is text; prints the data's name.
text_items_state() {
    ITEMS=$ITEMS python3 - "$1" <<'PYEOF'
import base64, json, os, sys
items = int(os.environ["ITEMS"])
def name(n, tag):
    return base64.b64encode(n.to_bytes(4, "big") + bytes([tag]) * 28).decode()
sds = [{"name": name(n, 0x73), "typeTag": 500, "version": 0,
        "data": [base64.b64encode(f"bench item {n}".encode()).decode()]} for n in range(items)]
data = [{"structuredData": {"name": name(n, 0x73), "typeTag": 500}} for n in range(items)]
ad = name(0, 0x61)
json.dump({"format": "safe-ad-emulator-state/1",
           "appendableData": [{"name": ad, "version": 1, "filterType": "BlackList", "data": data}],
           "structuredData": sds}, open(sys.argv[1], "w"))
print(ad)
PYEOF
}
