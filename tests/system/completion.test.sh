#!/bin/sh
# The bash completion (completion/ptbpf.bash), run by bash with Debian's
# bash-completion as a shell runs it: subcommands, each one's options (from
# its --help), -e's event names, groups and %classes, convert's --to, -p's
# pids, show's files, and the command after record's --. Then fish's
# (completion/ptbpf.fish), by fish's complete -C.
# usage: sh completion.test.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1
src=$2
skip() {
	if [ "${CI:-}" = true ]; then
		echo "FAIL (CI): $*" >&2
		exit 1
	fi
	echo "SKIP: $*" >&2
	exit 77
}
bc=/usr/share/bash-completion/bash_completion
[ -r "$bc" ] || skip "bash-completion not installed (tools/install-deps.sh)"
command -v bash >/dev/null || skip "no bash"
command -v fish >/dev/null || skip "fish not installed (tools/install-deps.sh)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
touch "$tmp/trace.log" "$tmp/other.txt"
cat >"$tmp/t.bash" <<'EOS'
. "$BC"
. "$SRC/completion/ptbpf.bash"
PATH=$BUILD:$PATH
fails=0
# comp LINE EXPECTED...: completing LINE (the cursor at its end) offers
# every EXPECTED word
comp() {
	local line=$1
	shift
	COMP_LINE=$line
	COMP_POINT=${#line}
	read -r -a COMP_WORDS <<<"$line"
	[[ $line == *' ' ]] && COMP_WORDS+=('')
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_ptbpf ptbpf "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}" 2>/dev/null
	local w
	for w in "$@"; do
		if ! printf '%s\n' "${COMPREPLY[@]}" | grep -qx -- "$w"; then
			echo "FAIL: '$line' does not offer '$w': ${COMPREPLY[*]:0:20}"
			fails=$((fails + 1))
		fi
	done
}
comp "ptbpf " record show convert list info
comp "ptbpf re" record
comp "ptbpf --v" --version
comp "ptbpf record --fo" --follow-forks --format=
comp "ptbpf record -" -f -e -p -o
comp "ptbpf show --js" --json
comp "ptbpf convert --to " perfetto chrome ctf jsonl
comp "ptbpf record -e open" openat open
comp "ptbpf record -e openat,clo" openat,close
comp "ptbpf record -e %fi" %file
comp "ptbpf record -e proc_" proc_fork proc_exec
comp "ptbpf record -e sch" sched
comp "ptbpf record -p $$" $$
cd "$TMPD"
comp "ptbpf show tr" trace.log
comp "ptbpf convert -o oth" other.txt
comp "ptbpf record -f -- ech" echo
comp "ptbpf record -- ls --al" --all
exit $fails
EOS
BC=$bc SRC=$src BUILD=$(cd "$build" && pwd) TMPD=$tmp bash "$tmp/t.bash"
echo "ok: bash completion"

# fish: fcomp LINE EXPECTED...: complete -C LINE offers every EXPECTED word
build=$(cd "$build" && pwd)
src=$(cd "$src" && pwd)
cd "$tmp"
fails=0
fcomp() {
	PATH=$build:$PATH fish -c "source '$src/completion/ptbpf.fish'; complete -C '$1'" \
		>"$tmp/fish.raw" 2>&1 || true
	cut -f 1 "$tmp/fish.raw" >"$tmp/fish.out"
	line=$1
	shift
	for w in "$@"; do
		grep -qx -- "$w" "$tmp/fish.out" ||
			{ echo "FAIL: fish: '$line' does not offer '$w': $(head -n 20 "$tmp/fish.out" | tr '\n' ' ')"; fails=$((fails + 1)); }
	done
}
fcomp "ptbpf " record show convert list info
fcomp "ptbpf record --fo" --follow-forks --format
fcomp "ptbpf record -" -f -e -p -o
fcomp "ptbpf show --js" --json
fcomp "ptbpf convert --to " perfetto chrome ctf jsonl
fcomp "ptbpf record -e open" openat open
fcomp "ptbpf record -e openat,clo" openat,close
fcomp "ptbpf record -e %fi" %file
fcomp "ptbpf record -e sch" sched
fcomp "ptbpf record -p $$" $$
fcomp "ptbpf show tr" trace.log
[ $fails = 0 ] || exit 1
echo "ok: fish completion"
