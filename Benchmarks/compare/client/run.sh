#!/usr/bin/env bash
# Courier+AsyncHTTPClient vs raw AsyncHTTPClient vs URLSession on the same loopback workload:
# many small JSON GETs (fetch, read, decode) at a fixed concurrency against one local
# Hummingbird server running in its own process. "raw AHC, same headers" sends the three header
# fields Courier sends by default (User-Agent, Accept, Accept-Encoding), to tell the library's
# cost from the cost of those bytes on the wire. A second workload has the server answer in gzip
# (/coded/movie): Courier decodes with its own decoder, raw AHC with its built-in decompression; the server shares the machine's cores with the client. Clients alternate round by round so machine
# noise hits them all alike; the table shows medians over the rounds and the ratios to raw AHC.
#
#   Benchmarks/compare/client/run.sh [ROUNDS] [CONCURRENCY] [REQUESTS]
set -euo pipefail
cd "$(dirname "$0")/../../.."
rounds=${1:-7}
concurrency=${2:-16}
requests=${3:-20000}
port=${PORT:-18181}

. Benchmarks/compare/servers.sh
start_test_server "$port"
load=.build/release/client-load

results=$(mktemp)
for round in $(seq "$rounds"); do
    for client in courier ahc ahc-same-headers urlsession; do
        "$load" run "$client" "http://127.0.0.1:$port/json" "$concurrency" "$requests" >>"$results"
    done
    for client in courier ahc-gzip; do
        "$load" run "$client" "http://127.0.0.1:$port/coded/movie" "$concurrency" "$requests" |
            sed 's/^/gzip-/' >>"$results"
    done
    echo "round $round/$rounds done" >&2
done

python3 - "$results" "$rounds" "$concurrency" "$requests" <<'PY'
import sys
sys.path.insert(0, "Benchmarks/compare")
from medians import medians
path, rounds, concurrency, requests = sys.argv[1], *sys.argv[2:]
median = medians(path)
base = median["ahc"]
print(f"{rounds} rounds x {requests} GETs at concurrency {concurrency}, medians")
same = median["ahc-same-headers"]
print(f"Courier+AHC vs raw AHC sending the same header fields: req/s {median['courier'][0] / same[0]:.3f}, p99 {median['courier'][2] / same[2]:.3f}")
print(f"{'client':<24}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'req/s vs AHC':>15}{'p99 vs AHC':>12}")
for client, label in [("courier", "Courier+AHC"), ("ahc", "raw AHC"), ("ahc-same-headers", "raw AHC, same headers"), ("urlsession", "URLSession")]:
    rps, p50, p99 = median[client]
    print(f"{label:<24}{rps:>10.0f}{p50:>10.3f}{p99:>10.3f}{rps / base[0]:>15.3f}{p99 / base[2]:>12.3f}")
gzip = median["gzip-ahc-gzip"]
print(f"gzip bodies (/coded/movie), vs raw AHC decompressing:")
for client, label in [("gzip-courier", "Courier+AHC"), ("gzip-ahc-gzip", "raw AHC, decompression on")]:
    rps, p50, p99 = median[client]
    print(f"{label:<24}{rps:>10.0f}{p50:>10.3f}{p99:>10.3f}{rps / gzip[0]:>15.3f}{p99 / gzip[2]:>12.3f}")
PY
