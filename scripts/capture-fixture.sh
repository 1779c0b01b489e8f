#!/usr/bin/env bash
# Runs one tool the way encplan runs it (LC_ALL=C, argument array, no shell between us and the tool) and writes
# a fixture folder: stdout.txt and stderr.txt byte for byte, plus command.json
# {tool, toolVersion, argv, exitCode, platform, capturedAt, redacted}.
#
#   scripts/capture-fixture.sh fixtures/openssl-speed/x86-vaes-debian12-aes-256-xts-1core -- openssl speed -mr -evp aes-256-xts
#   scripts/capture-fixture.sh --file /proc/crypto fixtures/proc-crypto/x86-vm-generic-aes-fixed-time
#
# Nothing here needs redaction (benchmarks and /proc/crypto carry no serials or hostnames); `redacted` says so.
set -euo pipefail

usage() { echo "usage: $0 <fixture-dir> -- <tool> [args...] | $0 --file <path> <fixture-dir>" >&2; exit 2; }

tool_version() {
  case "$1" in
    cryptsetup) cryptsetup --version 2>/dev/null | head -n1 ;;
    openssl) openssl version 2>/dev/null | head -n1 ;;
    *) "$1" --version 2>/dev/null | head -n1 || true ;;
  esac
}

platform() { printf '%s %s %s' "$(uname -s)" "$(uname -r)" "$(uname -m)"; }

if [[ ${1:-} == --file ]]; then
  [[ $# -eq 3 ]] || usage
  source_file=$2 dir=$3
  mkdir -p "$dir"
  cat -- "$source_file" >"$dir/stdout.txt"
  jq -n --arg path "$source_file" --arg platform "$(platform)" --arg at "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
    '{tool: "file", toolVersion: null, argv: [$path], exitCode: 0, platform: $platform, capturedAt: $at, redacted: false}' \
    >"$dir/command.json"
  echo "wrote $dir (copy of $source_file)"
  exit 0
fi

[[ $# -ge 3 && $2 == -- ]] || usage
dir=$1
shift 2
tool=$1
mkdir -p "$dir"
set +e
LC_ALL=C LANG=C "$@" >"$dir/stdout.txt" 2>"$dir/stderr.txt"
code=$?
set -e
jq -n --arg tool "$tool" --arg version "$(tool_version "$tool")" --arg platform "$(platform)" \
  --arg at "$(date -u +%Y-%m-%dT%H:%M:%SZ)" --argjson code "$code" \
  '{tool: $tool, toolVersion: $version, argv: $ARGS.positional, exitCode: $code, platform: $platform, capturedAt: $at, redacted: false}' \
  --args -- "${@:2}" >"$dir/command.json"
echo "wrote $dir (exit $code)"
