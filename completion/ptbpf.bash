# bash completion for ptbpf(1)                             -*- shell-script -*-
# SPDX-License-Identifier: LGPL-2.1-or-later
# Subcommands; each one's options, read from its --help; -e's event names
# (ptbpf list, sys_enter_NAME as NAME), groups and strace's %classes; -p's
# pids, --cgroup's directories, show's and convert's log files; after --,
# the command to trace and its arguments.

_ptbpf_events_of()
{
	local ptbpf=$1 cur=$2 prefix=
	# a comma-separated list: complete its last element
	if [[ $cur == *,* ]]; then
		prefix=${cur%,*},
		cur=${cur##*,}
	fi
	local neg=
	if [[ $cur == '!'* ]]; then
		neg='!'
		cur=${cur#!}
	fi
	local words
	words="$("$ptbpf" list 2>/dev/null | sed 's/^sys_\(enter\|exit\)_//' | sort -u)
syscalls proc signals sched user posix all
%desc %file %memory %process %creds %signal %ipc %net %network %stat %lstat
%fstat %%stat %statfs %fstatfs %%statfs %pure %clock"
	COMPREPLY=($(compgen -P "$prefix$neg" -W "$words" -- "$cur"))
	compopt -o nospace
}

# the options a subcommand's --help lists: -X, --long, --long= (an argument)
_ptbpf_options()
{
	"$1" $2 --help 2>/dev/null | sed -n 's/^  *\(-[^ ].*\)$/\1/p' |
		sed 's/   .*//; s/, /\n/g' | sed 's/\[=.*//; s/=.*/=/; s/ .*//' |
		grep -E '^--?[A-Za-z][A-Za-z-]*=?$'
}

_ptbpf()
{
	local cur prev words cword
	_init_completion -n = || return

	local ptbpf=${words[0]} sub= i
	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		--)
			if [[ $sub == record ]]; then
				_command_offset $((i + 1))
				return
			fi
			;;
		-*) ;;
		*)
			sub=${words[i]}
			break
			;;
		esac
	done
	if [[ -z $sub ]]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W '--help --usage --version' -- "$cur"))
		else
			COMPREPLY=($(compgen -W 'record show convert export list info' -- "$cur"))
		fi
		return
	fi
	# after the subcommand: a -- ends record's options
	for ((i++; i < cword; i++)); do
		if [[ ${words[i]} == -- && $sub == record ]]; then
			_command_offset $((i + 1))
			return
		fi
	done

	local split=false
	_split_longopt && split=true
	case $prev in
	-e | --events)
		_ptbpf_events_of "$ptbpf" "$cur"
		return
		;;
	-p | --pid)
		_pids
		return
		;;
	--cgroup)
		_filedir -d
		return
		;;
	-o | --output | --output-text | -P | --trace-path | --debug-dir)
		_filedir
		return
		;;
	-T | --to)
		if [[ $sub == convert ]]; then
			COMPREPLY=($(compgen -W 'perfetto chrome ctf jsonl' -- "$cur"))
			return
		fi
		;;
	-u | --user)
		COMPREPLY=($(compgen -u -- "$cur"))
		return
		;;
	--format)
		COMPREPLY=($(compgen -W 'strace ptbpf' -- "$cur"))
		return
		;;
	-b | --detach-on)
		COMPREPLY=($(compgen -W 'execve' -- "$cur"))
		return
		;;
	--call-graph)
		COMPREPLY=($(compgen -W 'dwarf fp' -- "$cur"))
		return
		;;
	-E | --env | -s | --string-limit | -a | --columns | --buffer-size | --duration | \
		--log-size | --name | --nice | --stack-depth | --policy | --log-policy | \
		--stack | --status | --signal | -S | --summary-sort-by | -U | --summary-columns)
		return
		;;
	esac
	$split && return

	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W '$(_ptbpf_options "$ptbpf" "$sub") --help' -- "$cur"))
		[[ ${COMPREPLY-} == *= ]] && compopt -o nospace
		return
	fi
	case $sub in
	show | convert | export)
		_filedir
		;;
	record)
		# the command to trace, when -p and --cgroup are not given
		_command_offset $cword
		;;
	esac
} &&
	complete -F _ptbpf ptbpf

# ex: filetype=sh
