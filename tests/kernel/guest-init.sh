#!/bin/sh
# /init of the kernel lane's initramfs (runs as PID 1 in the guest). Mounts the host root read-only over 9p,
# the unpacked module tree over /lib/modules, the writable output share at /out, then runs the guest test
# named on the kernel command line (encplan.test=..., default all) chrooted into the host root, and powers off.
# Parameters (kernel command line): encplan.repo=<repo path on the host> encplan.work=<work folder>
# encplan.test=<selection> encplan.capture=<1: every capture for fixtures/, slower>
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
version="$(cat /kernel-version)"
for module in virtio_pci virtio_blk 9pnet_virtio 9p virtio_rng; do modprobe "$module"; done
repo=; work=; test=all
for word in $(cat /proc/cmdline); do
  case "$word" in
    encplan.repo=*) repo="${word#encplan.repo=}" ;;
    encplan.work=*) work="${word#encplan.work=}" ;;
    encplan.test=*) test="${word#encplan.test=}" ;;
    encplan.capture=*) export ENCPLAN_KERNEL_CAPTURE="${word#encplan.capture=}" ;;
  esac
done
root=/mnt/root
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=524288,cache=loose hostroot "$root" || { echo 'GUEST: 9p root failed'; poweroff -f; }
# Module requests from the kernel run the initramfs's busybox modprobe against the full unpacked tree.
mount --bind "$root$work/kernel/lib/modules/$version" "/lib/modules/$version"
echo /bin/modprobe >/proc/sys/kernel/modprobe
# Loop devices (encplan benchmark containers) and device-mapper are modules in Debian's kernel.
for module in loop dm_mod dm_crypt; do modprobe "$module"; done
mount -t proc proc "$root/proc"
mount -t sysfs sys "$root/sys"
mount -t devtmpfs dev "$root/dev"
mkdir -p /dev/pts 2>/dev/null; mount -t devpts devpts "$root/dev/pts" 2>/dev/null
for dir in tmp run var/tmp var/lock mnt media; do mount -t tmpfs tmpfs "$root/$dir" 2>/dev/null; done
[ -d "$root/lib/modules" ] && mount -t tmpfs tmpfs "$root/lib/modules" && mkdir -p "$root/lib/modules/$version" \
  && mount --bind "/lib/modules/$version" "$root/lib/modules/$version"
# lvm keeps its backups and locks under /etc/lvm and /run: give it a writable copy of its configuration.
if [ -d "$root/etc/lvm" ]; then mkdir -p /lvm-etc && cp -a "$root/etc/lvm/." /lvm-etc/ && mount --bind /lvm-etc "$root/etc/lvm"; fi
# The repository and the work folder again, at their host paths: a clone under /tmp (or /run, /mnt…) is
# hidden by the tmpfs just mounted there (CI clones into a scratch folder).
for share in reposhare:"$repo" workshare:"$work"; do
  mkdir -p "$root${share#*:}" 2>/dev/null
  mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=524288,cache=loose "${share%%:*}" "$root${share#*:}" \
    || { echo "GUEST: ${share%%:*} failed"; poweroff -f; }
done
mkdir -p "$root/tmp/out"
mount -t 9p -o trans=virtio,version=9p2000.L,msize=524288 outshare "$root/tmp/out" || { echo 'GUEST: out share failed'; poweroff -f; }
echo "GUEST: uptime $(cut -d" " -f1 /proc/uptime) s, running $test"
chroot "$root" /bin/bash "$repo/tests/kernel/guest/run-guest-tests.sh" "$test" "$work" >"$root/tmp/out/guest.log" 2>&1
echo "GUEST: done rc=$? uptime $(cut -d" " -f1 /proc/uptime) s" | tee -a "$root/tmp/out/guest.log"
sync
umount "$root/tmp/out"
poweroff -f
