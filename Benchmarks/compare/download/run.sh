#!/usr/bin/env bash
# courier download vs curl -o, the same 1 GiB file from the same loopback server (the
# Hummingbird test server's /file route, release build, in its own process), in turn, round by
# round: wall time and peak resident memory (/usr/bin/time -v), medians and ratios. A download
# must stream: its peak memory should not grow with the file.
#
#   Benchmarks/compare/download/run.sh [ROUNDS] [BYTES]
set -euo pipefail
export COURIER_BENCHMARKS=1  # Package.swift loads the benchmark programs only when asked
cd "$(dirname "$0")/../../.."
rounds=${1:-3}
bytes=${2:-1073741824}
port=${PORT:-18701}
command -v curl >/dev/null || { echo "curl is missing" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time is missing: apt-get install -y time" >&2; exit 2; }

swift build -c release --product courier >/dev/null
work=$(mktemp -d)
. Benchmarks/compare/servers.sh
start_test_server "$port"

url="http://127.0.0.1:$port/file/big?bytes=$bytes"
results="$work/results"
for round in $(seq "$rounds"); do
    for client in courier curl; do
        rm -f "$work/out" "$work/out.download" "$work/out.download.json"
        if [ "$client" = courier ]; then
            command=(.build/release/courier download "$url" -o "$work/out" -q)
        else
            command=(curl -s -o "$work/out" "$url")
        fi
        /usr/bin/time -v "${command[@]}" 2>"$work/time"
        size=$(stat -c %s "$work/out")
        [ "$size" = "$bytes" ] || { echo "$client wrote $size bytes, not $bytes" >&2; exit 1; }
        elapsed=$(grep "Elapsed (wall clock)" "$work/time" | awk '{print $NF}')
        rss=$(grep "Maximum resident set size" "$work/time" | awk '{print $NF}')
        echo "$client $elapsed $rss" >>"$results"
    done
    echo "round $round/$rounds done" >&2
done

python3 - "$results" "$rounds" "$bytes" <<'PY'
import statistics, sys
path, rounds, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
def seconds(text):
    parts = [float(p) for p in text.split(":")]
    return sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
rows = {}
for line in open(path):
    client, elapsed, rss = line.split()
    rows.setdefault(client, []).append((seconds(elapsed), int(rss)))
median = {c: (statistics.median(r[0] for r in v), statistics.median(r[1] for r in v)) for c, v in rows.items()}
print(f"{size / 2**30:.2f} GiB over loopback, {rounds} rounds, medians")
print(f"{'client':<10}{'seconds':>10}{'MiB/s':>10}{'peak RSS MiB':>14}")
for client in ["courier", "curl"]:
    t, rss = median[client]
    print(f"{client:<10}{t:>10.2f}{size / 2**20 / t:>10.0f}{rss / 1024:>14.1f}")
ct, cr = median["courier"]
ut, ur = median["curl"]
print(f"courier time / curl time: {ct / ut:.2f}; courier peak memory / curl: {cr / ur:.2f}")
PY
