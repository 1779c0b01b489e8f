#!/usr/bin/env bash
# Runs every test: typecheck, lint, build, unit, CLI end-to-end, integration (root-only parts skip with a reason).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
source scripts/node-env.sh
rm -rf test-artifacts/vitest-*.json
npm run ci
node scripts/test-summary.mjs
