#!/usr/bin/env sh
# Regenerates the API description and the clients made from it (never edit those by hand):
#   openapi/openapi.json                       agenthub openapi
#   openapi/clients/python/                    python-client.sh: openapi-python-client, the
#                                              distribution agenthub-api-client (pyproject.toml,
#                                              README.md) with the package agenthub_client
#   openapi/clients/typescript/src/schema.d.ts openapi-typescript (npm), then checked with tsc
set -eu
cd "$(dirname "$0")/../.."
BIN=${BIN:-.venv/bin}
"$BIN/agenthub" openapi openapi/openapi.json
BIN="$BIN" sh openapi/clients/python-client.sh openapi/clients/python
cd openapi/clients/typescript
npm ci --no-audit --no-fund --silent
npx openapi-typescript ../../openapi.json -o src/schema.d.ts
npx tsc --noEmit
