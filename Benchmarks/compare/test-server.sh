# Sourced by the comparison scripts that fetch from the Hummingbird test server: builds it
# (client-load, release), starts it on the given port, waits until it answers, and on exit stops
# it and removes $work when the script set one.
#
#   . Benchmarks/compare/test-server.sh; start_test_server PORT
start_test_server() {
    local port=$1
    swift build -c release --product client-load >/dev/null
    .build/release/client-load serve "$port" &
    test_server=$!
    trap 'kill $test_server 2>/dev/null || true; if [ -n "${work:-}" ]; then rm -rf "$work"; fi' EXIT
    for _ in $(seq 50); do
        curl -fs "http://127.0.0.1:$port/json" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    echo "the test server did not answer on port $port" >&2
    return 1
}
