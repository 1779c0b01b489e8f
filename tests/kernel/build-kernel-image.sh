#!/usr/bin/env bash
# Builds the kernel lane's boot image in WORK (default .kernel-lane/ at the repo root, git-ignored):
# Debian's kernel package fetched with `apt-get download` and unpacked with `dpkg -x` (never installed into
# /boot), its module index, a busybox-static initramfs whose /init is tests/kernel/guest-init.sh, and the
# packed release of the CLI (scripts/pack-release.mjs: one bundle, so Node in the guest reads a few files over
# 9p instead of hundreds) in WORK/release/stage. Each part is rebuilt only when its inputs' hash changed.
# Installs QEMU, busybox-static and the guest tests' tools with apt-get when they are missing (Debian packages
# only: nothing else is downloaded). Prints KERNEL_VERSION=... on success; exits non-zero with the reason.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="${1:-$here/../../.kernel-lane}"
mkdir -p "$work" && work="$(cd "$work" && pwd)"

# Debian packages the host side (qemu, busybox) and the guest tests (run from the host root) need.
need=()
for pair in qemu-system-x86_64:qemu-system-x86 lvm:lvm2 tcplay:tcplay expect:expect keyctl:keyutils fio:fio \
  cryptsetup:cryptsetup-bin sfdisk:fdisk partx:util-linux mkfs.ext4:e2fsprogs; do
  command -v "${pair%%:*}" >/dev/null || need+=("${pair#*:}")
done
dpkg -s busybox-static >/dev/null 2>&1 || need+=(busybox-static)
export DEBIAN_FRONTEND=noninteractive
if [ "${#need[@]}" -gt 0 ]; then
  { apt-get install -y -qq --no-install-recommends "${need[@]}" || { apt-get update -qq \
    && apt-get install -y -qq --no-install-recommends "${need[@]}"; }; } >"$work/apt-install.log" 2>&1 \
    || { echo "apt-get install ${need[*]} failed (see $work/apt-install.log)" >&2; exit 1; }
fi

# The package linux-image-amd64 depends on names the current kernel (e.g. linux-image-6.1.0-56-amd64).
kernel_package() { apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-/ { print $2; exit }'; }
package="$(kernel_package)"
[ -n "$package" ] || { apt-get update -qq >/dev/null 2>&1; package="$(kernel_package)"; }
[ -n "$package" ] || { echo "apt-cache knows no linux-image-amd64 dependency (apt-get update failed?)" >&2; exit 1; }
if [ ! -f "$work/$package.unpacked" ]; then
  rm -rf "$work/kernel" "$work"/linux-image-*.deb
  (cd "$work" && apt-get download "$package" >/dev/null) || { echo "apt-get download $package failed" >&2; exit 1; }
  dpkg -x "$work"/linux-image-*.deb "$work/kernel"
  touch "$work/$package.unpacked"
fi
version="$(ls "$work/kernel/lib/modules" | head -n1)"
[ -f "$work/kernel/lib/modules/$version/modules.dep" ] || busybox depmod -b "$work/kernel" "$version"

# The initramfs: busybox, the modules needed to reach the 9p root and the scratch disk, their index files.
# Rebuilt only when its inputs (this script, /init, busybox, the kernel) changed.
inputs="$(cat "$0" "$here/guest-init.sh" /bin/busybox | sha256sum | cut -d' ' -f1) $package"
if [ -f "$work/initramfs.cpio.gz" ] && [ -f "$work/vmlinuz" ] && [ "$(cat "$work/initramfs.inputs" 2>/dev/null)" = "$inputs" ]; then
  echo "initramfs unchanged ($work/initramfs.inputs)" >&2
else
  initramfs="$work/initramfs"
  rm -rf "$initramfs" && mkdir -p "$initramfs"/{bin,dev,proc,sys,mnt/root,lib/modules/"$version"}
  cp /bin/busybox "$initramfs/bin/busybox"
  ln -s busybox "$initramfs/bin/sh"
  cp "$here/guest-init.sh" "$initramfs/init" && chmod +x "$initramfs/init"
  modules="$work/kernel/lib/modules/$version"
  cp "$modules"/modules.* "$initramfs/lib/modules/$version/"
  for module in virtio_pci virtio_blk 9pnet_virtio 9p virtio_rng; do
    # modules.dep lines: "kernel/path/mod.ko: dep1.ko dep2.ko"
    line="$(grep -E "/${module//_/[_-]}\.ko(\.xz)?:" "$modules/modules.dep" || true)"
    for file in ${line//:/ }; do
      mkdir -p "$initramfs/lib/modules/$version/$(dirname "$file")"
      cp "$modules/$file" "$initramfs/lib/modules/$version/$file"
    done
  done
  echo "$version" >"$initramfs/kernel-version"
  (cd "$initramfs" && find . | busybox cpio -o -H newc 2>/dev/null | gzip -1) >"$work/initramfs.cpio.gz"
  cp "$work/kernel/boot/vmlinuz-$version" "$work/vmlinuz"
  echo "$inputs" >"$work/initramfs.inputs"
fi

# The guest's encplan: the packed release (run `npm run build` first), rebuilt when the built output changed.
repo="$(cd "$here/../.." && pwd)"
built="$(cd "$repo" && find packages/cli/dist packages/core/dist packages/desktop/out scripts/pack-release.mjs \
  packages/cli/bin packages/cli/package.json -type f 2>/dev/null | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -d' ' -f1)"
if [ -f "$work/release/stage/bin/run.js" ] && [ "$(cat "$work/release.inputs" 2>/dev/null)" = "$built" ]; then
  echo "release unchanged ($work/release.inputs)" >&2
else
  node "$repo/scripts/pack-release.mjs" "$work/release" >"$work/pack-release.log" 2>&1 \
    || { echo "packing the CLI release failed (see $work/pack-release.log; run npm run build first)" >&2; exit 1; }
  echo "$built" >"$work/release.inputs"
fi
echo "KERNEL_VERSION=$version"
