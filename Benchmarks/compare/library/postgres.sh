#!/usr/bin/env bash
# courier serve on PostgreSQL vs courier serve in memory vs the tuned Node peer, on loopback,
# with 1M synthetic books, in one run:
#   postgresql          courier serve --database (answers cached per data version: the default)
#   postgresql-nocache  courier serve --database --cache-size 0 (every request asks PostgreSQL)
#   memory              courier serve --data
#   tuned               Node's http module, data loaded once, a linear scan per request
# First it times `courier library import` of the 1M books into a new PostgreSQL cluster that
# this script starts (initdb and pg_ctl in a temporary directory, as the postgres user under
# root) and stops. Then wrk (1 thread, CONNECTIONS connections) runs against each server in
# turn, round by round; the table shows medians over the rounds. Finally it prints EXPLAIN
# ANALYZE of a search's two halves.
#
#   Benchmarks/compare/library/postgres.sh [ROUNDS] [SECONDS] [CONNECTIONS]
set -euo pipefail
export COURIER_BENCHMARKS=1  # Package.swift loads the benchmark programs only when asked
cd "$(dirname "$0")/../../.."
rounds=${1:-3}
seconds=${2:-10}
connections=${3:-64}
here=Benchmarks/compare/library
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 2; }
command -v node >/dev/null || { echo "node is missing" >&2; exit 2; }
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "PostgreSQL is missing: apt-get install -y postgresql" >&2; exit 2; }

swift build -c release --product courier | grep -E "error" && exit 1 || true
swift build -c release --product library-data | grep -E "error" && exit 1 || true
data=.build/library-bench-data
[ -f "$data/million/catalog.json" ] || .build/release/library-data "$data/million" 1000000 1000 >&2

as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
cluster=$(mktemp -d /tmp/courier-bench-pg.XXXXXX)
[ "$(id -u)" = 0 ] && chown postgres "$cluster"
pg_port=18310
pids=()
cleanup() {
    kill "${pids[@]}" 2>/dev/null || true
    as_postgres "$bin/pg_ctl" -D "$cluster/data" -m fast -w -s stop 2>/dev/null || true
    rm -rf "$cluster"
}
trap cleanup EXIT
cd /  # the postgres user may not enter the project's directory
as_postgres "$bin/initdb" --auth=trust --username=courier --encoding=UTF8 --no-locale -D "$cluster/data" >/dev/null
as_postgres "$bin/pg_ctl" -D "$cluster/data" -l "$cluster/log" -w -s \
    -o "-p $pg_port -k $cluster -c listen_addresses=127.0.0.1 -c shared_buffers=512MB -c max_connections=200" start
as_postgres "$bin/createdb" -h 127.0.0.1 -p "$pg_port" -U courier library
cd - >/dev/null
database="postgres://courier@127.0.0.1:$pg_port/library?sslmode=disable"
psql_run() { "$bin/psql" -h 127.0.0.1 -p "$pg_port" -U courier -d library -X -q -c "$1"; }

import_start=$(date +%s.%N)
.build/release/courier library import --database "$database" --data "$data/million"
import_end=$(date +%s.%N)
import_seconds=$(python3 -c "print(f'{$import_end - $import_start:.1f}')")
table_size=$("$bin/psql" -h 127.0.0.1 -p "$pg_port" -U courier -d library -X -A -t \
    -c "SELECT pg_size_pretty(pg_total_relation_size('library_books'))")

. Benchmarks/compare/servers.sh
wait_for() { wait_until_answers "http://127.0.0.1:$1/catalog?q=zzz" 600 || exit 1; }
.build/release/courier serve --port 18311 --database "$database" --log-level error >/dev/null &
pids+=($!)
.build/release/courier serve --port 18312 --database "$database" --cache-size 0 --log-level error >/dev/null &
pids+=($!)
.build/release/courier serve --port 18313 --data "$data/million" --log-level warning >/dev/null &
pids+=($!)
node "$here/peers/tuned.js" 18314 "$data/million" &
pids+=($!)
for port in 18311 18312 18313 18314; do wait_for $port; done

results=$(mktemp)
for round in $(seq "$rounds"); do
    for server in postgresql:18311 postgresql-nocache:18312 memory:18313 tuned:18314; do
        name=${server%%:*}
        port=${server##*:}
        output=$(URLS="$here/million.urls" wrk -t1 -c"$connections" -d"${seconds}s" --timeout 10s --latency \
            -s "$here/urls.lua" "http://127.0.0.1:$port" 2>&1)
        echo "$name $(echo "$output" | python3 "$here/wrk_summary.py")" >>"$results"
    done
    echo "round $round/$rounds done" >&2
done

echo "import of 1,000,000 books and 1,000 locations: $import_seconds s (courier library import; library_books is $table_size with its index)"
python3 - "$results" "$rounds" "$seconds" "$connections" <<'PY'
import statistics, sys
path, rounds, seconds, connections = sys.argv[1], *sys.argv[2:]
rows = {}
for line in open(path):
    server, rps, p50, p99, errors = line.split()
    rows.setdefault(server, []).append((float(rps), float(p50), float(p99), int(errors)))
print(f"wrk -t1 -c{connections} -d{seconds}s, 1M books, the 10-URL mix, {rounds} rounds, medians (errors: summed)")
print(f"{'server':<20}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'errors':>8}{'÷ memory':>10}")
memory = statistics.median(r[0] for r in rows["memory"])
for server in ["postgresql", "postgresql-nocache", "memory", "tuned"]:
    runs = rows[server]
    rps, p50, p99 = (statistics.median(r[i] for r in runs) for i in range(3))
    print(f"{server:<20}{rps:>10.0f}{p50:>10.2f}{p99:>10.2f}{sum(r[3] for r in runs):>8}{rps / memory:>10.2f}")
PY

echo
echo "EXPLAIN ANALYZE of the page and the total of /catalog?q=the%20silent (folded key 'the silent'):"
psql_run "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) SELECT json FROM library_books WHERE title_key LIKE 'the silent%' ORDER BY title_key, id LIMIT 100 OFFSET 0"
psql_run "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) SELECT count(*) FROM library_books WHERE title_key LIKE 'the silent%'"
