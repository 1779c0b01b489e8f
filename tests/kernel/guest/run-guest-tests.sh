#!/usr/bin/env bash
# Runs in the guest, chrooted into the host root: runs each guest test (tests/kernel/guest/tests/NAME.sh, or
# only those named, comma-separated, by full name or number: "50" or "50-assess-stacks") with its own folder
# /tmp/out/NAME for captures, and records its exit status and duration in /tmp/out/results/NAME.status for the
# host-side vitest file to report. Usage: run-guest-tests.sh [SELECTION] [WORK]
set -u
here="$(cd "$(dirname "$0")" && pwd)"
export ENCPLAN_REPO="$(cd "$here/../../.." && pwd)"
work="${2:-$ENCPLAN_REPO/.kernel-lane}"
# The packed release (one bundle, build-kernel-image.sh): Node reads a few files over 9p, not hundreds.
export ENCPLAN_CLI="$work/release/stage/bin/run.js"
export PATH="$ENCPLAN_REPO/.tools/node/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
export HOME=/tmp/home ENCPLAN_EMULATED=1
mkdir -p "$HOME" /tmp/out/results
[ -f "$ENCPLAN_CLI" ] || echo "run-guest-tests: $ENCPLAN_CLI missing (run build-kernel-image.sh)"
selected="${1:-all}"
for file in "$here"/tests/*.sh; do
  name="$(basename "$file" .sh)"
  case ",$selected," in ,all, | *",$name,"* | *",${name%%-*},"*) ;; *) continue ;; esac
  mkdir -p "/tmp/out/$name"
  start=$(date +%s)
  echo "== $name (guest uptime $(cut -d' ' -f1 /proc/uptime) s)"
  # -x with the guest's uptime in front of every command: the log says where a test spends its time (PS4 is
  # set inside: bash run as root ignores PS4 from the environment).
  # shellcheck disable=SC2016 # expanded by the inner bash at each command
  (cd /tmp && OUT="/tmp/out/$name" bash -eu -c 'PS4="+ [\$(cut -d\" \" -f1 /proc/uptime)] "; set -x; source "$0"' "$file") \
    >"/tmp/out/$name/log.txt" 2>&1
  status=$?
  { echo "status=$status"; echo "seconds=$(($(date +%s) - start))"; } >"/tmp/out/results/$name.status"
  echo "== $name status=$status"
  tail -n 5 "/tmp/out/$name/log.txt"
done
