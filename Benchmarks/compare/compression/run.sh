#!/usr/bin/env bash
# Compressed bodies end to end through `courier get`, on loopback: the bytes on the wire and
# the time, with compression (Courier's default: Accept-Encoding: gzip, deflate) and without
# (-H 'Accept-Encoding: identity'), for three bodies:
#   page   a 1,000-row page of `courier serve` (built-in data), compressed by its own
#          ResponseCompression (gzip level 5)
#   json   a 10 MB JSON body (iTunes-like search results), from nginx with `gzip on`
#   feed   a 1 MB RSS feed, from nginx with `gzip on`
# nginx compresses at level 5 too, so both servers cost the same per byte. Bytes are curl's
# size_download for the same request; times are hyperfine medians of `courier get URL >/dev/null`
# (the server's compression included), and curl with and without --compressed as the peer.
# Then the decompression bomb: 1 GiB of zeros in 1 MiB of gzip, from nginx, through
# `courier get` with its default --max-size (64 MiB), and with --stream (no limit: all of it
# decoded to a file): exit status, time and peak memory (GNU time's maximum resident set).
#
#   Benchmarks/compare/compression/run.sh [RUNS]
set -euo pipefail
export COURIER_BENCHMARKS=1  # Package.swift loads the benchmark programs only when asked
cd "$(dirname "$0")/../../.."
runs=${1:-10}
for tool in nginx hyperfine curl; do
    command -v "$tool" >/dev/null || { echo "$tool is missing: apt-get install -y nginx-light hyperfine curl" >&2; exit 2; }
done

swift build -c release --product courier >/dev/null
courier=$(pwd)/.build/release/courier
work=$(mktemp -d)
chmod 755 "$work"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT
. Benchmarks/compare/servers.sh

# The bodies.
python3 Benchmarks/compare/feeds/generate.py "$work/feed.xml" 1
python3 - "$work" <<'PY'
import json, random, struct, sys, zlib
work = sys.argv[1]
random.seed(7)
kinds = ["song", "album", "podcast", "ebook", "software", "movie"]
words = "swift feed parser stream memory bound entry title link river garden voyage".split()
results, size, n = [], 0, 0
while size < 10_000_000:
    n += 1
    item = {"wrapperType": "track", "kind": random.choice(kinds), "trackId": 100000 + n,
            "artistName": " ".join(random.choice(words) for _ in range(2)).title(),
            "trackName": " ".join(random.choice(words) for _ in range(4)).capitalize(),
            "trackPrice": round(random.random() * 20, 2), "currency": "USD",
            "artworkUrl100": f"https://is1-ssl.mzstatic.com/image/thumb/{n}/100x100bb.jpg",
            "releaseDate": f"20{n % 25:02d}-0{n % 9 + 1}-1{n % 9}T07:00:00Z"}
    results.append(item)
    size += len(json.dumps(item)) + 1
with open(f"{work}/search.json", "w") as out:
    json.dump({"resultCount": len(results), "results": results}, out)
# 1 GiB of zeros as one gzip member of about 1 MiB: a mebibyte compressed with a sync flush
# repeats from the second on; then an empty final block and the trailer.
compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
zeros = bytes(1 << 20)
first = compressor.compress(zeros) + compressor.flush(zlib.Z_SYNC_FLUSH)
piece = compressor.compress(zeros) + compressor.flush(zlib.Z_SYNC_FLUSH)
with open(f"{work}/bomb.gz", "wb") as out:
    out.write(first + piece * 1023 + b"\x03\x00" + struct.pack("<II", 0x5B64C2B0, 1 << 30))
PY

# The servers.
start_nginx "$work" "
    types { application/json json; application/rss+xml xml; }
    gzip on;
    gzip_comp_level 5;
    gzip_min_length 1024;
    gzip_types application/json application/rss+xml;
    gzip_vary on;
    server {
        listen 127.0.0.1:18411;
        root $work;
        location = /bomb { gzip off; default_type application/json; add_header Content-Encoding gzip; alias $work/bomb.gz; }
    }"
pids+=("$nginx")
"$courier" serve --port 18412 --log-level warning >/dev/null &
pids+=($!)
wait_until_answers "http://127.0.0.1:18411/feed.xml" 100
wait_until_answers "http://127.0.0.1:18412/catalog?q=zzz" 100

bodies=(
    "page http://127.0.0.1:18412/catalog?limit=1000"
    "json http://127.0.0.1:18411/search.json"
    "feed http://127.0.0.1:18411/feed.xml"
)
printf '%-6s %12s %12s %7s %12s %12s %7s %12s %12s\n' body "plain B" "gzip B" ratio \
    "courier ms" "+gzip ms" ratio "curl ms" "+gzip ms"
for entry in "${bodies[@]}"; do
    read -r name url <<<"$entry"
    plain=$(curl -s -o /dev/null -w '%{size_download}' -H 'Accept-Encoding: identity' "$url")
    coded=$(curl -s -o /dev/null -w '%{size_download}' -H 'Accept-Encoding: gzip, deflate' "$url")
    hyperfine -N -w 2 -r "$runs" --export-json "$work/$name.json" \
        "$courier get $url -H 'Accept-Encoding: identity' --max-size 100000000" \
        "$courier get $url --max-size 100000000" \
        "curl -s -o /dev/null $url" \
        "curl -s -o /dev/null --compressed $url" >/dev/null
    read -r a b c d < <(python3 -c "import json,sys; print(*[round(r['median']*1000,1) for r in json.load(open(sys.argv[1]))['results']])" "$work/$name.json")
    printf '%-6s %12s %12s %7.2f %12s %12s %7.2f %12s %12s\n' "$name" "$plain" "$coded" \
        "$(python3 -c "print($plain/$coded)")" "$a" "$b" "$(python3 -c "print($b/$a)")" "$c" "$d"
done

echo
echo "decompression bomb: 1 GiB of zeros in $(stat -c %s "$work/bomb.gz") bytes of gzip"
for options in "" "--stream"; do
    # shellcheck disable=SC2086
    bytes=$({
        /usr/bin/time -q -f '%e s, %M KiB peak' -o "$work/time" "$courier" get http://127.0.0.1:18411/bomb $options \
            2>"$work/stderr"
        echo $? >"$work/status"
    } | wc -c)
    printf 'courier get %-9s exit %s, %s bytes out, %s %s\n' "${options:-(64 MiB)}" "$(cat "$work/status")" \
        "$bytes" "$(cat "$work/time")" "$(head -c 70 "$work/stderr")"
done
