#!/usr/bin/env bash
# courier ls-remote vs git ls-remote over git's smart HTTP protocol: Debian's git http-backend
# behind a loopback HTTP server (the tests' GitHTTPServer), serving repositories with REFS refs
# each (default: 1, to see start-up and the round trips alone, and 50,000), over protocols 0
# and 2, with hyperfine: medians and the ratio. Both clients pay the same CGI process per
# request.
#
#   Benchmarks/compare/git/http.sh [RUNS] [REFS...]
set -euo pipefail
export COURIER_BENCHMARKS=1  # Package.swift loads the benchmark programs only when asked
cd "$(dirname "$0")/../../.."
runs=${1:-20}
shift || true
if [ $# -gt 0 ]; then sizes=("$@"); else sizes=(1 50000); fi
command -v hyperfine >/dev/null || { echo "hyperfine is missing: apt-get install -y hyperfine" >&2; exit 2; }
command -v git >/dev/null || { echo "git is missing: apt-get install -y git" >&2; exit 2; }

swift build -c release --product courier >/dev/null
swift build -c release --product git-http-bench >/dev/null
work=$(mktemp -d)
server_pid=""
trap '[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"' EXIT

git init -q -b main "$work/src"
git -C "$work/src" -c user.email=b@example.test -c user.name=Bench commit -q --allow-empty -m one
head=$(git -C "$work/src" rev-parse HEAD)
for refs in "${sizes[@]}"; do
    git clone -q --bare "$work/src" "$work/refs-$refs.git"
    # Written as packed-refs directly: creating the refs one by one takes seconds.
    { echo "# pack-refs with: sorted "
      seq 0 $((refs - 1)) | awk -v h="$head" '{ printf "%s refs/heads/branch-%06d\n", h, $1 }'
    } > "$work/refs-$refs.git/packed-refs"
    rm -f "$work/refs-$refs.git/refs/heads/main"
    echo "ref: refs/heads/branch-000000" > "$work/refs-$refs.git/HEAD"
done

.build/release/git-http-bench serve "$work" > "$work/server.out" &
server_pid=$!
for _ in $(seq 100); do
    grep -q '^port ' "$work/server.out" 2>/dev/null && break
    sleep 0.1
done
port=$(sed -n 's/^port //p' "$work/server.out")
[ -n "$port" ] || { echo "the git HTTP server did not start" >&2; exit 1; }

source Benchmarks/compare/git/compare.sh
compare_ls_remote "http://127.0.0.1:$port" "$runs"
