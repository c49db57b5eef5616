# Sourced by the comparison scripts that start servers on loopback.
#
#   . Benchmarks/compare/servers.sh
#   free_port                        a loopback port nothing listens on now
#   wait_until_answers URL [TRIES]   a GET of URL succeeds within TRIES tenths of a second (50)
#   start_test_server PORT           the Hummingbird test server (client-load, release) on PORT,
#                                    stopped on exit (with $work removed, when the script set one)
#   start_nginx DIR HTTP_BLOCK       nginx in the foreground with DIR for its files and HTTP_BLOCK
#                                    (servers, types, gzip…) inside http { }; its pid is $nginx

export COURIER_BENCHMARKS=1  # Package.swift loads the benchmark programs only when asked

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

wait_until_answers() {
    local url=$1 tries=${2:-50}
    for _ in $(seq "$tries"); do
        curl -fs "$url" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    echo "nothing answers $url" >&2
    return 1
}

start_test_server() {
    local port=$1
    swift build -c release --product client-load >/dev/null
    .build/release/client-load serve "$port" &
    test_server=$!
    trap 'kill $test_server 2>/dev/null || true; if [ -n "${work:-}" ]; then rm -rf "$work"; fi' EXIT
    wait_until_answers "http://127.0.0.1:$port/json"
}

start_nginx() {
    local dir=$1 block=$2
    mkdir -p "$dir/tmp"
    cat >"$dir/nginx.conf" <<CONF
daemon off;
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path $dir/tmp;
    proxy_temp_path $dir/tmp;
    fastcgi_temp_path $dir/tmp;
    uwsgi_temp_path $dir/tmp;
    scgi_temp_path $dir/tmp;
$block
}
CONF
    nginx -c "$dir/nginx.conf" -p "$dir" &
    nginx=$!
}
