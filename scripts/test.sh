#!/usr/bin/env bash
# `npm test`: every test tier, from a fresh machine. Installs what is missing (npm packages; Debian's
# chromium when running as root), builds the server and the console for the browser tests, runs
# jest (unit, e2e, browser) and vitest (console components) after the type and lint checks, and
# ends with one line:
#   tests: N passed, M failed, K skipped
set -uo pipefail
cd "$(dirname "$0")/.."
export npm_config_nodedir=${npm_config_nodedir:-/usr}
mkdir -p test-artifacts
# Reports of an earlier run must not stand in for this one.
rm -f test-artifacts/jest.json test-artifacts/vitest.json

if [ ! -f node_modules/.package-lock.json ]; then npm ci || exit 1; fi
if ! command -v chromium >/dev/null 2>&1 || ! fc-list 2>/dev/null | grep -qi wqy; then
  if [ "$(id -u)" = 0 ]; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-wqy-microhei >/dev/null) || echo "could not install chromium"
  else
    echo "chromium is missing and this is not root: install Debian's chromium for the browser tests"
  fi
fi

# Every temporary file and folder of the run (the suites' data directories, the SQL servers'
# folders, what the started gateways write) goes under one folder, removed when the run ends: the
# suites leave theirs, and a busy machine's /tmp would otherwise fill run after run.
system_tmp=${TMPDIR:-/tmp}
run_tmp=$(mktemp -d "$system_tmp/tollgate-test-XXXXXX") || exit 1
# Open like /tmp itself: the PostgreSQL server the import suites start runs as its own user.
chmod 1777 "$run_tmp"
trap 'rm -rf "$run_tmp"' EXIT
export TMPDIR=$run_tmp

status=0
# Static checks gate the run like tests do: types, lint rules, import boundaries, formatting.
npm run typecheck || status=1
npm run lint || status=1
npm run build || status=1

# jest's transform cache stays in the system's temp folder (its usual place), outside the run's: a
# warm cache saves minutes. --forceExit: a handle leaked by one suite must not hang the run (and
# CI) after the results are in.
# On two cores jest runs every suite inside its own process (one worker or less means in band), and
# that process's heap grows with each suite it has run: past V8's default limit (~4 GB) it died
# two thirds into the run, leaving no report. The limit is raised for jest and what it starts.
JEST_HEAP_MB=${JEST_HEAP_MB:-12288}
NODE_OPTIONS="--max-old-space-size=${JEST_HEAP_MB} ${NODE_OPTIONS:-}" npx jest --ci --forceExit --cacheDirectory "$system_tmp/jest_$(id -u)" --json --outputFile=test-artifacts/jest.json 2>&1 | tee test-artifacts/jest.log || status=1
(cd frontend && npx vitest run --reporter=default --reporter=json --outputFile=../test-artifacts/vitest.json) 2>&1 | tee test-artifacts/vitest.log || status=1

# A jest that died before its report (a crashed worker, memory) says why only in its log: repeat
# the log's end last, where a CI excerpt shows it.
if [ ! -f test-artifacts/jest.json ]; then
  echo "jest wrote no report; the end of test-artifacts/jest.log:"
  grep -v '^\s*$' test-artifacts/jest.log | tail -n 40
fi
node scripts/test-summary.mjs test-artifacts/jest.json test-artifacts/vitest.json || status=1
exit $status
