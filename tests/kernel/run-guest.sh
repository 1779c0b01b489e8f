#!/usr/bin/env bash
# Boots the kernel lane's guest once under QEMU TCG (/dev/kvm here runs only kernels built for it) and runs
# the guest tests named by TEST (a file name in guest/ without .sh, or "all"). The host root is read-only in
# the guest; OUT is shared read-write (results, logs, captures); the repository and WORK are shared again on
# their own, read-only, because the guest mounts tmpfs over /tmp, /run, /mnt… and a clone there (CI's scratch
# folders) would vanish behind it; a fresh sparse scratch disk is attached.
# A hard deadline (DEADLINE_SECONDS, default 780) kills QEMU in every outcome.
# Usage: run-guest.sh OUT [TEST] [WORK]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="$1"; test="${2:-all}"; work="$(cd "${3:-$repo/.kernel-lane}" && pwd)"
deadline="${DEADLINE_SECONDS:-780}"
mkdir -p "$out" && out="$(cd "$out" && pwd)"
scratch="$work/scratch.img"
rm -f "$scratch" && truncate -s 1G "$scratch"
qemu-system-x86_64 -accel tcg -cpu max -M q35 -smp 2 -m 2048 -nodefaults -no-user-config -display none \
  -vga none -no-reboot -serial "file:$out/console.log" -monitor none \
  -kernel "$work/vmlinuz" -initrd "$work/initramfs.cpio.gz" \
  -append "console=ttyS0 panic=-1 loglevel=4 encplan.repo=$repo encplan.work=$work encplan.test=$test encplan.capture=${ENCPLAN_KERNEL_CAPTURE:-0}" \
  -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
  -virtfs "local,path=$out,mount_tag=outshare,security_model=none,multidevs=remap" \
  -virtfs "local,path=$repo,mount_tag=reposhare,security_model=none,readonly=on,multidevs=remap" \
  -virtfs "local,path=$work,mount_tag=workshare,security_model=none,readonly=on,multidevs=remap" \
  -drive "file=$scratch,if=none,id=scratch,format=raw,cache=none,aio=threads,discard=unmap" \
  -device virtio-blk-pci,drive=scratch,serial=encplan-scratch -device virtio-rng-pci &
qemu=$!
trap 'kill -KILL "$qemu" 2>/dev/null || true; rm -f "$scratch"' EXIT
status=0
# Progress on stderr (the caller shows it live): each guest test as its result appears, and a line a minute.
# The reasons for a failure go to stdout, which the caller keeps for its message.
echo "kernel lane: guest booting under QEMU TCG (tests: $test; deadline ${deadline} s)" >&2
reported=" "
for ((second = 0; second < deadline; second++)); do
  kill -0 "$qemu" 2>/dev/null || break
  for result in "$out"/results/*.status; do
    [ -f "$result" ] || continue
    name="$(basename "$result" .status)"
    case "$reported" in *" $name "*) continue ;; esac
    reported="$reported$name "
    echo "kernel lane: ${second} s: guest test $name finished ($(cat "$result"))" >&2
  done
  ((second % 60 != 59)) || echo "kernel lane: ${second} s: still running" >&2
  sleep 1
done
if kill -0 "$qemu" 2>/dev/null; then
  echo "run-guest: deadline of ${deadline}s reached, QEMU killed" | tee -a "$out/deadline.txt"
  kill -KILL "$qemu"; status=124
fi
wait "$qemu" 2>/dev/null || true
grep -q 'GUEST: done' "$out/console.log" 2>/dev/null || { [ "$status" -ne 0 ] || status=1; echo "run-guest: the guest did not finish its tests (see console.log)"; }
echo "kernel lane: guest finished after ${second} s" >&2
exit "$status"
