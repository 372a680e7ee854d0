#!/usr/bin/env sh
# Regenerates the API description and the clients made from it (never edit those by hand):
#   openapi/openapi.json                       agenthub openapi
#   openapi/clients/python/agenthub_client/    openapi-python-client
#   openapi/clients/typescript/src/schema.d.ts openapi-typescript (npm), then checked with tsc
set -eu
cd "$(dirname "$0")/../.."
BIN=${BIN:-.venv/bin}
"$BIN/agenthub" openapi openapi/openapi.json
rm -rf openapi/clients/python/agenthub_client
"$BIN/openapi-python-client" generate --path openapi/openapi.json \
  --config openapi/clients/config.yml --meta none \
  --output-path openapi/clients/python/agenthub_client
cd openapi/clients/typescript
npm ci --no-audit --no-fund --silent
npx openapi-typescript ../../openapi.json -o src/schema.d.ts
npx tsc --noEmit
