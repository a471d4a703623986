#!/usr/bin/env bash
# ci-lane: quiet
# The deploy recipes, proven with Debian's own packages (README, "Deploy"):
# 1. `systemd-analyze verify` accepts deploy/systemd/courtside.service (ExecStart pointed at the built binary in a
#    temporary copy): any message about the unit fails the check; every COURTSIDE_* name in the environment file
#    example is a real setting.
# 2. A real nginx and a real Caddy, each configured from deploy/nginx/courtside.conf and deploy/caddy/Caddyfile with
#    only the name, ports, certificate and upstream changed (loopback ports, a throwaway certificate for nginx,
#    Caddy's internal CA), front a `courtside serve --trusted-proxies 127.0.0.1`. Through each, over https:// and
#    wss://, the end-to-end game test (Tests/e2e/game_e2e.py: 50 spectators, a whole game, SSE) passes with every
#    connection made from 127.0.0.2, and Courtside's log names 127.0.0.2 (not the proxy's 127.0.0.1) as the client
#    of every long-lived connection; a forged X-Forwarded-For changes nothing; plain HTTP is redirected to HTTPS.
# 3. SIGHUP with a renewed certificate: new connections get it, an open wss socket stays open and keeps receiving,
#    and a broken renewal keeps the old certificate and logs the file (Tests/deploy/tls_reload.py).
# Runs as root (nginx's workers, binding 127.0.0.2). Each proxy runs from a temporary directory (config, pid file,
# logs) and is stopped on exit. With CI=true a missing nginx, caddy or systemd-analyze fails the run; elsewhere the
# script says what is missing and skips.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/lib/peers.sh
source scripts/lib/peers.sh
# shellcheck source=scripts/lib/servers.sh
source scripts/lib/servers.sh
# shellcheck source=Tests/e2e/env.sh
source Tests/e2e/env.sh

ci_step 60-deploy

require_commands 60-deploy scripts/install-deps.d/60-deploy.sh nginx caddy systemd-analyze openssl curl
[ "$(id -u)" -eq 0 ] || fail "run as root (nginx runs its workers as root from a temporary directory)"

python=$(e2e_python)
courtside=$(build_courtside debug)
work=$(mktemp -d "${TMPDIR:-/tmp}/courtside-deploy.XXXXXX")
chmod 0755 "$work"
token="deploy-admin-token-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
PROXY_PIDFILES=()

