#!/usr/bin/env bash
# Proxies and cookies end to end through `courier get`, against curl in the same run, on
# loopback: a 2 KB JSON body from nginx, fetched
#   direct     straight from nginx;
#   via-http   through tinyproxy, the request sent whole (absolute form);
#   https      straight from nginx over TLS (a test certificate), for the next one;
#   via-https  through tinyproxy's CONNECT tunnel, TLS with nginx;
#   jar        straight, with a 50-cookie jar read and written back (--cookie-jar, curl -b -c).
# Times are hyperfine medians of the whole command (start-up included); the ratio is Courier's
# time over curl's.
#
#   Benchmarks/compare/proxy/run.sh [RUNS]
set -euo pipefail
export COURIER_BENCHMARKS=1  # Package.swift loads the benchmark programs only when asked
cd "$(dirname "$0")/../../.."
runs=${1:-20}
for tool in nginx hyperfine curl tinyproxy openssl; do
    command -v "$tool" >/dev/null ||
        { echo "$tool is missing: apt-get install -y nginx-light hyperfine curl tinyproxy-bin openssl" >&2; exit 2; }
done

swift build -c release --product courier >/dev/null
courier=$(pwd)/.build/release/courier
work=$(mktemp -d)
chmod 755 "$work"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT
. Benchmarks/compare/servers.sh

python3 -c 'import json; print(json.dumps({"results": [{"id": i, "title": "title %d" % i} for i in range(80)]}))' \
    >"$work/small.json"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null

start_nginx "$work" "
    types { application/json json; }
    server { listen 127.0.0.1:18421; root $work; }
    server {
        listen 127.0.0.1:18422 ssl;
        ssl_certificate $work/cert.pem;
        ssl_certificate_key $work/key.pem;
        root $work;
    }"
pids+=("$nginx")
printf 'Port 18423\nListen 127.0.0.1\nAllow 127.0.0.1\nTimeout 60\nMaxClients 100\nLogLevel Error\n' \
    >"$work/tinyproxy.conf"
tinyproxy -d -c "$work/tinyproxy.conf" 2>/dev/null &
pids+=($!)
wait_until_answers "http://127.0.0.1:18421/small.json" 100
for _ in $(seq 100); do
    curl -fs -x http://127.0.0.1:18423 http://127.0.0.1:18421/small.json >/dev/null 2>&1 && break
    sleep 0.1
done

# A jar of 50 cookies for 127.0.0.1, in the format both programs read.
python3 - "$work/jar.txt" <<'PY'
import sys
with open(sys.argv[1], "w") as out:
    out.write("# Netscape HTTP Cookie File\n")
    for i in range(50):
        out.write(f"127.0.0.1\tFALSE\t/\tFALSE\t4102444800\tc{i:02d}\t{'v' * 40}{i}\n")
PY
cp "$work/jar.txt" "$work/curl-jar.txt"

plain=http://127.0.0.1:18421/small.json
secure=https://127.0.0.1:18422/small.json
proxy=http://127.0.0.1:18423
cases=(
    "direct|$courier get $plain|curl -s -o /dev/null $plain"
    "via-http|$courier get $plain --proxy $proxy|curl -s -o /dev/null -x $proxy $plain"
    "https|$courier get $secure --ca-cert $work/cert.pem|curl -s -o /dev/null --cacert $work/cert.pem $secure"
    "via-https|$courier get $secure --proxy $proxy --ca-cert $work/cert.pem|curl -s -o /dev/null -x $proxy --cacert $work/cert.pem $secure"
    "jar|$courier get $plain --cookie-jar $work/jar.txt|curl -s -o /dev/null -b $work/curl-jar.txt -c $work/curl-jar.txt $plain"
)
printf '%-10s %12s %12s %8s\n' case "courier ms" "curl ms" ratio
for entry in "${cases[@]}"; do
    IFS='|' read -r name ours theirs <<<"$entry"
    hyperfine -N -w 3 -r "$runs" --export-json "$work/$name.json" "$ours" "$theirs" >/dev/null
    read -r a b < <(python3 -c "import json,sys; print(*[round(r['median']*1000,2) for r in json.load(open(sys.argv[1]))['results']])" "$work/$name.json")
    printf '%-10s %12s %12s %8.2f\n' "$name" "$a" "$b" "$(python3 -c "print($a/$b)")"
done
