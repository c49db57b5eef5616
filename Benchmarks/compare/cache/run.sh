#!/usr/bin/env bash
# A range request answered from a stored 200 vs from the network, end to end through the
# courier command: 64 KiB from the middle of a 1 MiB resource, by `courier get --cache DIR`
# (its disk cache holds the whole 200: a new process reads and checks the entry, then cuts the
# part), by `courier get` without a cache, and by `curl -r` as the peer, from the same loopback
# server (the Hummingbird test server, release build, its own process). hyperfine runs them in
# one session; the table shows medians and ratios. Each command's output is checked first.
#
#   Benchmarks/compare/cache/run.sh [RUNS]
set -euo pipefail
export COURIER_BENCHMARKS=1  # Package.swift loads the benchmark programs only when asked
cd "$(dirname "$0")/../../.."
runs=${1:-40}
port=${PORT:-18702}
command -v hyperfine >/dev/null || { echo "hyperfine is missing: apt-get install -y hyperfine" >&2; exit 2; }
command -v curl >/dev/null || { echo "curl is missing" >&2; exit 2; }

swift build -c release --product courier >/dev/null
courier=.build/release/courier
work=$(mktemp -d)
. Benchmarks/compare/servers.sh
start_test_server "$port"

url="http://127.0.0.1:$port/cacheable/bench?cc=max-age%3D86400&etag=%22r%22&bytes=1048576"
range="bytes=524288-589823"
"$courier" get --cache "$work/cache" "$url" >/dev/null
# The three answers are the same 65,536 bytes, and the cached one is a hit.
"$courier" get --cache "$work/cache" -H "Range: $range" "$url" --verbose >"$work/cached" 2>"$work/log"
grep -q "cache HIT" "$work/log" || { echo "the cached range was not a hit:" >&2; cat "$work/log" >&2; exit 1; }
"$courier" get -H "Range: $range" "$url" >"$work/network"
curl -fs -r 524288-589823 "$url" >"$work/curl"
[ "$(stat -c %s "$work/cached")" = 65536 ] || { echo "courier --cache printed $(stat -c %s "$work/cached") bytes" >&2; exit 1; }
cmp -s "$work/cached" "$work/network" && cmp -s "$work/cached" "$work/curl" || { echo "the answers differ" >&2; exit 1; }

hyperfine -N --warmup 3 --runs "$runs" --export-json "$work/results.json" \
    -n "courier get --cache (stored 200)" "$courier get --cache $work/cache -H 'Range: $range' $url" \
    -n "courier get (network)" "$courier get -H 'Range: $range' $url" \
    -n "curl -r (network)" "curl -s -r 524288-589823 $url" >&2

python3 - "$work/results.json" "$runs" <<'PY'
import json, statistics, sys
results = json.load(open(sys.argv[1]))["results"]
median = {r["command"]: statistics.median(r["times"]) * 1000 for r in results}
curl = median["curl -r (network)"]
network = median["courier get (network)"]
print(f"64 KiB range of a 1 MiB resource, {sys.argv[2]} runs each, medians of wall time")
print(f"{'command':<36}{'ms':>8}{'vs curl':>10}{'vs courier network':>20}")
for command, ms in median.items():
    print(f"{command:<36}{ms:>8.2f}{ms / curl:>10.2f}{ms / network:>20.2f}")
PY
