#!/usr/bin/env bash
# Runs in the guest, chrooted into the host root: runs each guest test (tests/kernel/guest/tests/NAME.sh, or
# only those named, comma-separated) with its own folder /tmp/out/NAME for captures, and records its exit status and the
# last lines of its log in /tmp/out/results/NAME.status for the host-side vitest file to report.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
export ENCPLAN_REPO="$(cd "$here/../../.." && pwd)"
export PATH="$ENCPLAN_REPO/.tools/node/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
export HOME=/tmp/home ENCPLAN_EMULATED=1
mkdir -p "$HOME" /tmp/out/results
selected="${1:-all}"
for file in "$here"/tests/*.sh; do
  name="$(basename "$file" .sh)"
  case ",$selected," in ,all, | *",$name,"*) ;; *) continue ;; esac
  mkdir -p "/tmp/out/$name"
  start=$(date +%s)
  echo "== $name"
  (cd /tmp && OUT="/tmp/out/$name" bash -eu "$file") >"/tmp/out/$name/log.txt" 2>&1
  status=$?
  { echo "status=$status"; echo "seconds=$(( $(date +%s) - start ))"; } >"/tmp/out/results/$name.status"
  echo "== $name status=$status"
  tail -n 5 "/tmp/out/$name/log.txt"
done
