# shellcheck shell=bash
# require_commands STEP INSTALLER COMMAND...: returns when every COMMAND is on PATH. Otherwise a check's missing
# peer is a failure under CI=true (STYLE.md 17: a CI run never passes by skipping) and a skip elsewhere, saying
# which install step brings it; either way the calling script ends here.
require_commands() {
    local step=$1 installer=$2 missing=() tool
    shift 2
    for tool in "$@"; do
        command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
    done
    [ ${#missing[@]} -gt 0 ] || return 0
    if [ "${CI:-}" = "true" ]; then
        echo "$step: FAILED: missing ${missing[*]} ($installer installs them)" >&2
        exit 1
    fi
    echo "$step: SKIPPED: missing ${missing[*]}; run $installer as root (CI fails instead)"
    exit 0
}

# A step's own lines: `ci_step NAME` once, then `say TEXT` prints "NAME: TEXT" and `fail TEXT` prints
# "NAME: FAILED: TEXT" on stderr and ends the step with status 1.
ci_step() {
    CI_STEP_NAME=$1
}
say() { echo "${CI_STEP_NAME:?ci_step not called}: $*"; }
fail() {
    echo "${CI_STEP_NAME:?ci_step not called}: FAILED: $*" >&2
    exit 1
}

# substitute FILE FROM TO: replaces every FROM (a fixed string) in FILE with TO; fails when FROM is not there, so
# a recipe that drifts from what a check edits is caught instead of silently tested unchanged.
substitute() {
    local file=$1 from=$2 to=$3
    grep -qF -- "$from" "$file" || fail "$file has no \"$from\" to replace (did the recipe change?)"
    FROM=$from TO=$to perl -0pi -e 's/\Q$ENV{FROM}\E/$ENV{TO}/g' "$file"
}
