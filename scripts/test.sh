#!/usr/bin/env bash
# Runs every test: typecheck, lint, build, unit, CLI end-to-end, integration (root-only parts skip with a reason).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
source scripts/node-env.sh
rm -rf test-artifacts/vitest-*.json
npm run ci
# The kernel lane (QEMU + Debian's kernel, tests/kernel, docs/kernel-lane.md) is not part of the default run
# yet: one boot of all guest tests takes ~13 min under software emulation on 2 cores and 50-assess-stacks has
# not passed end to end (issue 12 stays open until it fits CI's budget). ENCPLAN_KERNEL_LANE=1 runs it.
if [[ ${ENCPLAN_KERNEL_LANE:-0} == 1 ]]; then
  npm run test:kernel || status=$?
else
  echo "test.sh: kernel lane skipped (set ENCPLAN_KERNEL_LANE=1 to run it; see docs/kernel-lane.md)"
fi
node scripts/test-summary.mjs
exit "${status:-0}"
