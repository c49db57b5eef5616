#!/usr/bin/env bash
# The app in headless Chromium against the store stand-in on loopback (release build):
#   1. an artwork grid: 200 results, 150 distinct images, each answering after 50 ms —
#      upstream downloads and the time until every image is shown, against the bound
#      ceil(150 / 6 downloads at once) × 50 ms;
#   2. keystroke to rendered results through the app, against the same search through the
#      engine alone, p50 and p99 over SEARCHES searches.
# Needs Debian's chromium and chromium-driver. Usage: Benchmarks/compare/app/run.sh [RUNS] [SEARCHES]
set -euo pipefail
export COURIER_BENCHMARKS=1  # Package.swift loads the benchmark programs only when asked
cd "$(dirname "$0")/../../.."
runs=${1:-5}
searches=${2:-300}
swift build -c release --product app-bench >/dev/null
bench=.build/release/app-bench
echo "--- artwork grid, $runs runs"
for _ in $(seq "$runs"); do
    "$bench" grid 200 150 50 6 2>/dev/null | grep -E "^(upstream|keystroke)"
done
echo "--- keystroke to render, $searches searches"
"$bench" keystrokes "$searches" 2>/dev/null | grep -E "^(through|engine)"
