#!/usr/bin/env bash
# courier ls-remote vs git ls-remote against a local git daemon serving repositories with
# REFS refs each (default: 1, to see process start-up alone; 50,000, the issue's size; and
# 200,000), over protocols 0 and 2, with hyperfine: medians and the ratio.
#
#   Benchmarks/compare/git/run.sh [RUNS] [REFS...]
set -euo pipefail
export COURIER_BENCHMARKS=1  # Package.swift loads the benchmark programs only when asked
cd "$(dirname "$0")/../../.."
runs=${1:-20}
shift || true
if [ $# -gt 0 ]; then sizes=("$@"); else sizes=(1 50000 200000); fi
port=${PORT:-19518}
command -v hyperfine >/dev/null || { echo "hyperfine is missing: apt-get install -y hyperfine" >&2; exit 2; }
command -v git >/dev/null || { echo "git is missing: apt-get install -y git" >&2; exit 2; }

swift build -c release --product courier >/dev/null
work=$(mktemp -d)
daemon_pid=""
trap '[ -n "$daemon_pid" ] && kill "$daemon_pid" 2>/dev/null; rm -rf "$work"' EXIT

git init -q -b main "$work/src"
git -C "$work/src" -c user.email=b@example.test -c user.name=Bench commit -q --allow-empty -m one
head=$(git -C "$work/src" rev-parse HEAD)
for refs in "${sizes[@]}"; do
    git clone -q --bare "$work/src" "$work/refs-$refs.git"
    seq 1 $((refs - 1)) | awk -v h="$head" '{ printf "create refs/heads/branch-%06d %s\n", $1, h }' |
        git -C "$work/refs-$refs.git" update-ref --stdin
    git -C "$work/refs-$refs.git" pack-refs --all
done

"$(git --exec-path)/git-daemon" --reuseaddr --base-path="$work" --export-all --listen=127.0.0.1 --port="$port" "$work" &
daemon_pid=$!
for _ in $(seq 50); do
    git ls-remote "git://127.0.0.1:$port/refs-${sizes[0]}.git" HEAD >/dev/null 2>&1 && break
    sleep 0.1
done

source Benchmarks/compare/git/compare.sh
compare_ls_remote "git://127.0.0.1:$port" "$runs"
