#!/usr/bin/env bash
# Managed hosts for the Ansible fleet test, each a network namespace with its own sshd and loop disk.
#   netns-hosts.sh up STATE_DIR COUNT    creates COUNT hosts; writes STATE_DIR/inventory.ini and STATE_DIR/state
#   netns-hosts.sh down STATE_DIR        removes exactly what `up` recorded in STATE_DIR/state (idempotent)
# Host N (1…COUNT): namespace encplan-fleet-<tag>-N, a veth pair whose outside end is 10.231.N.1/30 and whose
# inside end is 10.231.N.2/30 (no other address is used or touched), sshd listening on 10.231.N.2:22 only,
# a sparse 512 MiB file attached as its loop disk, and its own directories for the install prefix, local facts
# and remote temp (the hosts share this machine's filesystem). Every resource is appended to STATE_DIR/state
# before it is created, so `down` also cleans up after a half-finished `up`.
set -euo pipefail

action=${1:?usage: netns-hosts.sh up|down STATE_DIR [COUNT]}
state_dir=${2:?state directory}
state="$state_dir/state"

down() {
  [[ -f $state ]] || return 0
  # Newest first: sshd before its namespace, loop device before its file.
  tac "$state" | while read -r kind value; do
    case $kind in
      sshd) [[ -f $value ]] && kill "$(cat "$value")" 2>/dev/null || true ;;
      netns)
        # Every process left in the namespace (sshd's per-connection sessions outlive the listener that
        # ansible's persistent connections were made to) goes with it, so nothing is orphaned to init.
        for pid in $(ip netns pids "$value" 2>/dev/null); do kill "$pid" 2>/dev/null || true; done
        ip netns del "$value" 2>/dev/null || true
        ;;
      veth) ip link del "$value" 2>/dev/null || true ;;
      loop) losetup -d "$value" 2>/dev/null || true ;;
      rundir) rmdir "$value" 2>/dev/null || true ;;
    esac
  done
  rm -f "$state"
}

if [[ $action == down ]]; then
  down
  exit 0
fi

count=${3:-3}
mkdir -p "$state_dir"
: >"$state"
tag=$(printf '%04x' $((RANDOM % 65536)))
# sshd needs its privilege-separation directory; create it only when missing and remove it afterwards.
if [[ ! -d /run/sshd ]]; then
  echo "rundir /run/sshd" >>"$state"
  mkdir -m 0755 /run/sshd
fi

ssh-keygen -q -t ed25519 -N '' -C encplan-fleet-test -f "$state_dir/id_ed25519"
{
  echo "[fleet]"
} >"$state_dir/inventory.ini"

for n in $(seq 1 "$count"); do
  ns="encplan-fleet-$tag-$n"
  veth="epf$tag$n"
  host_dir="$state_dir/h$n"
  mkdir -p "$host_dir/facts.d" "$host_dir/tmp"
  echo "netns $ns" >>"$state"
  ip netns add "$ns"
  echo "veth $veth" >>"$state"
  ip link add "$veth" type veth peer name "${veth}p"
  ip link set "${veth}p" netns "$ns"
  ip addr add "10.231.$n.1/30" dev "$veth"
  ip link set "$veth" up
  ip netns exec "$ns" ip addr add "10.231.$n.2/30" dev "${veth}p"
  ip netns exec "$ns" ip link set "${veth}p" up
  ip netns exec "$ns" ip link set lo up

  ssh-keygen -q -t ed25519 -N '' -f "$host_dir/ssh_host_ed25519_key"
  cp "$state_dir/id_ed25519.pub" "$host_dir/authorized_keys"
  cat >"$host_dir/sshd_config" <<EOF
ListenAddress 10.231.$n.2
Port 22
HostKey $host_dir/ssh_host_ed25519_key
PidFile $host_dir/sshd.pid
AuthorizedKeysFile $host_dir/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
Subsystem sftp /usr/lib/openssh/sftp-server
EOF
  echo "sshd $host_dir/sshd.pid" >>"$state"
  ip netns exec "$ns" /usr/sbin/sshd -f "$host_dir/sshd_config" -E "$host_dir/sshd.log"

  truncate -s 512M "$host_dir/disk.img"
  loop=$(losetup --find --show "$host_dir/disk.img")
  echo "loop $loop" >>"$state"

  echo "h$n ansible_host=10.231.$n.2 encplan_test_loop=$loop encplan_prefix=$host_dir/prefix encplan_facts_dir=$host_dir/facts.d encplan_output_dir=$host_dir/out ansible_remote_tmp=$host_dir/tmp" >>"$state_dir/inventory.ini"
done

cat >>"$state_dir/inventory.ini" <<EOF

[fleet:vars]
ansible_user=root
ansible_ssh_private_key_file=$state_dir/id_ed25519
ansible_ssh_common_args='-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR'
ansible_python_interpreter=/usr/bin/python3
EOF

# Wait until every sshd answers (it daemonises before it listens).
for n in $(seq 1 "$count"); do
  for _ in $(seq 1 50); do
    if ssh -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o ConnectTimeout=2 \
      -i "$state_dir/id_ed25519" "root@10.231.$n.2" true 2>/dev/null; then
      break
    fi
    sleep 0.2
  done
done
