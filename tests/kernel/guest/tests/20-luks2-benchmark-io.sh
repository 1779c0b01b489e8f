# `encplan benchmark io --backend luks2` on the real kernel: completes, then leaves nothing behind.
# Speeds are emulation speeds (QEMU TCG): the JSON is kept only as an emulated capture.
source "$(dirname "$0")/../lib.sh"
dir="$(bench_directory bench-luks2)"
encplan benchmark io "$dir" --backend luks2 --quick --json >"$OUT/benchmark-io-luks2.emulated.json"
grep -q '"backend": *"luks2"' "$OUT/benchmark-io-luks2.emulated.json"
assert_nothing_left "$dir"
umount /mnt/bench
