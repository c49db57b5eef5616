#!/usr/bin/env bash
# courier get --json [--sort-keys] / --pick vs jq . / jq -S . / jq .KEY and python3 -m json.tool,
# on a 5 MB JSON object of 300,000 keys (and the same with 100,000 nested levels and a
# 100,000-digit number, which courier must report as a limit or print exactly), served from
# loopback by Python's http.server; hyperfine medians and ratios. Then peak memory as the
# object grows (300,000 to 2.4 million keys) and for an array of 40 MB of small objects.
#
#   Benchmarks/compare/json/run.sh [RUNS]
set -euo pipefail
export COURIER_BENCHMARKS=1  # Package.swift loads the benchmark programs only when asked
cd "$(dirname "$0")/../../.."
runs=${1:-10}
port=${PORT:-18705}
command -v hyperfine >/dev/null || { echo "hyperfine is missing: apt-get install -y hyperfine" >&2; exit 2; }
command -v jq >/dev/null || { echo "jq is missing: apt-get install -y jq" >&2; exit 2; }

swift build -c release --product courier >/dev/null
work=$(mktemp -d)
python3 - "$work" <<'PY'
import json, random, sys
random.seed(14)
work = sys.argv[1]
keys = [f"k{i:06d}" for i in range(300_000)]
random.shuffle(keys)
with open(f"{work}/object.json", "w") as out:
    json.dump({k: random.choice([i, f"value {i}", i / 7, None, True]) for i, k in enumerate(keys)}, out)
with open(f"{work}/deep.json", "w") as out:
    out.write("[" * 100_000 + "]" * 100_000)
with open(f"{work}/digits.json", "w") as out:
    out.write("[" + "7" * 100_000 + "]")
for count in (600_000, 2_400_000):
    with open(f"{work}/object-{count}.json", "w") as out:
        json.dump({f"k{i:07d}": [i, f"value {i}", None][i % 3] for i in range(count)}, out)
with open(f"{work}/records.json", "w") as out:
    json.dump([{"id": i, "title": f"Title {i}", "tags": ["a", "b"], "score": i / 7} for i in range(600_000)], out)
PY
(cd "$work" && exec python3 -m http.server "$port" --bind 127.0.0.1 >/dev/null 2>&1) &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/object.json" -o /dev/null && break; sleep 0.1; done
url="http://127.0.0.1:$port/object.json"
pick=$(python3 -c "import json; print(list(json.load(open('$work/object.json')))[123456])")

echo "object.json: $(stat -c %s "$work/object.json") bytes"
hyperfine -N --runs "$runs" --warmup 1 --export-markdown "$work/pretty.md" \
    -n "courier get --json" ".build/release/courier get $url --json" \
    -n "jq . (file)" "jq . $work/object.json" \
    -n "python3 -m json.tool (file)" "python3 -m json.tool $work/object.json"
hyperfine -N --runs "$runs" --warmup 1 --export-markdown "$work/sorted.md" \
    -n "courier get --json --sort-keys" ".build/release/courier get $url --json --sort-keys" \
    -n "jq -S . (file)" "jq -S . $work/object.json" \
    -n "python3 -m json.tool --sort-keys (file)" "python3 -m json.tool --sort-keys $work/object.json"
hyperfine -N --runs "$runs" --warmup 1 --export-markdown "$work/pick.md" \
    -n "courier get --pick" ".build/release/courier get $url --pick $pick" \
    -n "jq .KEY (file)" "jq --arg k $pick .[\$k] $work/object.json"
cat "$work/pretty.md" "$work/sorted.md" "$work/pick.md"

rss() { /usr/bin/time -f "%M" "$@" 2>&1 >/dev/null | tail -1; }
echo
echo "peak RSS in KiB | file | courier --json | courier --json --sort-keys | jq . | jq -S ."
for file in object.json object-600000.json object-2400000.json records.json; do
    size=$(( $(stat -c %s "$work/$file") / 1048576 ))
    big="--max-size 4294967296"
    echo "$file (${size} MiB) | $(rss .build/release/courier get "http://127.0.0.1:$port/$file" --json) |" \
        "$(rss .build/release/courier get "http://127.0.0.1:$port/$file" --json --sort-keys $big) |" \
        "$(rss jq . "$work/$file") | $(rss jq -S . "$work/$file")"
done
echo "100,000 nested levels:"
.build/release/courier get "http://127.0.0.1:$port/deep.json" --json >/dev/null || true
echo "a 100,000-digit number: $(.build/release/courier get "http://127.0.0.1:$port/digits.json" --json | wc -c) bytes out"
