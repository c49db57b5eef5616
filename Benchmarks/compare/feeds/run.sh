#!/usr/bin/env bash
# Courier's streaming FeedParser vs Python feedparser 6.0.14 vs a tree-building baseline
# (XMLParser builds the whole document, then entries are read from it), on the same generated
# RSS feed, in turn, round by round: throughput (MB/s) and peak resident memory; and the
# `courier feed` command end to end (--json, --json-lines, the list). Then the scaling table:
# hostile documents of 1 to 8 MB (`feed-bench scale`).
#
#   Benchmarks/compare/feeds/run.sh [ROUNDS] [MEGABYTES]
set -euo pipefail
export COURIER_BENCHMARKS=1  # Package.swift loads the benchmark programs only when asked
cd "$(dirname "$0")/../../.."
rounds=${1:-3}
megabytes=${2:-100}
here=Benchmarks/compare/feeds
python3 -c "import feedparser" 2>/dev/null || { echo "feedparser is missing: pip install feedparser==6.0.14" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time is missing: apt-get install -y time" >&2; exit 2; }

swift build -c release --product feed-bench >/dev/null
swift build -c release --product courier >/dev/null
feed=.build/feed-bench-$megabytes.xml
[ -f "$feed" ] || python3 "$here/generate.py" "$feed" "$megabytes"
size=$(stat -c %s "$feed")

results=$(mktemp)
trap 'rm -f "$results"' EXIT
for round in $(seq "$rounds"); do
    for tool in courier tree feedparser courier-json courier-json-lines courier-list; do
        case $tool in
            courier) command=(.build/release/feed-bench stream "$feed") ;;
            courier-json) command=(sh -c '.build/release/courier feed "$1" --json >/dev/null' sh "$feed") ;;
            courier-json-lines) command=(sh -c '.build/release/courier feed "$1" --json-lines >/dev/null' sh "$feed") ;;
            courier-list) command=(sh -c '.build/release/courier feed "$1" >/dev/null' sh "$feed") ;;
            tree) command=(.build/release/feed-bench tree "$feed") ;;
            feedparser) command=(python3 -c "import feedparser,sys; d=feedparser.parse(open(sys.argv[1],'rb').read()); print(len(d.entries), 'entries')" "$feed") ;;
        esac
        /usr/bin/time -v "${command[@]}" >"$results.out" 2>"$results.time"
        elapsed=$(grep "Elapsed (wall clock)" "$results.time" | awk '{print $NF}')
        rss=$(grep "Maximum resident set size" "$results.time" | awk '{print $NF}')
        output=$(head -c 60 "$results.out" | tr ' ' '_')
        echo "$tool $elapsed $rss ${output:--}" >>"$results"
    done
    echo "round $round/$rounds done" >&2
done

python3 - "$results" "$rounds" "$size" <<'PY'
import statistics, sys
path, rounds, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
def seconds(text):
    parts = [float(p) for p in text.split(":")]
    return sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
rows, outputs = {}, {}
for line in open(path):
    tool, elapsed, rss, output = line.split()
    rows.setdefault(tool, []).append((seconds(elapsed), int(rss)))
    outputs[tool] = output.replace("_", " ")
median = {t: (statistics.median(r[0] for r in v), statistics.median(r[1] for r in v)) for t, v in rows.items()}
print(f"{size / 1e6:.0f} MB RSS feed, {rounds} rounds, medians")
print(f"{'parser':<12}{'seconds':>10}{'MB/s':>10}{'peak RSS MiB':>14}  output")
for tool in ["courier", "tree", "feedparser", "courier-json", "courier-json-lines", "courier-list"]:
    t, rss = median[tool]
    print(f"{tool:<12}{t:>10.2f}{size / 1e6 / t:>10.1f}{rss / 1024:>14.1f}  {outputs[tool]}")
c = median["courier"][0]
print(f"courier throughput / feedparser: {median['feedparser'][0] / c:.1f}x; / tree baseline: {median['tree'][0] / c:.2f}x")
print(f"courier feed --json end to end / feedparser: {median['feedparser'][0] / median['courier-json'][0]:.1f}x")
PY
echo
.build/release/feed-bench scale
