# The in-place path: `cryptsetup reencrypt --encrypt` on an ext4 filesystem holding known files (the
# filesystem is first shrunk to make room for the LUKS2 header, cryptsetup(8) "reencrypt" --reduce-device-size),
# then the files read back intact through the new mapping. Captures every command's output.
disk=/dev/vda
key=/tmp/reencrypt-key && head -c 32 /dev/urandom >"$key"
wipefs -qa "$disk"
printf 'label: gpt\n,300M\n' | sfdisk -q "$disk"; partx -u "$disk" 2>/dev/null || true; sleep 1
part="${disk}1"
mkfs.ext4 -q "$part"
mkdir -p /mnt/known && mount "$part" /mnt/known
for i in 1 2 3 4 5; do head -c $((i * 1048576)) /dev/urandom >"/mnt/known/file-$i"; done
(cd /mnt/known && sha256sum file-*) >/tmp/known.sha256
umount /mnt/known
e2fsck -fy "$part" >"$OUT/e2fsck-before.txt" 2>&1 || true
# 32 MiB for the LUKS2 header, twice the default 16 MiB metadata as cryptsetup(8) recommends for reencrypt.
size_kib=$(( $(blockdev --getsize64 "$part") / 1024 - 32 * 1024 ))
resize2fs "$part" "${size_kib}K" >"$OUT/resize2fs.txt" 2>&1
cryptsetup reencrypt --encrypt --type luks2 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 --reduce-device-size 32M \
  --key-file "$key" -q "$part" >"$OUT/reencrypt-encrypt.txt" 2>&1
cryptsetup isLuks "$part"
cryptsetup luksDump --dump-json-metadata "$part" >"$OUT/luksdump-reencrypted.json"
cryptsetup open --key-file "$key" "$part" lane-reencrypted
mount -o ro /dev/mapper/lane-reencrypted /mnt/known
(cd /mnt/known && sha256sum -c /tmp/known.sha256) | tee "$OUT/sha256-check.txt"
umount /mnt/known
cryptsetup close lane-reencrypted
