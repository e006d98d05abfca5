# The services the tests can run against, started from Debian's packages on 127.0.0.1 and
# stopped again. Source it, call start_<service> for each one wanted, and `trap stop_services
# EXIT`. Each service has its own start_/stop_ pair and its own folder under SERVICES_DIR;
# stop_services stops whichever were started.
#
#   start_postgres   a throwaway cluster (initdb) run by the `postgres` user, on a free port;
#                    exports BOT_TEST_DATABASE=postgresql://postgres@127.0.0.1:PORT/postgres

SERVICES_DIR="${SERVICES_DIR:-$(mktemp -d /tmp/bot-services.XXXXXX)}"
chmod 755 "$SERVICES_DIR"  # the services' own users must reach their folders
_SERVICES_STARTED=()

_free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

_apt_install() {  # package…: install when missing (CI runs as root on a clean machine)
    if [ "$(id -u)" != 0 ]; then
        echo "services: $* missing and not root to install it" >&2
        return 1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >/dev/null
}

# --- PostgreSQL --------------------------------------------------------------------------------

_pg_bin() {
    ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

_as_postgres() {  # PostgreSQL refuses to run as root: its own user runs it
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

start_postgres() {
    if [ -z "$(_pg_bin)" ]; then
        _apt_install postgresql
    fi
    local bin dir port
    bin="$(_pg_bin)"
    dir="$SERVICES_DIR/postgres"
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then
        chown postgres: "$dir"
    fi
    _as_postgres "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-locale >/dev/null
    port="$(_free_port)"
    # a throwaway cluster: durability off for speed; enough connections for the pools
    _as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o "-c listen_addresses=127.0.0.1 \
        -p $port -c unix_socket_directories=$dir -c fsync=off -c synchronous_commit=off \
        -c full_page_writes=off -c max_connections=200" start >/dev/null
    _SERVICES_STARTED+=(postgres)
    export BOT_TEST_DATABASE="postgresql://postgres@127.0.0.1:$port/postgres"
    echo "services: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"
}

stop_postgres() {
    local dir="$SERVICES_DIR/postgres"
    _as_postgres "$(_pg_bin)/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
    rm -rf "$dir"
}

# --- all ---------------------------------------------------------------------------------------

stop_services() {
    local service
    for service in "${_SERVICES_STARTED[@]}"; do
        "stop_$service"
    done
    _SERVICES_STARTED=()
    rmdir "$SERVICES_DIR" 2>/dev/null || true
}
