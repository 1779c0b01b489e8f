# The plan's `--destructive` script for an empty scratch disk, run through in the guest; a second
# `encplan assess --json` then records the stack it made (the host-side test compares it with the plan).
# /etc is the host's, read-only over 9p, and may have no crypttab to bind over: a writable copy of the whole
# of /etc is bound over it (only inside the guest), so the script can append its /etc/crypttab line.
source "$(dirname "$0")/../lib.sh"
disk=/dev/vda
wipefs -qa "$disk"; blkdiscard -f "$disk" 2>/dev/null || true
mkdir -p /tmp/etc && cp -a /etc/. /tmp/etc/ 2>/dev/null || true
mount --bind /tmp/etc /etc
encplan assess "$disk" --json >"$OUT/assess-before.json" || echo "assess exit status $?"
encplan assess "$disk" --commands --destructive >"$OUT/plan-script.sh"
# The script asks for the passphrase on the terminal; identical lines answer luksFormat's prompts and the
# open that follows (from a file, so that the log's command trace never shows it).
cat >/tmp/plan-passphrase-lines <<'LINES'
lane-passphrase-1
lane-passphrase-1
lane-passphrase-1
LINES
status=0
timeout 600 sh -x "$OUT/plan-script.sh" </tmp/plan-passphrase-lines >"$OUT/plan-script-output.txt" 2>&1 || status=$?
echo "plan script exit status $status" | tee -a "$OUT/plan-script-output.txt"
cp /etc/crypttab "$OUT/crypttab-after.txt" 2>/dev/null || : >"$OUT/crypttab-after.txt"
lsblk -J -O "$disk" >"$OUT/lsblk-J-O-after.json"
dmsetup table >"$OUT/dmsetup-table-after.txt"
encplan assess "$disk" --json >"$OUT/assess-after.json" || echo "assess exit status $?"
# Tear down what the script made.
awk '$1 ~ /^\/dev\/mapper\// { print $2 }' /proc/mounts | xargs -r umount
for m in $(dmsetup ls --target crypt | awk '$1 != "No" { print $1 }'); do cryptsetup close "$m" || true; done
umount /etc || true
exit "$status"
