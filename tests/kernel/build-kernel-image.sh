#!/usr/bin/env bash
# Builds the kernel lane's boot image in WORK (default .kernel-lane/ at the repo root, git-ignored):
# Debian's kernel package fetched with `apt-get download` and unpacked with `dpkg -x` (never installed into
# /boot), its module index, and a busybox-static initramfs whose /init is tests/kernel/guest-init.sh.
# Installs QEMU, busybox-static and the guest tests' tools with apt-get when they are missing.
# Prints KERNEL_VERSION=... on success; exits non-zero with the reason otherwise.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="${1:-$here/../../.kernel-lane}"
mkdir -p "$work" && work="$(cd "$work" && pwd)"

need=()
command -v qemu-system-x86_64 >/dev/null || need+=(qemu-system-x86)
dpkg -s busybox-static >/dev/null 2>&1 || need+=(busybox-static)
command -v lvm >/dev/null || need+=(lvm2)
command -v tcplay >/dev/null || need+=(tcplay)
command -v fio >/dev/null || need+=(fio)
command -v cryptsetup >/dev/null || need+=(cryptsetup-bin)
if [ "${#need[@]}" -gt 0 ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >"$work/apt-install.log" 2>&1 \
    || { echo "apt-get install ${need[*]} failed (see $work/apt-install.log)" >&2; exit 1; }
fi

# The package linux-image-amd64 depends on names the current kernel (e.g. linux-image-6.1.0-56-amd64).
package="$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-/ { print $2; exit }')"
[ -n "$package" ] || { echo "apt-cache knows no linux-image-amd64 dependency (run apt-get update)" >&2; exit 1; }
if [ ! -f "$work/$package.unpacked" ]; then
  rm -rf "$work/kernel" "$work"/linux-image-*.deb
  (cd "$work" && apt-get download "$package" >/dev/null) || { echo "apt-get download $package failed" >&2; exit 1; }
  dpkg -x "$work"/linux-image-*.deb "$work/kernel"
  touch "$work/$package.unpacked"
fi
version="$(ls "$work/kernel/lib/modules" | head -n1)"
[ -f "$work/kernel/lib/modules/$version/modules.dep" ] || busybox depmod -b "$work/kernel" "$version"

# The initramfs: busybox, the modules needed to reach the 9p root and the scratch disk, their index files.
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
echo "KERNEL_VERSION=$version"
