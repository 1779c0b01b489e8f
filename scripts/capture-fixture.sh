#!/usr/bin/env bash
# Captures one real tool run as a fixture folder: stdout and stderr byte for byte, plus command.json with
# the tool, its version, the argv, the exit status, the platform and the date.
#   scripts/capture-fixture.sh fixtures/<tool>/<case> [--version-args "--version"] -- <tool> <args…>
# Review the output for serial numbers, WWNs and host names before committing, and redact them to
# REDACTED in both files (set "redacted": true in command.json by hand when you do).
set -euo pipefail
out=$1; shift
version_args=--version
if [[ ${1:-} == --version-args ]]; then version_args=$2; shift 2; fi
[[ ${1:-} == -- ]] && shift
tool=$1; shift
mkdir -p "$out"
set +e
LC_ALL=C LANG=C "$tool" "$@" >"$out/stdout" 2>"$out/stderr"
status=$?
set -e
[[ -s $out/stderr ]] || rm -f "$out/stderr"
# shellcheck disable=SC2086
version=$(LC_ALL=C "$tool" $version_args 2>&1 | head -n 1 || true)
node -e '
const [out, tool, version, status, ...argv] = process.argv.slice(1);
const os = require("node:os");
const doc = { tool, toolVersion: version, argv, exitCode: Number(status), platform: `${os.platform()} ${os.release()} ${os.arch()}`, capturedAt: new Date().toISOString().slice(0, 10), redacted: false };
require("node:fs").writeFileSync(`${out}/command.json`, JSON.stringify(doc, null, 2) + "\n");
' "$out" "$(basename "$tool")" "$version" "$status" "$@"
echo "captured $tool (exit $status) into $out"
