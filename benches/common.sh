# Sourced by the benchmarks (bash): what every one of them sets up the same way.
#
# Sets ROOT (the checkout), BIN (the safe-ad to measure: $SAFE_AD_BIN, else a release build made
# here), WORK (a scratch directory, removed at exit) and EMU_PID (for the script to set when it
# starts an emulator, which is stopped at exit); keeps proxies out (loopback only) and the user's
# safe-ad config and ~/.curlrc out. $1 names the script in messages.
bench=$1
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

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
