# What fleet tools miss (issue 26 item 4; fleet#46227: a key outside LUKS slot 0, fleet#47256: multi-disk LVM):
# a LUKS2 volume whose only passphrase lives in keyslot 3, with a token bound to that keyslot, and a volume group
# spanning the scratch disk and a second block device (a loop device on a tmpfs file, as a second disk would
# be). Captures the luksDump JSON, the second device's name and one `encplan assess --json`; the host-side test
# reads encplan's storage model from it.
source "$(dirname "$0")/../lib.sh"
disk=/dev/vda
key=/tmp/slots-key && head -c 32 /dev/urandom >"$key"
second=/tmp/second-pv.img
loop=''
# Tear down exactly what this test made, also when a step fails (later tests reuse the scratch disk).
teardown() {
  cryptsetup close lane-slot3 2>/dev/null || true
  lvm_no_udev vgchange -q -an lanespan 2>/dev/null || true
  if [ -n "$loop" ]; then losetup -d "$loop" 2>/dev/null || true; fi
  rm -f "$second"
}
trap teardown EXIT

wipefs -qa "$disk"
printf 'label: gpt\n,128M\n,128M\n' | sfdisk -q "$disk"
partx -u "$disk" 2>/dev/null || true
for p in 1 2; do [ -b "$disk$p" ] || { echo "no $disk$p after sfdisk"; exit 1; }; done
# 1: LUKS2, the passphrase in keyslot 3 only (slot 0 stays empty), a token bound to keyslot 3 (cryptsetup(8)
# luksFormat --key-slot; token import reads the token JSON, { type, keyslots }, from stdin).
cryptsetup luksFormat -q --type luks2 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 --key-slot 3 \
  --key-file "$key" "${disk}1"
printf '{"type":"encplan-lane","keyslots":["3"]}' | cryptsetup token import --token-id 0 "${disk}1"
cryptsetup luksDump --dump-json-metadata "${disk}1" >"$OUT/luksdump-vda1.json"
cryptsetup open --key-file "$key" "${disk}1" lane-slot3
# 2: one linear LV over all of vda2 and the loop device: its dm table spans both (sysfs slaves/).
truncate -s 96M "$second"
loop="$(losetup --find --show "$second")"
echo "$loop" >"$OUT/second-pv.txt"
# The scratch disk's partition 2 still carries an earlier guest test's LUKS signature: pvcreate would ask on
# stdin whether to wipe it (and wait until the lane's deadline). -y answers, and stdin is never a terminal here.
lvm_no_udev pvcreate -q -y "${disk}2" "$loop" </dev/null
lvm_no_udev vgcreate -q lanespan "${disk}2" "$loop" </dev/null
lvm_no_udev lvcreate -q -y -l 100%FREE -n spanlv lanespan </dev/null
# Without udev /dev/lanespan/spanlv points at /dev/mapper/lanespan-spanlv, not the kernel name sysfs uses:
# dmsetup names the dm-N device.
ls "/sys/class/block/$(dmsetup info -c --noheadings -o blkdevname lanespan-spanlv)/slaves" >"$OUT/spanlv-slaves.txt"
lsblk --json --bytes -O -- "$disk" >"$OUT/lsblk-json-bytes-O.json"
encplan assess "$disk" --json >"$OUT/assess.json" || echo "assess exit status $?"
grep -q '"storage"' "$OUT/assess.json"
teardown
dmsetup ls | grep -q 'No devices found'
