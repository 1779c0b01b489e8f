#!/usr/bin/env bash
# Packs the built CLI, its production dependencies and this Node into one self-contained tarball, so a machine
# with no registry access can run encplan (the Ansible role `encplan.fleet.install` unpacks it into a prefix).
#   usage: scripts/pack-release.sh [OUT_DIR]      (default: release/)  → prints the tarball's path
# Layout inside the tarball (top folder encplan-VERSION-linux-ARCH/):
#   bin/encplan            sh wrapper: runs lib/node_modules/@encplan/cli/bin/run.js with the bundled node
#   bin/node               the Node binary this was built with (same OS and architecture only)
#   lib/node_modules/      @encplan/{core,cli,desktop} (package.json, dist, bin) and the production closure
#                          `npm ls --omit=dev --all --parseable -w packages/cli` lists, in npm's hoisted layout
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-env.sh
out_dir=$(mkdir -p "${1:-release}" && cd "${1:-release}" && pwd)

for built in packages/core/dist/index.js packages/cli/dist/commands/index.js packages/desktop/dist/server/index.js; do
  [[ -f $built ]] || { echo "pack-release: $built is missing; run npm run build first" >&2; exit 1; }
done

version=$(node -p 'require("./package.json").version')
arch=$(node -p 'process.arch')
name="encplan-${version}-linux-${arch}"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root="$stage/$name"
mkdir -p "$root/bin" "$root/lib/node_modules/@encplan"

for package in core cli desktop; do
  target="$root/lib/node_modules/@encplan/$package"
  mkdir -p "$target"
  cp packages/$package/package.json "$target/"
  cp -r packages/$package/dist "$target/"
  [[ -d packages/$package/bin ]] && cp -r packages/$package/bin "$target/"
done

# The production closure, resolved by npm from the lock file: every path relative to the repository root.
while IFS= read -r dependency; do
  relative=${dependency#"$PWD"/}
  case $relative in
    node_modules/@encplan/*|"$PWD"|'') continue ;;
  esac
  mkdir -p "$root/lib/$(dirname "$relative")"
  cp -r "$relative" "$root/lib/$relative"
done < <(npm ls --omit=dev --all --parseable -w packages/cli 2>/dev/null | sort -u)

cp "$(node -p 'process.execPath')" "$root/bin/node"
cat > "$root/bin/encplan" <<'WRAPPER'
#!/bin/sh
# encplan from a packed release: the bundled Node runs the CLI; no registry, no system Node needed.
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
exec "$here/node" "$here/../lib/node_modules/@encplan/cli/bin/run.js" "$@"
WRAPPER
chmod 0755 "$root/bin/encplan" "$root/bin/node"

tarball="$out_dir/$name.tar.gz"
tar -C "$stage" --owner=0 --group=0 --numeric-owner -czf "$tarball" "$name"
echo "$tarball"
