# Sourced by the data scripts: `ensure_venv DIR PIN...` creates the virtual environment DIR (with
# $PYTHON, default python3) if missing and installs the pinned packages when the pins change.
# /tmp/wheels is used as an extra wheel source only when it exists; PyPI works without it.
ensure_venv() {
    local venv=$1; shift
    local pip_extra=()
    if [ -d /tmp/wheels ]; then pip_extra=(--find-links /tmp/wheels); fi
    if [ ! -x "$venv/bin/python" ]; then
        echo "creating $venv"
        "${PYTHON:-python3}" -m venv "$venv"
    fi
    if [ "$(cat "$venv/.nightmap-pins" 2>/dev/null || true)" != "$*" ]; then
        "$venv/bin/pip" install -q --disable-pip-version-check ${pip_extra[@]+"${pip_extra[@]}"} "$@"
        echo "$*" > "$venv/.nightmap-pins"
    fi
}
