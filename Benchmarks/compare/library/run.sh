#!/usr/bin/env bash
# courier serve vs two Node peers on Node's built-in http module, on loopback, same data,
# same URL mix, same result cap (100), in one run:
#   faithful  the chapter's design: reads and parses the file on every request
#   tuned     loads once, folds keys once, scans linearly, pre-serialised items
# Two data sets: the built-in one (98 libraries, 1,236 books) and a synthetic one with 1M
# books. wrk (1 thread, CONNECTIONS connections) runs against each server in turn, round by
# round, so machine noise hits them alike; the table shows medians over the rounds.
# courier serve runs with --log-level warning: the peers keep no access log either.
#
#   Benchmarks/compare/library/run.sh [ROUNDS] [SECONDS] [CONNECTIONS]
set -euo pipefail
export COURIER_BENCHMARKS=1  # Package.swift loads the benchmark programs only when asked
cd "$(dirname "$0")/../../.."
rounds=${1:-3}
seconds=${2:-10}
connections=${3:-64}
here=Benchmarks/compare/library
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 2; }
command -v node >/dev/null || { echo "node is missing" >&2; exit 2; }

swift build -c release --product courier >/dev/null
swift build -c release --product library-data >/dev/null
data=.build/library-bench-data
[ -f "$data/embedded/catalog.json" ] || .build/release/library-data "$data/embedded" embedded >&2
[ -f "$data/million/catalog.json" ] || .build/release/library-data "$data/million" 1000000 1000 >&2

pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
. Benchmarks/compare/servers.sh
wait_for() { wait_until_answers "http://127.0.0.1:$1/catalog?q=zzz" 600 || exit 1; }

results=$(mktemp)
for set in embedded million; do
    .build/release/courier serve --port 18301 --data "$data/$set" --log-level warning >/dev/null &
    pids+=($!)
    node "$here/peers/tuned.js" 18302 "$data/$set" &
    pids+=($!)
    node "$here/peers/faithful.js" 18303 "$data/$set" &
    pids+=($!)
    wait_for 18301; wait_for 18302; wait_for 18303
    for round in $(seq "$rounds"); do
        for server in courier:18301 tuned:18302 faithful:18303; do
            name=${server%%:*}
            port=${server##*:}
            output=$(URLS="$here/$set.urls" wrk -t1 -c"$connections" -d"${seconds}s" --timeout 10s --latency \
                -s "$here/urls.lua" "http://127.0.0.1:$port" 2>&1)
            echo "$set $name $(echo "$output" | python3 "$here/wrk_summary.py")" >>"$results"
        done
        echo "$set: round $round/$rounds done" >&2
    done
    kill "${pids[@]}" 2>/dev/null || true
    wait "${pids[@]}" 2>/dev/null || true
    pids=()
done

python3 - "$results" "$rounds" "$seconds" "$connections" <<'PY'
import statistics, sys
path, rounds, seconds, connections = sys.argv[1], *sys.argv[2:]
rows = {}
for line in open(path):
    data, server, rps, p50, p99, errors = line.split()
    rows.setdefault((data, server), []).append((float(rps), float(p50), float(p99), int(errors)))
print(f"wrk -t1 -c{connections} -d{seconds}s, {rounds} rounds, medians (errors: summed)")
print(f"{'data':<10}{'server':<10}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'errors':>8}{'courier req/s ÷ this':>22}")
for data in ["embedded", "million"]:
    courier = statistics.median(r[0] for r in rows[(data, "courier")])
    for server in ["courier", "tuned", "faithful"]:
        runs = rows[(data, server)]
        rps, p50, p99 = (statistics.median(r[i] for r in runs) for i in range(3))
        errors = sum(r[3] for r in runs)
        ratio = courier / rps if rps > 0 else float("inf")
        print(f"{data:<10}{server:<10}{rps:>10.0f}{p50:>10.2f}{p99:>10.2f}{errors:>8}{ratio:>22.1f}")
PY
