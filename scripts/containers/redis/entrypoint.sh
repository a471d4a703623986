#!/bin/sh
# The upstream redis image's entrypoint contract, written for the Debian stand-in (see Containerfile):
# - arguments that start with "-" or a first argument ending in ".conf" are redis-server's;
# - redis-server started as root owns /data and runs as the `redis` user;
# - without a config file, Redis would refuse remote clients (protected mode, no password): upstream turns protected
#   mode off so other containers can connect, and so does this; a password (--requirepass) still applies.
set -e
case "$1" in
    -*) set -- redis-server "$@" ;;
    *.conf) set -- redis-server "$@" ;;
esac
if [ "$1" = redis-server ] && [ "$(id -u)" = 0 ]; then
    find . ! -user redis -exec chown redis:redis '{}' +
    exec setpriv --reuid=redis --regid=redis --init-groups "$0" "$@"
fi
if [ "$1" = redis-server ]; then
    case "$2" in
        *.conf) ;;
        *)
            shift
            set -- redis-server --protected-mode no "$@"
            ;;
    esac
    umask 0077
fi
exec "$@"
