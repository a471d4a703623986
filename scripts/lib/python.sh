# shellcheck shell=bash
# ensure_python_venv: python3 with a working `venv` (ensurepip included). The image's python3 has it; Debian's own
# python3 needs the python3-venv package, installed here when it is missing (root, apt).
ensure_python_venv() {
    if ! command -v python3 >/dev/null 2>&1; then
        apt_install python3 python3-venv
    fi
    if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
        apt_install python3-venv
    fi
}

# apt_install PACKAGE...: installs the Debian packages that are not installed yet.
apt_install() {
    local missing=() p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        apt-get update -q
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
    fi
}
