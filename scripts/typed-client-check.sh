#!/usr/bin/env bash
# The typed-client check (CI): generates TypeScript types from docs/openapi.json with openapi-typescript and
# type-checks test/facades/typedClient/firstSteps.ts, an openapi-fetch program with no casts, under `strict`. It fails when
# the document makes a success body a union (two media types) or `X | null`, or when a route it calls changes shape.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p test/facades/typedClient/.generated
npx openapi-typescript docs/openapi.json --output test/facades/typedClient/.generated/api.d.ts --silent
npx tsc -p test/facades/typedClient/tsconfig.json
echo "typed client: compiles"
