#!/usr/bin/env bash
# npm run bench [-- --quick] [-- --no-build] [-- --soak-minutes N] [-- --users N] [-- --profile] [-- --strict]
set -euo pipefail
cd "$(dirname "$0")/../.."
if [[ " $* " != *" --no-build "* ]]; then
  npm run build:server >/dev/null
  npx tsc -p test/bench/tsconfig.bench.json
  npx tsc-alias -p test/bench/tsconfig.bench.json
fi
exec node dist/test/bench/bench.js "$@"
