#!/usr/bin/env bash
# Runs every test: typecheck, lint, build, unit, CLI end-to-end, integration, then the kernel lane (root-only
# parts skip with a reason; under CI=true they fail instead).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
source scripts/node-env.sh
rm -rf test-artifacts/vitest-*.json
npm run ci
# The kernel lane (QEMU + Debian's kernel, tests/kernel, docs/kernel-lane.md; about 8 min on 2 cores): it
# installs QEMU and the Debian kernel package itself (apt-get), fails under CI=true when it cannot boot and
# skips with the reason elsewhere. It is green when run (ENCPLAN_KERNEL_LANE=1) but not yet part of the default
# run: it has not had a clean-clone CI run of its own after the last merges (issue 12 stays open until it has).
if [[ ${ENCPLAN_KERNEL_LANE:-0} == 1 ]]; then
  npm run test:kernel || status=$?
else
  echo "test.sh: kernel lane skipped (set ENCPLAN_KERNEL_LANE=1 to run it; see docs/kernel-lane.md)"
fi
node scripts/test-summary.mjs
exit "${status:-0}"
