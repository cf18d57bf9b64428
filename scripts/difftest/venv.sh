#!/usr/bin/env bash
# Creates (or reuses) target/oracle-venv with scripts/difftest/requirements.txt
# installed, and prints its python's path on the first run only; silent when
# the venv is already up to date. Usage:
#   scripts/difftest/venv.sh && target/oracle-venv/bin/python ...
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
VENV="$REPO/target/oracle-venv"
REQ="$HERE/requirements.txt"
STAMP="$VENV/.requirements.sha256"
want="$(sha256sum "$REQ" | cut -d' ' -f1)"
if [[ -x "$VENV/bin/python" && -f "$STAMP" && "$(cat "$STAMP")" == "$want" ]]; then
    exit 0
fi
PY="${PYTHON:-python3}"
[[ -x "$VENV/bin/python" ]] || "$PY" -m venv "$VENV" >&2
"$VENV/bin/pip" install -q --disable-pip-version-check --only-binary=cassandra-driver -r "$REQ" >&2
echo "$want" >"$STAMP"
echo "oracle venv ready: $VENV/bin/python" >&2
