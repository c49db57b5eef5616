#!/usr/bin/env bash
# HTTP/2 vs HTTP/1.1 over TLS, on loopback: `courier serve --tls-cert` (which offers both by
# ALPN) answering small JSON pages (/locations?country=fr), and clients that send REQUESTS GETs
# at CONCURRENCY, reading each whole body:
#   Courier+AHC   AsyncHTTPClientTransport, HTTP/2 (the default) or allowsHTTP2: false
#   raw AHC       AsyncHTTPClient, httpVersion .automatic or .http1Only
#   h2load        nghttp2's load generator, the peer: -m CONCURRENCY streams on 1 connection
#                 (h2), or --h1 with CONCURRENCY connections
# Clients alternate round by round; the table shows medians over ROUNDS (h2load reports no p99).
#
#   Benchmarks/compare/http2/run.sh [ROUNDS] [CONCURRENCY] [REQUESTS]
set -euo pipefail
export COURIER_BENCHMARKS=1  # Package.swift loads the benchmark programs only when asked
cd "$(dirname "$0")/../../.."
rounds=${1:-5}
concurrency=${2:-16}
requests=${3:-20000}
port=18421
command -v openssl >/dev/null || { echo "openssl is missing" >&2; exit 2; }

swift build -c release --product courier >/dev/null
swift build -c release --product client-load >/dev/null
work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT
. Benchmarks/compare/servers.sh

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
.build/release/courier serve --port "$port" --tls-cert "$work/cert.pem" --tls-key "$work/key.pem" \
    --log-level warning >/dev/null 2>&1 &
pids+=($!)
url="https://127.0.0.1:$port/locations?country=fr"
for _ in $(seq 100); do curl -fsk "$url" >/dev/null 2>&1 && break; sleep 0.1; done

results="$work/results"
export CLIENT_LOAD_CA="$work/cert.pem" CLIENT_LOAD_DECODE=none
for round in $(seq "$rounds"); do
    for client in courier ahc; do
        for version in h2 h1; do
            CLIENT_LOAD_HTTP1=$([ "$version" = h1 ] && echo 1 || echo 0) \
                .build/release/client-load run "$client" "$url" "$concurrency" "$requests" |
                sed "s/^$client/$client-$version/" >>"$results"
        done
    done
    if command -v h2load >/dev/null; then
        rps=$(h2load -n "$requests" -c 1 -m "$concurrency" "$url" 2>/dev/null | sed -n 's/^finished in .*, \([0-9.]*\) req\/s.*/\1/p')
        echo "h2load-h2 $rps 0 0" >>"$results"
        rps=$(h2load --h1 -n "$requests" -c "$concurrency" "$url" 2>/dev/null | sed -n 's/^finished in .*, \([0-9.]*\) req\/s.*/\1/p')
        echo "h2load-h1 $rps 0 0" >>"$results"
    fi
    echo "round $round/$rounds done" >&2
done

python3 - "$results" "$rounds" "$concurrency" "$requests" <<'PY'
import sys
sys.path.insert(0, "Benchmarks/compare")
from medians import medians
path, rounds, concurrency, requests = sys.argv[1], *sys.argv[2:]
median = medians(path)
print(f"{rounds} rounds x {requests} GETs at concurrency {concurrency} over TLS, medians")
print(f"{'client':<20}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'h2 / h1 req/s':>16}{'h2 / h1 p99':>14}")
for name, label in [("courier", "Courier+AHC"), ("ahc", "raw AHC"), ("h2load", "h2load")]:
    for version in ("h2", "h1"):
        key = f"{name}-{version}"
        if key not in median: continue
        rps, p50, p99 = median[key]
        other = median.get(f"{name}-h1")
        ratio = f"{rps / other[0]:>16.3f}" if version == "h2" and other else " " * 16
        tail = f"{p99 / other[2]:>14.3f}" if version == "h2" and other and other[2] else ""
        print(f"{label + ' ' + version:<20}{rps:>10.0f}{p50:>10.3f}{p99:>10.3f}{ratio}{tail}")
PY
