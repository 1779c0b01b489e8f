# Proves AF_ALG (cryptsetup benchmark's cipher rows) and device-mapper in the guest kernel and captures its
# crypto facts: /proc/crypto and the aes-xts `cryptsetup benchmark` rows (emulated speeds). Every row, as
# committed in fixtures/cryptsetup-benchmark, only with ENCPLAN_KERNEL_CAPTURE=1 (about a minute under TCG).
uname -r >"$OUT/uname-r.txt"
cryptsetup --version >"$OUT/cryptsetup-version.txt"
if [ "${ENCPLAN_KERNEL_CAPTURE:-0}" = 1 ]; then
  cryptsetup benchmark >"$OUT/cryptsetup-benchmark.txt" 2>&1
  # adiantum rows need an explicit cipher (cryptsetup(8) "benchmark")
  cryptsetup benchmark -c xchacha12,aes-adiantum-plain64 -s 256 >"$OUT/cryptsetup-benchmark-adiantum.txt" 2>&1 || true
else
  cryptsetup benchmark -c aes-xts-plain64 -s 512 >"$OUT/cryptsetup-benchmark.txt" 2>&1
fi
cat /proc/crypto >"$OUT/proc-crypto.txt"
grep -q 'xts-aes-aesni' "$OUT/proc-crypto.txt"
grep -Eq 'aes-xts +512b +[0-9.]+ [MG]iB/s' "$OUT/cryptsetup-benchmark.txt"
dmsetup version
