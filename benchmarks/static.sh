#!/usr/bin/env bash
# Static files: `courtside serve` against nginx serving the same file (Public/css/courtside.css by default), side by
# side with wrk on loopback, one worker each (courtside --threads 1, nginx worker_processes 1, wrk -t1). Each round
# measures both servers one after the other, identity and gzip (`Accept-Encoding: gzip`; nginx serves a .gz made
# beforehand with gzip_static, so both send precompressed bytes), and prints every run with the machine's load and
# each server's CPU time per request (read from /proc/PID/stat), and the ratio courtside / nginx within the round.
#
#   benchmarks/static.sh
#
# Environment (optional): ROUNDS (default 3), DURATION seconds per wrk run (default 5), CONNECTIONS (default 32),
# FILE under Public/ (default css/courtside.css), BIN (a folder with a built courtside to use instead of
# building). Installs Debian's wrk when missing (as root). Raw output:
# .build/bench-static/.
set -euo pipefail
# shellcheck source=benchmarks/lib.sh
source "$(dirname "$0")/lib.sh"

rounds=${ROUNDS:-3}
duration=${DURATION:-5}
connections=${CONNECTIONS:-32}
file=${FILE:-css/courtside.css}
out=.build/bench-static
fresh_dir "$out" "$out/public" "$out/data" "$out/nginx"

command -v wrk >/dev/null || { apt-get install -y -q wrk >/dev/null || { apt-get update -q && apt-get install -y -q wrk; }; }
nginx=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$nginx" ] || { echo "nginx is not installed (scripts/install-deps installs it)" >&2; exit 1; }

bin=$(release_bin courtside)

# nginx gets a copy of Public/ with a .gz beside each text file, as gzip_static wants.
cp -r Public/. "$out/public/"
find "$out/public" -type f \( -name '*.css' -o -name '*.js' -o -name '*.html' -o -name '*.svg' -o -name '*.json' \) \
    -exec gzip -9 -k -n {} \;

courtside_port=$(free_loopback_port)
start_server "$out/courtside.log" "$bin/courtside" serve --host 127.0.0.1 --port "$courtside_port" --threads 1 \
    --data "$out/data" --public Public --log-level warning
courtside_pid=$SERVER_PID
wait_for_port "$courtside_port" "$courtside_pid" 30

nginx_port=$(free_loopback_port)
cat >"$out/nginx/nginx.conf" <<CONF
worker_processes 1;
daemon off;
master_process off;
pid $ROOT/$out/nginx/nginx.pid;
error_log $ROOT/$out/nginx/error.log warn;
events { worker_connections 1024; }
http {
    include /etc/nginx/mime.types;
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    gzip_static on;
    gzip_vary on;
    server {
        listen 127.0.0.1:$nginx_port;
        root $ROOT/$out/public;
    }
}
CONF
start_server "$out/nginx.log" "$nginx" -c "$ROOT/$out/nginx/nginx.conf" -p "$ROOT/$out/nginx"
nginx_pid=$SERVER_PID
wait_for_port "$nginx_port" "$nginx_pid" 10


# measure NAME PID PORT ENCODING: one wrk run; prints "requests/s cpu-µs-per-request".
measure() {
    local name=$1 pid=$2 port=$3 encoding=$4 header=() before after log requests
    [ "$encoding" = gzip ] && header=(-H "Accept-Encoding: gzip")
    log="$out/$name-$encoding-$round.txt"
    # Sanity: the right body and encoding, before timing.
    curl -sS -o /dev/null -w '%{http_code} %{size_download}\n' "${header[@]}" "http://127.0.0.1:$port/$file" >"$log.check"
    before=$(cpu_ticks "$pid")
    timeout $((duration + 30)) wrk -t1 -c "$connections" -d "${duration}s" "${header[@]}" \
        "http://127.0.0.1:$port/$file" >"$log"
    after=$(cpu_ticks "$pid")
    requests=$(awk '/requests in/ { print $1 }' "$log")
    awk -v r="$(awk '/Requests\/sec/ { print $2 }' "$log")" -v n="$requests" -v t=$((after - before)) \
        -v hz="$ticks_per_second" 'BEGIN { printf "%.0f %.2f", r, (n > 0 ? t / hz * 1e6 / n : 0) }'
}

echo
echo "Static file /$file, wrk -t1 -c$connections -d${duration}s, $(nproc) cores shared with wrk"
echo "| round | encoding | load average | courtside req/s | nginx req/s | ratio | courtside µs CPU/req | nginx µs CPU/req | bytes (courtside / nginx) |"
echo "|---|---|---|---:|---:|---:|---:|---:|---|"
for round in $(seq 1 "$rounds"); do
    for encoding in identity gzip; do
        load=$(cut -d' ' -f1 /proc/loadavg)
        read -r c_rate c_cpu <<<"$(measure courtside "$courtside_pid" "$courtside_port" "$encoding")"
        read -r n_rate n_cpu <<<"$(measure nginx "$nginx_pid" "$nginx_port" "$encoding")"
        c_bytes=$(cut -d' ' -f2 "$out/courtside-$encoding-$round.txt.check")
        n_bytes=$(cut -d' ' -f2 "$out/nginx-$encoding-$round.txt.check")
        ratio=$(awk -v a="$c_rate" -v b="$n_rate" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
        echo "| $round | $encoding | $load | $c_rate | $n_rate | ${ratio}× | $c_cpu | $n_cpu | $c_bytes / $n_bytes |"
    done
done
echo
echo "($(date -u +%Y-%m-%dT%H:%MZ); load average after: $(cut -d' ' -f1-3 /proc/loadavg))"
