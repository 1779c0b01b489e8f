# Shared helpers of the guest tests (sourced; not a test itself).
# encplan as released (the bundle build-kernel-image.sh packed; see run-guest-tests.sh).
encplan() { node "$ENCPLAN_CLI" "$@"; }
# Fails unless no dm mapping, no loop device, no encplan mount and no encplan-bench-* entry in DIR is left.
assert_nothing_left() {
  local dir="$1"
  dmsetup ls | tee "$OUT/dmsetup-ls-after.txt"
  grep -q 'No devices found' "$OUT/dmsetup-ls-after.txt" || { echo "LEFT: dm mappings"; return 1; }
  [ -z "$(losetup -a)" ] || { echo "LEFT: loop devices: $(losetup -a)"; return 1; }
  ! grep -q 'encplan' /proc/mounts || { echo "LEFT: mounts: $(grep encplan /proc/mounts)"; return 1; }
  [ -z "$(ls -A "$dir")" ] || { echo "LEFT: files in $dir: $(ls -A "$dir")"; return 1; }
  ! keyctl show @u 2>/dev/null | grep -qi 'encplan\|cryptsetup' || { echo 'LEFT: keys'; return 1; }
}
# Waits (up to $2 s) until a dm-crypt mapping exists.
wait_for_mapping() {
  local i
  for ((i = 0; i < $1; i++)); do
    dmsetup ls --target crypt 2>/dev/null | grep -q encplan && return 0
    sleep 1
  done
  return 1
}
# A fresh ext4 on the scratch disk mounted at /mnt/bench (tmpfs has no O_DIRECT, which the loop devices of
# encplan's benchmark containers use); prints the directory to benchmark in.
bench_directory() {
  wipefs -qa /dev/vda && mkfs.ext4 -q -F /dev/vda && mkdir -p /mnt/bench && mount /dev/vda /mnt/bench
  mkdir -p "/mnt/bench/$1" && echo "/mnt/bench/$1"
}
# lvm without udev (the guest runs none): list devices by scanning /dev, create the /dev nodes itself and
# never wait for udev (lvm.conf(5) devices/obtain_device_list_from_udev, activation/udev_sync, udev_rules).
lvm_no_udev() {
  lvm "$@" --config 'devices { obtain_device_list_from_udev = 0 external_device_info_source = "none" } activation { udev_sync = 0 udev_rules = 0 verify_udev_operations = 1 }'
}
