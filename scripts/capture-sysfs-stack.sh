#!/bin/sh
# Captures the sysfs files encplan's discard-passthrough analysis reads, for one disk and every layer
# stacked on it (partitions, dm-crypt, LVM, md, loop), into a fixture folder like fixtures/sysfs/<case>/.
#
#   sudo scripts/capture-sysfs-stack.sh sda fixtures/sysfs/sata-ssd-luks2-lvm-my-laptop
#
# It reads only: /sys/class/block/<dev>/{dev,ro,size,partition,discard_alignment}, dm/{name,uuid},
# loop/backing_file, md/level, queue/discard_{granularity,max_bytes,max_hw_bytes}, holders/, plus
# `dmsetup table` (keys are replaced by <key>) and /etc/crypttab. Nothing is written to any device.
# Review the output before committing it: dm names and crypttab may name your volumes.
set -eu

if [ "$#" -ne 2 ]; then
  echo "usage: $0 DISK_KERNEL_NAME OUTPUT_DIR   (e.g. $0 sda fixtures/sysfs/my-case)" >&2
  exit 2
fi
disk=$1
out=$2
case "$disk" in
  */* | -* | '') echo "give a kernel name such as sda or nvme0n1, not a path" >&2; exit 2 ;;
esac
[ -d "/sys/class/block/$disk" ] || { echo "/sys/class/block/$disk does not exist" >&2; exit 1; }
mkdir -p "$out/sys/class/block"

copy_attr() { # name relative-path
  if [ -r "/sys/class/block/$1/$2" ]; then
    mkdir -p "$(dirname "$out/sys/class/block/$1/$2")"
    cat "/sys/class/block/$1/$2" > "$out/sys/class/block/$1/$2"
  fi
}

capture() { # name
  name=$1
  [ -d "$out/sys/class/block/$name/holders" ] && return 0
  mkdir -p "$out/sys/class/block/$name/holders"
  for attr in dev ro size partition discard_alignment dm/name dm/uuid loop/backing_file md/level \
    queue/discard_granularity queue/discard_max_bytes queue/discard_max_hw_bytes; do
    copy_attr "$name" "$attr"
  done
  # Partitions: directories inside the disk's directory that have a `partition` file.
  for entry in /sys/class/block/"$name"/"$name"*; do
    [ -e "$entry/partition" ] || continue
    part=$(basename "$entry")
    ln -s "../$part" "$out/sys/class/block/$name/$part"
    capture "$part"
  done
  found=0
  for holder in /sys/class/block/"$name"/holders/*; do
    [ -e "$holder" ] || continue
    found=1
    h=$(basename "$holder")
    ln -s "../../$h" "$out/sys/class/block/$name/holders/$h"
    capture "$h"
  done
  [ "$found" -eq 1 ] || : > "$out/sys/class/block/$name/holders/.keep"
}

capture "$disk"
if command -v dmsetup > /dev/null 2>&1; then
  # The key (or keyring reference) follows the cipher in a crypt line ("name: " prefix or not): never keep it.
  dmsetup table 2> /dev/null | awk '$4 == "crypt" { $6 = "<key>" } $3 == "crypt" { $5 = "<key>" } { print }' > "$out/dmsetup-table.txt" || true
fi
[ -r /etc/crypttab ] && cp /etc/crypttab "$out/crypttab"
{
  echo "# sysfs snapshot of $disk"
  echo
  echo "Captured with scripts/capture-sysfs-stack.sh on $(uname -sr), $(date -u +%Y-%m-%d)."
  echo "lsblk --discard at capture time:"
  echo
  echo '```'
  lsblk --discard "/dev/$disk" 2> /dev/null || true
  echo '```'
} > "$out/PROVENANCE.md"
echo "wrote $out"
