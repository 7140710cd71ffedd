#!/bin/sh
# Quick start, step 1: install what is missing (Debian 12, as root), build,
# and trace a demo command, printing its events.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/tools/install-deps.sh"
cmake -S "$top" -B "$top/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPTBPF_WERROR=ON >/dev/null
cmake --build "$top/build" -j"$(nproc)" >/dev/null
"$top/build/ptbpf" info
if "$top/build/ptbpf" --help | grep -q '^  record'; then
	echo
	echo "ptbpf record -- ls /"
	exec "$top/build/ptbpf" record -- ls /
fi
