#!/usr/bin/env bash
# courier get --json / --pick vs jq -S . / jq and python3 -m json.tool --sort-keys, on a 5 MB
# JSON object of 300,000 keys (and the same with 100,000 nested levels and a 100,000-digit
# number, which courier must report as a limit or print exactly), served from loopback by
# Python's http.server; hyperfine medians and ratios.
#
#   Benchmarks/compare/json/run.sh [RUNS]
set -euo pipefail
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
    -n "jq -S . (file)" "jq -S . $work/object.json" \
    -n "python3 -m json.tool --sort-keys (file)" "python3 -m json.tool --sort-keys $work/object.json"
hyperfine -N --runs "$runs" --warmup 1 --export-markdown "$work/pick.md" \
    -n "courier get --pick" ".build/release/courier get $url --pick $pick" \
    -n "jq .KEY (file)" "jq --arg k $pick .[\$k] $work/object.json"
cat "$work/pretty.md" "$work/pick.md"
/usr/bin/time -f "courier --json peak RSS %M KiB" .build/release/courier get "$url" --json >/dev/null
/usr/bin/time -f "jq -S . peak RSS %M KiB" jq -S . "$work/object.json" >/dev/null
echo "100,000 nested levels:"
.build/release/courier get "http://127.0.0.1:$port/deep.json" --json >/dev/null || true
echo "a 100,000-digit number: $(.build/release/courier get "http://127.0.0.1:$port/digits.json" --json | wc -c) bytes out"
