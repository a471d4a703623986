# shellcheck shell=bash
# What the venue-relay scripts share (benchmarks/relay.sh, scripts/ci.d/38-relay-smoke.sh). Source it after
# scripts/lib/servers.sh.

# venue_token PORT ADMIN_TOKEN NAME: makes a venue on the public node at 127.0.0.1:PORT (POST /api/venues with the
# admin token) and prints its token (shown once); fails, printing the answer, when there is no token in it.
venue_token() {
    local port=$1 admin=$2 name=$3 answer
    answer=$(curl -sS -X POST "http://127.0.0.1:$port/api/venues" -H "Authorization: Bearer $admin" \
        -H 'Content-Type: application/json' -d "{\"name\":\"$name\"}")
    python3 -c 'import json, sys; print(json.loads(sys.argv[1])["token"])' "$answer" 2>/dev/null || {
        echo "POST /api/venues on port $port did not answer a token: $answer" >&2
        return 1
    }
}
