# Captures the guest kernel's crypto facts for fixtures/: every `cryptsetup benchmark` row (emulated speeds),
# /proc/crypto, and proves AF_ALG and device-mapper are present.
uname -r >"$OUT/uname-r.txt"
cryptsetup --version >"$OUT/cryptsetup-version.txt"
cryptsetup benchmark >"$OUT/cryptsetup-benchmark.txt" 2>&1
# adiantum rows need an explicit cipher (cryptsetup(8) "benchmark")
cryptsetup benchmark -c xchacha12,aes-adiantum-plain64 -s 256 >"$OUT/cryptsetup-benchmark-adiantum.txt" 2>&1 || true
cat /proc/crypto >"$OUT/proc-crypto.txt"
grep -q 'xts-aes-aesni' "$OUT/proc-crypto.txt"
grep -q 'aes-xts' "$OUT/cryptsetup-benchmark.txt"
dmsetup version
