#!/usr/bin/env bash
# Streaming, three comparisons on the same loopback server (the Hummingbird test server in
# release, its own process), each client in turn, round by round; wall time and peak resident
# memory (/usr/bin/time -v), medians and ratios:
#
#   1. a 1 GiB body streamed by Courier (HTTPClient.stream over AsyncHTTPClientTransport)
#      vs by AsyncHTTPClient's own streaming body (stream-bench courier|ahc);
#   2. 1,000,000 small Server-Sent Events read by Courier (HTTPClient.events) vs by the Python
#      client sseclient-py (from PyPI, on requests), both counting events;
#   3. a 1 GiB file uploaded by `courier upload` vs `curl -T`; the server's SHA-256 is checked.
#
#   Benchmarks/compare/streaming/run.sh [ROUNDS] [BYTES] [EVENTS]
set -euo pipefail
export COURIER_BENCHMARKS=1  # Package.swift loads the benchmark programs only when asked
cd "$(dirname "$0")/../../.."
rounds=${1:-3}
bytes=${2:-1073741824}
events=${3:-1000000}
port=${PORT:-18702}
command -v curl >/dev/null || { echo "curl is missing" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time is missing: apt-get install -y time" >&2; exit 2; }

work=$(mktemp -d)
python3 -m venv "$work/venv" >/dev/null
"$work/venv/bin/pip" install -q sseclient-py requests >/dev/null

swift build -c release --product courier >/dev/null
swift build -c release --product stream-bench >/dev/null
. Benchmarks/compare/servers.sh
start_test_server "$port"
base="http://127.0.0.1:$port"

cat >"$work/sse.py" <<'PY'
import sys, requests, sseclient
response = requests.get(sys.argv[1], stream=True, headers={"Accept": "text/event-stream"})
count = sum(1 for _ in sseclient.SSEClient(response).events())
print(count, "events")
PY

head -c "$bytes" /dev/urandom >"$work/upload.bin"
expected_sha=$(sha256sum "$work/upload.bin" | cut -d' ' -f1)

results="$work/results"
measure() {  # name command…
    local name=$1
    shift
    /usr/bin/time -v "$@" >"$work/out" 2>"$work/time"
    local elapsed rss
    elapsed=$(grep "Elapsed (wall clock)" "$work/time" | awk '{print $NF}')
    rss=$(grep "Maximum resident set size" "$work/time" | awk '{print $NF}')
    echo "$name $elapsed $rss" >>"$results"
}
for round in $(seq "$rounds"); do
    measure stream-courier .build/release/stream-bench courier "$base/file/big?bytes=$bytes"
    grep -q "^$bytes bytes" "$work/out" || { echo "courier streamed: $(cat "$work/out")" >&2; exit 1; }
    measure stream-ahc .build/release/stream-bench ahc "$base/file/big?bytes=$bytes"
    grep -q "^$bytes bytes" "$work/out" || { echo "ahc streamed: $(cat "$work/out")" >&2; exit 1; }

    key="bench-$round-$RANDOM"
    measure events-courier .build/release/stream-bench events "$base/events/$key-c?count=$events" "$events"
    grep -q "^$events events" "$work/out" || { echo "courier read: $(cat "$work/out")" >&2; exit 1; }
    measure events-python "$work/venv/bin/python" "$work/sse.py" "$base/events/$key-p?count=$events"
    grep -q "^$events events" "$work/out" || { echo "sseclient read: $(cat "$work/out")" >&2; exit 1; }

    measure upload-courier .build/release/courier upload "$base/upload" "$work/upload.bin" -q
    grep -q "\"sha256\":\"$expected_sha\"" "$work/out" || { echo "courier upload: $(cat "$work/out")" >&2; exit 1; }
    measure upload-curl curl -s -T "$work/upload.bin" "$base/upload"
    grep -q "\"sha256\":\"$expected_sha\"" "$work/out" || { echo "curl upload: $(cat "$work/out")" >&2; exit 1; }
    echo "round $round/$rounds done" >&2
done

python3 - "$results" "$rounds" "$bytes" "$events" <<'PY'
import statistics, sys
path, rounds, size, events = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
def seconds(text):
    parts = [float(p) for p in text.split(":")]
    return sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
rows = {}
for line in open(path):
    name, elapsed, rss = line.split()
    rows.setdefault(name, []).append((seconds(elapsed), int(rss)))
median = {n: (statistics.median(r[0] for r in v), statistics.median(r[1] for r in v)) for n, v in rows.items()}
print(f"{rounds} rounds, medians; {size / 2**30:.2f} GiB bodies, {events} events")
print(f"{'run':<16}{'seconds':>10}{'rate':>16}{'peak RSS MiB':>14}")
for name, (t, rss) in median.items():
    rate = f"{events / t:,.0f} ev/s" if name.startswith("events") else f"{size / 2**20 / t:,.0f} MiB/s"
    print(f"{name:<16}{t:>10.2f}{rate:>16}{rss / 1024:>14.1f}")
def ratio(ours, theirs):
    return median[theirs][0] / median[ours][0]
print(f"streaming throughput, Courier / raw AsyncHTTPClient: {ratio('stream-courier', 'stream-ahc'):.2f}x")
print(f"events per second, Courier / sseclient-py: {ratio('events-courier', 'events-python'):.1f}x")
print(f"upload throughput, courier upload / curl -T: {ratio('upload-courier', 'upload-curl'):.2f}x")
PY
