#!/usr/bin/env bash
# `courier movies refresh` vs the same refresh in Python (peer.py: sqlite3 + urllib + a thread
# pool), both against the loopback TMDB stand-in answering every request after LATENCY ms:
# 1,000 pending ratings at concurrency 1, 4 and 16, wall time per run, medians, and after each
# run a check that every movie is rated consistently and the file is sound.
#
#   Benchmarks/compare/movies/run.sh [ROUNDS] [MOVIES] [LATENCY_MS]
#   CONCURRENCY="16" Benchmarks/compare/movies/run.sh …   (only some of the levels)
set -euo pipefail
export COURIER_BENCHMARKS=1  # Package.swift loads the benchmark programs only when asked
cd "$(dirname "$0")/../../.."
rounds=${1:-3}
movies=${2:-1000}
latency=${3:-50}
port=${PORT:-9402}
levels=${CONCURRENCY:-1 4 16}
here=Benchmarks/compare/movies

swift build -c release --product courier >/dev/null
swift build -c release --product movies-bench >/dev/null
.build/release/movies-bench serve "$port" &
server=$!
work=$(mktemp -d)
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
sleep 1
export TMDB_ACCESS_TOKEN=courier-test-read-access-token
service="http://127.0.0.1:$port/slow/$latency"

results=$work/results
for round in $(seq "$rounds"); do
    for concurrency in $levels; do
        for tool in courier python; do
            database=$work/$tool-$concurrency-$round.sqlite
            .build/release/movies-bench seed "$database" "$movies"
            start=$(date +%s.%N)
            case $tool in
                courier) .build/release/courier movies refresh --database "$database" --service "$service" \
                    --concurrency "$concurrency" 2>/dev/null || true ;;
                python) python3 "$here/peer.py" "$database" "$service" "$concurrency" >/dev/null ;;
            esac
            end=$(date +%s.%N)
            .build/release/movies-bench check "$database" "$movies" >/dev/null
            echo "$tool $concurrency $(echo "$end - $start" | bc)" >>"$results"
        done
    done
    echo "round $round/$rounds done" >&2
done

python3 - "$results" "$rounds" "$movies" "$latency" "$levels" <<'PY'
import statistics, sys
path, rounds, movies, latency = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
levels = [int(level) for level in sys.argv[5].split()]
times = {}
for line in open(path):
    tool, concurrency, seconds = line.split()
    times.setdefault((tool, int(concurrency)), []).append(float(seconds))
print(f"{movies} pending ratings, {latency} ms per request, {rounds} rounds, medians; every run checked consistent")
print(f"{'concurrency':>11}{'courier s':>11}{'python s':>10}{'courier/python':>16}{'latency bound s':>17}{'courier/bound':>15}")
for concurrency in levels:
    c = statistics.median(times[("courier", concurrency)])
    p = statistics.median(times[("python", concurrency)])
    bound = movies * latency / 1000 / concurrency
    print(f"{concurrency:>11}{c:>11.2f}{p:>10.2f}{c / p:>16.2f}{bound:>17.2f}{c / bound:>15.2f}")
PY
