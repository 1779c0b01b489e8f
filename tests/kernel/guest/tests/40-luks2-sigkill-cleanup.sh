# SIGKILL during a LUKS2 run leaves the mapping behind; `encplan cleanup` then removes everything.
source "$(dirname "$0")/../lib.sh"
dir="$(bench_directory bench-sigkill)"
node "$ENCPLAN_CLI" benchmark io "$dir" --backend luks2 --quick --json >/dev/null 2>&1 &
pid=$!
wait_for_mapping 240 || { echo 'no mapping appeared'; kill -KILL $pid; exit 1; }
kill -KILL $pid; wait $pid || true
pkill -KILL -x fio || true   # fio orphans of the killed run; the guest runs nothing else
dmsetup ls --target crypt | grep -q encplan   # the kill really left the mapping
encplan cleanup --json >"$OUT/cleanup.json"
assert_nothing_left "$dir"
umount /mnt/bench
