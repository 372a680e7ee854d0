#!/usr/bin/env sh
# Generates the Python client (distribution agenthub-api-client, import agenthub_client) from
# openapi/openapi.json into $1, by default openapi/clients/python; never edit its output.
#   - the description without its text/event-stream operations (without_streams.py: the kit
#     is the SSE client)
#   - openapi-python-client (pinned in the test extra), packaged with pdm-backend (--meta pdm),
#     this directory's config.yml, and the README of templates/README.md.jinja
# generate.sh runs it; tests/contract/test_clients.py runs it into a temporary directory and
# compares.
set -eu
cd "$(dirname "$0")/../.."
BIN=${BIN:-.venv/bin}
OUT=${1:-openapi/clients/python}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
"$BIN/python" openapi/clients/without_streams.py openapi/openapi.json "$WORK/openapi.json"
rm -rf "$OUT"
"$BIN/openapi-python-client" generate --path "$WORK/openapi.json" \
  --config openapi/clients/config.yml --meta pdm \
  --custom-template-path openapi/clients/templates \
  --output-path "$OUT"
