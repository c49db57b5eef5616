#!/usr/bin/env bash
# Start-up of the shipped courier (.build/dist/courier, scripts/release builds it) against git
# and curl, in one hyperfine session: `courier --version` vs `git --version`, and
# `courier get` vs `curl -s` of the same small body (the library service's /health, 50 bytes,
# served on loopback by a `courier serve` of its own). Each pair's output is checked first;
# the table shows medians and ratios, and the instructions each courier command retires
# (valgrind), which other tenants of the machine do not change.
#
#   Benchmarks/compare/startup/run.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../../.."
runs=${1:-100}
for tool in hyperfine curl git python3; do
    command -v $tool >/dev/null || { echo "$tool is missing: apt-get install -y $tool" >&2; exit 2; }
done
[ -x .build/dist/courier ] || scripts/release >&2  # an existing one is used: rebuild it after a change
courier=$(readlink -f .build/dist/courier)
work=$(mktemp -d)
server=""
trap '[ -z "$server" ] || kill "$server" 2>/dev/null; rm -rf "$work"' EXIT

. Benchmarks/compare/servers.sh
port=$(free_port)
"$courier" serve --port "$port" --log-level error >"$work/serve.log" 2>&1 &
server=$!
url="http://127.0.0.1:$port/health"
wait_until_answers "$url" 300
# The same bytes from both (courier prints the body as the server sent it).
"$courier" get "$url" >"$work/courier" && curl -fs "$url" >"$work/curl"
cmp -s "$work/courier" "$work/curl" || { echo "courier get and curl printed different bodies" >&2; exit 1; }

hyperfine -N --warmup 10 --runs "$runs" --export-json "$work/results.json" \
    -n "courier --version" "$courier --version" \
    -n "git --version" "git --version" \
    -n "courier get (small body)" "$courier get $url" \
    -n "curl -s (small body)" "curl -s $url" >&2

instructions() {  # instructions COMMAND…: what valgrind counts for one run
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
        sed -n 's/.*Collected : //p'
}
version_ir=""
get_ir=""
if command -v valgrind >/dev/null; then
    version_ir=$(instructions "$courier" --version)
    get_ir=$(instructions "$courier" get "$url")
fi

python3 - "$work/results.json" "$runs" "$version_ir" "$get_ir" <<'PY'
import json, statistics, sys
results = json.load(open(sys.argv[1]))["results"]
median = {r["command"]: statistics.median(r["times"]) * 1000 for r in results}
print(f"start-up, {sys.argv[2]} runs each, medians of wall time")
print(f"{'command':<28}{'ms':>8}{'ratio':>8}")
for command, peer in [("courier --version", "git --version"), ("courier get (small body)", "curl -s (small body)")]:
    print(f"{command:<28}{median[command]:>8.2f}{median[command] / median[peer]:>8.2f}")
    print(f"{peer:<28}{median[peer]:>8.2f}{1:>8.2f}")
if sys.argv[3] and sys.argv[4]:
    print(f"instructions: courier --version {int(sys.argv[3]):,}; courier get {int(sys.argv[4]):,}")
PY
