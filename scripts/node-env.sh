# Sourced by the scripts: puts the project's Node 22 (if setup.sh installed one) first on PATH.
_encplan_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ -x "$_encplan_root/.tools/node/bin/node" ]]; then
  export PATH="$_encplan_root/.tools/node/bin:$PATH"
fi
unset _encplan_root
