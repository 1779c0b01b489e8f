# SIGINT during a LUKS2 run (once its dm-crypt mapping exists): the run stops and leaves nothing behind.
source "$(dirname "$0")/../lib.sh"
dir="$(bench_directory bench-sigint)"
node "$ENCPLAN_CLI" benchmark io "$dir" --backend luks2 --quick --json >"$OUT/sigint.json" 2>"$OUT/sigint.stderr" &
pid=$!
wait_for_mapping 240 || { echo 'no mapping appeared'; kill -KILL $pid; exit 1; }
dmsetup table >"$OUT/dmsetup-table-during-run.txt"
kill -INT $pid
status=0; wait $pid || status=$?
echo "exit status after SIGINT: $status"
[ "$status" -ne 0 ]
assert_nothing_left "$dir"
umount /mnt/bench
