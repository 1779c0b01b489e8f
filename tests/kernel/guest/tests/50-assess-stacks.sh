# Real stacks on the scratch disk for `encplan assess`: LUKS2 on a partition opened with and without
# --allow-discards, LVM inside LUKS2, LUKS2 inside LVM, and a TrueCrypt-format volume made by tcplay and opened
# with `cryptsetup open --type tcrypt`. Captures what the kernel says (queue/discard_max_bytes of every layer,
# dmsetup table, luksDump JSON, lsblk -J -O) and one `encplan assess --json`; the host-side test compares them.
source "$(dirname "$0")/../lib.sh"
disk=/dev/vda
key=/tmp/stack-key && head -c 32 /dev/urandom >"$key"
tcrypt_passphrase=/tmp/tcrypt-passphrase && printf 'lane-tcrypt-passphrase' >"$tcrypt_passphrase"
# Tear down exactly what this test made, also when a step fails (later tests reuse the scratch disk).
teardown() {
  for m in lane-tcrypt lane-luks-in-lvm; do cryptsetup close "$m" 2>/dev/null || true; done
  lvm_no_udev vgchange -q -an lanevg 2>/dev/null || true
  lvm_no_udev vgchange -q -an lanevg2 2>/dev/null || true
  for m in lane-lvm-crypt lane-nodiscards lane-discards; do cryptsetup close "$m" 2>/dev/null || true; done
}
trap teardown EXIT
luks_format() { cryptsetup luksFormat -q --type luks2 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 --key-file "$key" "$@"; }

wipefs -qa "$disk"
printf 'label: gpt\n,128M\n,128M\n,192M\n,192M\n,64M\n' | sfdisk -q "$disk"
partx -u "$disk" 2>/dev/null || true
for p in 1 2 3 4 5; do [ -b "$disk$p" ] || { echo "no $disk$p after sfdisk"; exit 1; }; done
# 1, 2: LUKS2 opened with and without --allow-discards (2 with 4096-byte sectors).
luks_format "${disk}1"
luks_format --sector-size 4096 "${disk}2"
cryptsetup open --allow-discards --key-file "$key" "${disk}1" lane-discards
cryptsetup open --key-file "$key" "${disk}2" lane-nodiscards
# 3: LVM inside LUKS2 (crypt opened with --allow-discards, a linear LV on top).
luks_format "${disk}3"
cryptsetup open --allow-discards --key-file "$key" "${disk}3" lane-lvm-crypt
lvm_no_udev pvcreate -q /dev/mapper/lane-lvm-crypt
lvm_no_udev vgcreate -q lanevg /dev/mapper/lane-lvm-crypt
lvm_no_udev lvcreate -q -y -L 64M -n lanelv lanevg
# 4: LUKS2 inside LVM (a linear LV on the partition, the crypt opened without --allow-discards on top).
lvm_no_udev pvcreate -q "${disk}4"
lvm_no_udev vgcreate -q lanevg2 "${disk}4"
lvm_no_udev lvcreate -q -y -L 96M -n cryptlv lanevg2
[ -b /dev/lanevg/lanelv ] && [ -b /dev/lanevg2/cryptlv ] || { echo 'LV nodes missing'; ls -l /dev/mapper; exit 1; }
luks_format /dev/lanevg2/cryptlv
cryptsetup open --key-file "$key" /dev/lanevg2/cryptlv lane-luks-in-lvm
# 5: a TrueCrypt-format volume. tcplay (1.1) reads its passphrases from /dev/tty only (stdin after the first
# read is closed), so expect(1) answers its prompts on a pty; --weak-keys takes key material from urandom
# (the guest has little entropy).
expect -c "
  set timeout 300
  spawn tcplay --create --device=${disk}5 --cipher=AES-256-XTS --pbkdf-prf=SHA512 --insecure-erase --weak-keys
  expect \"Passphrase:\"; send \"[exec cat $tcrypt_passphrase]\r\"
  expect \"Repeat passphrase:\"; send \"[exec cat $tcrypt_passphrase]\r\"
  expect \"(y/n)\"; send \"y\r\"
  expect eof
  lassign [wait] pid spawn_id os_error status; exit \$status
" >"$OUT/tcplay-create.txt" 2>&1 || { cat "$OUT/tcplay-create.txt"; exit 1; }
# --hash sha512 checks only that PBKDF2 variant instead of all of them, "This could speed up unlocking"
# (cryptsetup-open(8), TCRYPT): 44 s -> a few under TCG.
cryptsetup open --type tcrypt --hash sha512 --allow-discards "${disk}5" lane-tcrypt <"$tcrypt_passphrase"
cryptsetup tcryptDump --hash sha512 "${disk}5" <"$tcrypt_passphrase" >"$OUT/tcryptdump-vda5.txt" 2>&1

for dev in "${disk}1" "${disk}2" "${disk}3" /dev/lanevg2/cryptlv; do
  cryptsetup luksDump --dump-json-metadata "$dev" >"$OUT/luksdump-$(basename "$dev").json"
done
cryptsetup luksDump "${disk}1" >"$OUT/luksdump-vda1.txt"
dmsetup table >"$OUT/dmsetup-table.txt"
dmsetup info -c -o name,uuid,blkdevname --noheadings --separator ' ' >"$OUT/dmsetup-info.txt"
lsblk --json --bytes -O -- "$disk" >"$OUT/lsblk-json-bytes-O.json"   # the argv encplan uses
# What the kernel says: "KERNEL-NAME DM-NAME DISCARD-MAX-BYTES" for the disk and every dm device.
for dev in /sys/block/*; do
  name="${dev##*/}"; case "$name" in vda | dm-*) ;; *) continue ;; esac
  echo "$name $(cat "$dev/dm/name" 2>/dev/null || echo -) $(cat "$dev/queue/discard_max_bytes")"
done >"$OUT/sysfs-discard-max-bytes.txt"
cat "$OUT/sysfs-discard-max-bytes.txt" "$OUT/dmsetup-table.txt"
encplan assess "$disk" --json >"$OUT/assess.json" || echo "assess exit status $?"
grep -q '"discardPassthrough"' "$OUT/assess.json"
teardown
dmsetup ls | grep -q 'No devices found'
