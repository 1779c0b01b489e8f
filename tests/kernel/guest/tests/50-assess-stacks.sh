# Real stacks on the scratch disk for `encplan assess`: LUKS2 on a partition opened with and without
# --allow-discards, LVM on LUKS2, and a TrueCrypt-format volume made by tcplay and opened with
# `cryptsetup open --type tcrypt`. Captures what the kernel says (sysfs discard_max_bytes of every layer,
# dmsetup table, luksDump JSON, lsblk -J -O) and one `encplan assess --json`; the host-side test compares them.
source "$(dirname "$0")/../lib.sh"
disk=/dev/vda
key=/tmp/stack-key && head -c 32 /dev/urandom >"$key"
# Tear down exactly what this test made, also when a step fails (later tests reuse the scratch disk).
teardown() {
  lvm vgchange -q -an lanevg 2>/dev/null || true
  for m in lane-tcrypt lane-lvm-crypt lane-nodiscards lane-discards; do cryptsetup close "$m" 2>/dev/null || true; done
}
trap teardown EXIT
printf 'label: gpt\n,200M\n,200M\n,200M\n,200M\n' | sfdisk -q "$disk"
partx -u "$disk" 2>/dev/null || true; sleep 1
cryptsetup luksFormat -q --type luks2 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 --key-file "$key" "${disk}1"
cryptsetup luksFormat -q --type luks2 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 --sector-size 4096 --key-file "$key" "${disk}2"
cryptsetup luksFormat -q --type luks2 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 --key-file "$key" "${disk}3"
cryptsetup open --allow-discards --key-file "$key" "${disk}1" lane-discards
cryptsetup open --key-file "$key" "${disk}2" lane-nodiscards
cryptsetup open --allow-discards --key-file "$key" "${disk}3" lane-lvm-crypt
lvm pvcreate -q /dev/mapper/lane-lvm-crypt
lvm vgcreate -q lanevg /dev/mapper/lane-lvm-crypt
# No udev in the guest: lvcreate cannot find the new LV node to wipe, so zeroing and signature wiping are off.
lvm lvcreate -q -y -Z n -W n -L 64M -n lanelv lanevg
lvm vgchange -q -ay lanevg && lvm vgmknodes lanevg
# tcplay reads the passphrase from the terminal only; a pty from script(1) feeds it. The key file is a
# random 32-byte file used as a TrueCrypt keyfile, with an empty passphrase.
tcplay --create --device="${disk}4" --cipher=AES-256-XTS --pbkdf-prf=SHA512 --keyfile="$key" --insecure-erase <<<"$(printf '\n\ny\n')" \
  || script -qec "printf '\n\ny\n' | tcplay --create --device=${disk}4 --cipher=AES-256-XTS --pbkdf-prf=SHA512 --keyfile=$key --insecure-erase" /dev/null
printf '' | cryptsetup open --type tcrypt --key-file "$key" "${disk}4" lane-tcrypt
for p in 1 2 3; do cryptsetup luksDump --dump-json-metadata "${disk}$p" >"$OUT/luksdump-vda$p.json"; done
cryptsetup luksDump "${disk}1" >"$OUT/luksdump-vda1.txt"
cryptsetup tcryptDump --key-file "$key" "${disk}4" </dev/null >"$OUT/tcryptdump-vda4.txt" 2>&1 || true
dmsetup table >"$OUT/dmsetup-table.txt"
lsblk -J -O "$disk" >"$OUT/lsblk-J-O.json"
for dev in /sys/block/*; do
  name="${dev##*/}"; case "$name" in vda|dm-*) ;; *) continue ;; esac
  echo "$name $(cat "$dev/dm/name" 2>/dev/null || echo -) $(cat "$dev/queue/discard_max_bytes")"
done >"$OUT/sysfs-discard-max-bytes.txt"
cat "$OUT/sysfs-discard-max-bytes.txt"
encplan assess "$disk" --json >"$OUT/assess.json" || echo "assess exit status $?"
teardown
dmsetup ls | grep -q 'No devices found'
