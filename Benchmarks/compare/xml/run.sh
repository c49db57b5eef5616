#!/usr/bin/env bash
# Courier's XMLEventReader and XMLPathReader vs Foundation's XMLParser (libxml2, namespaces on,
# from a stream), on the same documents, in turn, round by round: seconds, MB/s and peak
# resident memory, medians; each counts the same elements and characters (or values), and the
# script checks that they agree.
#
# Documents: the generated RSS feed of Benchmarks/compare/feeds (text-heavy, escaped HTML) and
# an attribute-heavy namespaced document (generate.py here).
#
#   Benchmarks/compare/xml/run.sh [ROUNDS] [MEGABYTES]
set -euo pipefail
export COURIER_BENCHMARKS=1  # Package.swift loads the benchmark programs only when asked
cd "$(dirname "$0")/../../.."
rounds=${1:-3}
megabytes=${2:-50}
here=Benchmarks/compare/xml
[ -x /usr/bin/time ] || { echo "/usr/bin/time is missing: apt-get install -y time" >&2; exit 2; }

swift build -c release --product xml-bench >/dev/null
rss=.build/xml-bench-rss-$megabytes.xml
osm=.build/xml-bench-osm-$megabytes.xml
[ -f "$rss" ] || python3 Benchmarks/compare/feeds/generate.py "$rss" "$megabytes"
[ -f "$osm" ] || python3 "$here/generate.py" "$osm" "$megabytes"

results=$(mktemp)
trap 'rm -f "$results" "$results".*' EXIT
for round in $(seq "$rounds"); do
    for document in rss osm; do
        file=$rss && name=title
        [ $document = osm ] && file=$osm && name=tag
        for tool in events foundation paths foundation-paths; do
            case $tool in
                events | foundation) command=(.build/release/xml-bench "$tool" "$file") ;;
                paths) command=(.build/release/xml-bench paths "$file" "$name") ;;
                foundation-paths) command=(.build/release/xml-bench foundation-paths "$file" "$name") ;;
            esac
            /usr/bin/time -v "${command[@]}" >"$results.out" 2>"$results.time"
            elapsed=$(grep "Elapsed (wall clock)" "$results.time" | awk '{print $NF}')
            peak=$(grep "Maximum resident set size" "$results.time" | awk '{print $NF}')
            output=$(tr ' ' '_' <"$results.out")
            echo "$document $tool $elapsed $peak $output $(stat -c %s "$file")" >>"$results"
        done
    done
    echo "round $round/$rounds done" >&2
done

python3 - "$results" "$rounds" <<'PY'
import statistics, sys
path, rounds = sys.argv[1], sys.argv[2]
def seconds(text):
    parts = [float(p) for p in text.split(":")]
    return sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
rows, outputs, sizes = {}, {}, {}
for line in open(path):
    document, tool, elapsed, peak, output, size = line.split()
    rows.setdefault((document, tool), []).append((seconds(elapsed), int(peak)))
    outputs[(document, tool)] = output.replace("_", " ")
    sizes[document] = int(size)
print(f"{rounds} rounds, medians")
print(f"{'document':<9}{'reader':<18}{'seconds':>9}{'MB/s':>8}{'peak RSS MiB':>14}  counted")
for document in ["rss", "osm"]:
    for tool in ["events", "foundation", "paths", "foundation-paths"]:
        runs = rows[(document, tool)]
        t, peak = statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)
        print(f"{document:<9}{tool:<18}{t:>9.2f}{sizes[document] / 1e6 / t:>8.1f}{peak / 1024:>14.1f}  {outputs[(document, tool)]}")
    for ours, theirs in [("events", "foundation"), ("paths", "foundation-paths")]:
        a = statistics.median(r[0] for r in rows[(document, ours)])
        b = statistics.median(r[0] for r in rows[(document, theirs)])
        ma = statistics.median(r[1] for r in rows[(document, ours)])
        mb = statistics.median(r[1] for r in rows[(document, theirs)])
        same = "same counts" if outputs[(document, ours)] == outputs[(document, theirs)] else "COUNTS DIFFER"
        print(f"  {document} {ours}: {b / a:.2f}x XMLParser's speed, {mb / ma:.2f}x less memory ({same})")
PY