cleanup() {
    local pidfile pid
    for pidfile in "${PROXY_PIDFILES[@]}"; do
        if [ -s "$pidfile" ]; then
            pid=$(cat "$pidfile")
            kill -TERM "$pid" 2>/dev/null || true
            # Caddy takes a second or two to stop gracefully on a busy machine.
            for _ in $(seq 50); do
                kill -0 "$pid" 2>/dev/null || break
                sleep 0.2
            done
            kill -KILL "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true  # reaps Caddy (our child); nginx daemonized and is not
        fi
    done
    stop_servers
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

show_logs() {
    local file
    for file in "$@"; do
        [ -f "$file" ] || continue
        echo "--- $file (last 30 lines)" >&2
        tail -n 30 "$file" >&2 || true
    done
}

# --- 1. systemd ---------------------------------------------------------------------------------------------
mkdir -p "$work/systemd"
unit="$work/systemd/courtside.service"
cp deploy/systemd/courtside.service "$unit"
substitute "$unit" "ExecStart=/usr/local/bin/courtside " "ExecStart=$courtside "
verify_status=0
verify_output=$(systemd-analyze verify "$unit" 2>&1) || verify_status=$?
about_unit=$(printf '%s\n' "$verify_output" | grep -F -e "courtside.service" -e "$unit" || true)
if [ "$verify_status" -ne 0 ] || [ -n "$about_unit" ]; then
    printf '%s\n' "$verify_output" >&2
    fail "systemd-analyze verify does not accept deploy/systemd/courtside.service (status $verify_status)"
fi
help=$("$courtside" serve --help)
while read -r name; do
    grep -qF "$name" <<<"$help" || fail "deploy/systemd/courtside.env.example sets $name, which courtside does not read"
done < <(grep -oE 'COURTSIDE_[A-Z_]+' deploy/systemd/courtside.env.example | sort -u)
say "systemd-analyze verify: the unit is accepted without a message; the environment file's names are settings"

# --- Courtside behind a proxy -------------------------------------------------------------------------------

# start_courtside NAME: a plain courtside on a free loopback port trusting 127.0.0.1; sets COURTSIDE_PORT_FOR,
# COURTSIDE_LOG_FOR.
start_courtside() {
    local name=$1 port
    port=$(free_loopback_port)
    mkdir -p "$work/$name/public"
    COURTSIDE_LOG_FOR="$work/$name/courtside.log"
    start_server "$COURTSIDE_LOG_FOR" "$courtside" serve --host 127.0.0.1 --port "$port" --data "$work/$name/data" \
        --public "$work/$name/public" --admin-token "$token" --trusted-proxies 127.0.0.1 --log-level debug
    trap cleanup EXIT  # start_server installs its own EXIT trap
    wait_for_port "$port" "$SERVER_PID" 60 || {
        show_logs "$COURTSIDE_LOG_FOR"
        fail "courtside ($name) did not start"
    }
    COURTSIDE_PORT_FOR=$port
}

# wait_for_tls_port PORT PID LOG: until PORT accepts a connection, or fail showing LOG.
wait_for_proxy() {
    local port=$1 pid=$2 log=$3
    wait_for_port "$port" "$pid" 30 || {
        show_logs "$log"
        fail "the proxy did not listen on $port"
    }
}

# last_client_is LOG CLIENT PEER: whether Courtside's latest long-lived connection was resolved to CLIENT from PEER.
last_client_is() {
    local line
    line=$(grep -F "long-lived connection" "$1" | tail -n 1)
    [[ " $line " == *" client=$2 "* && " $line " == *" peer=$3 "* ]]
}

# check_through PROXY BASE_URL CA_FILE HTTP_URL COURTSIDE_LOG COURTSIDE_PORT: the e2e game test through the proxy
# from 127.0.0.2, the addresses Courtside resolved, a forged header, and the HTTP→HTTPS redirect.
check_through() {
    local proxy=$1 base=$2 ca=$3 http_url=$4 log=$5 port=$6 status=0
    local wss=${base/https:/wss:}
    say "$proxy: end-to-end game test through $base from 127.0.0.2"
    timeout -k 5 300 "$python" Tests/e2e/game_e2e.py --url "$base" --admin-token "$token" --spectators 50 \
        --ca-file "$ca" --source-address 127.0.0.2 || status=$?
    if [ "$status" -ne 0 ]; then
        show_logs "$log" "${@:7}"
        fail "$proxy: the end-to-end game test did not pass through the proxy"
    fi

    # Every long-lived connection (50 spectators, the scorer, the event stream, …) came through the proxy from
    # 127.0.0.2: Courtside must have resolved each to 127.0.0.2, with the proxy as the peer.
    local lines wrong
    lines=$(grep -F "long-lived connection" "$log" || true)
    local count
    count=$(printf '%s' "$lines" | grep -c . || true)
    [ "$count" -ge 52 ] || fail "$proxy: Courtside logged $count long-lived connections, expected at least 52"
    wrong=$(printf '%s\n' "$lines" | grep -vE ' client=127\.0\.0\.2( |$)' || true)
    wrong+=$(printf '%s\n' "$lines" | grep -vE ' peer=127\.0\.0\.1( |$)' || true)
    [ -z "$wrong" ] || fail "$proxy: connections not resolved to the test client 127.0.0.2:"$'\n'"$wrong"

    # A client forging X-Forwarded-For through the proxy is still counted under its own address (the proxy
    # appends; Courtside reads from the right).
    "$python" Tests/deploy/client_address.py --url "$wss/ws/games" --ca-file "$ca" --source-address 127.0.0.2 \
        --forwarded-for 198.51.100.9 >/dev/null || fail "$proxy: lobby socket with a forged header failed"
    sleep 0.2
    last_client_is "$log" 127.0.0.2 127.0.0.1 ||
        fail "$proxy: a forged X-Forwarded-For through the proxy changed the client address: $(tail -n 3 "$log")"
    # Straight to Courtside from an untrusted address (127.0.0.3), the header is not believed at all.
    "$python" Tests/deploy/client_address.py --url "ws://127.0.0.1:$port/ws/games" --source-address 127.0.0.3 \
        --forwarded-for 198.51.100.9 >/dev/null || fail "$proxy: direct lobby socket failed"
    sleep 0.2
    last_client_is "$log" 127.0.0.3 127.0.0.3 ||
        fail "$proxy: an untrusted peer's X-Forwarded-For was believed: $(tail -n 3 "$log")"

    # Plain HTTP is redirected to HTTPS.
    local answer
    answer=$(curl -sS -o /dev/null -w '%{http_code} %{redirect_url}' "$http_url/api/games") ||
        fail "$proxy: no answer on plain HTTP at $http_url"
    [[ "$answer" =~ ^30[18]\ https://[^\ ]+/api/games$ ]] ||
        fail "$proxy: plain HTTP answered \"$answer\", expected a redirect to https://…/api/games"
    say "$proxy: e2e passed over https and wss; Courtside saw client 127.0.0.2 on all $count long-lived" \
        "connections (peer 127.0.0.1); forged headers ignored; HTTP redirects ($answer)"
}

# --- 2a. nginx ----------------------------------------------------------------------------------------------
start_courtside nginx
nginx_dir="$work/nginx"
mkdir -p "$nginx_dir/tmp"
make_self_signed_cert "$nginx_dir"
nginx_http=$(free_loopback_port)
nginx_https=$(free_loopback_port)
cp deploy/nginx/courtside.conf "$nginx_dir/courtside.conf"
conf="$nginx_dir/courtside.conf"
substitute "$conf" "listen 80;" "listen 127.0.0.1:$nginx_http;"
substitute "$conf" "listen [::]:80;" "# (IPv6 listener left out in the test)"
substitute "$conf" "listen 443 ssl;" "listen 127.0.0.1:$nginx_https ssl;"
substitute "$conf" "listen [::]:443 ssl;" "# (IPv6 listener left out in the test)"
substitute "$conf" "/etc/letsencrypt/live/scores.example.com/fullchain.pem" "$nginx_dir/cert.pem"
substitute "$conf" "/etc/letsencrypt/live/scores.example.com/privkey.pem" "$nginx_dir/key.pem"
substitute "$conf" "server 127.0.0.1:8080;" "server 127.0.0.1:$COURTSIDE_PORT_FOR;"
cat >"$nginx_dir/nginx.conf" <<EOF
user root;
worker_processes 1;
pid $nginx_dir/nginx.pid;
error_log $nginx_dir/error.log info;
events { worker_connections 1024; }
http {
    access_log $nginx_dir/access.log;
    client_body_temp_path $nginx_dir/tmp/body;
    proxy_temp_path $nginx_dir/tmp/proxy;
    fastcgi_temp_path $nginx_dir/tmp/fastcgi;
    uwsgi_temp_path $nginx_dir/tmp/uwsgi;
    scgi_temp_path $nginx_dir/tmp/scgi;
    include $conf;
}
EOF
PROXY_PIDFILES+=("$nginx_dir/nginx.pid")
nginx -e "$nginx_dir/error.log" -p "$nginx_dir" -c "$nginx_dir/nginx.conf" -t -q ||
    fail "nginx -t rejects deploy/nginx/courtside.conf"
nginx -e "$nginx_dir/error.log" -p "$nginx_dir" -c "$nginx_dir/nginx.conf" || fail "nginx did not start"
for _ in $(seq 50); do [ -s "$nginx_dir/nginx.pid" ] && break; sleep 0.1; done
wait_for_proxy "$nginx_https" "$(cat "$nginx_dir/nginx.pid")" "$nginx_dir/error.log"
check_through nginx "https://127.0.0.1:$nginx_https" "$nginx_dir/cert.pem" "http://127.0.0.1:$nginx_http" \
    "$COURTSIDE_LOG_FOR" "$COURTSIDE_PORT_FOR" "$nginx_dir/error.log"

# --- 2b. Caddy ----------------------------------------------------------------------------------------------
start_courtside caddy
caddy_dir="$work/caddy"
mkdir -p "$caddy_dir/data" "$caddy_dir/config"
caddy_http=$(free_loopback_port)
caddy_https=$(free_loopback_port)
cp deploy/caddy/Caddyfile "$caddy_dir/site"
substitute "$caddy_dir/site" "scores.example.com {" "127.0.0.1 {"
substitute "$caddy_dir/site" "# tls internal" "tls internal"
substitute "$caddy_dir/site" "reverse_proxy 127.0.0.1:8080 {" "reverse_proxy 127.0.0.1:$COURTSIDE_PORT_FOR {"
{
    printf '{\n\tadmin off\n\thttp_port %s\n\thttps_port %s\n\tdefault_bind 127.0.0.1\n\tskip_install_trust\n}\n\n' \
        "$caddy_http" "$caddy_https"
    cat "$caddy_dir/site"
} >"$caddy_dir/Caddyfile"
export XDG_DATA_HOME="$caddy_dir/data" XDG_CONFIG_HOME="$caddy_dir/config"
caddy validate --config "$caddy_dir/Caddyfile" --adapter caddyfile >"$caddy_dir/validate.log" 2>&1 || {
    show_logs "$caddy_dir/validate.log"
    fail "caddy validate rejects deploy/caddy/Caddyfile"
}
caddy run --config "$caddy_dir/Caddyfile" --adapter caddyfile --pidfile "$caddy_dir/caddy.pid" \
    >"$caddy_dir/caddy.log" 2>&1 &
echo $! >"$caddy_dir/caddy.pid"
PROXY_PIDFILES+=("$caddy_dir/caddy.pid")
wait_for_proxy "$caddy_https" "$(cat "$caddy_dir/caddy.pid")" "$caddy_dir/caddy.log"
caddy_root="$caddy_dir/data/caddy/pki/authorities/local/root.crt"
for _ in $(seq 100); do [ -s "$caddy_root" ] && break; sleep 0.1; done
[ -s "$caddy_root" ] || fail "Caddy's internal CA root did not appear at $caddy_root"
check_through caddy "https://127.0.0.1:$caddy_https" "$caddy_root" "http://127.0.0.1:$caddy_http" \
    "$COURTSIDE_LOG_FOR" "$COURTSIDE_PORT_FOR" "$caddy_dir/caddy.log"

# --- 3. certificate reload on SIGHUP ------------------------------------------------------------------------
tls="$work/tls"
make_self_signed_cert "$tls/a"
make_self_signed_cert "$tls/b"
mkdir -p "$tls/live" "$work/reload/public"
cp "$tls/a/cert.pem" "$tls/live/cert.pem"
cp "$tls/a/key.pem" "$tls/live/key.pem"
reload_port=$(free_loopback_port)
start_server "$work/reload/courtside.log" "$courtside" serve --host 127.0.0.1 --port "$reload_port" \
    --data "$work/reload/data" --public "$work/reload/public" --admin-token "$token" \
    --tls-cert "$tls/live/cert.pem" --tls-key "$tls/live/key.pem"
trap cleanup EXIT
wait_for_port "$reload_port" "$SERVER_PID" 60 || {
    show_logs "$work/reload/courtside.log"
    fail "courtside with TLS did not start"
}
"$python" Tests/deploy/tls_reload.py --port "$reload_port" --pid "$SERVER_PID" --log "$work/reload/courtside.log" \
    --admin-token "$token" --cert "$tls/live/cert.pem" --key "$tls/live/key.pem" \
    --new-cert "$tls/b/cert.pem" --new-key "$tls/b/key.pem" || {
    show_logs "$work/reload/courtside.log"
    fail "certificate reload on SIGHUP"
}
kill -0 "$SERVER_PID" 2>/dev/null || fail "courtside exited after SIGHUP"
say "SIGHUP: a renewed certificate is served to new connections, open sockets stay open, a bad one is refused"
say "passed"
