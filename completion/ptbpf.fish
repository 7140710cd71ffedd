# fish completion for ptbpf(1)
# SPDX-License-Identifier: LGPL-2.1-or-later
# Subcommands; each one's options, read from its --help; -e's event names
# (ptbpf list, sys_enter_NAME as NAME), groups and strace's %classes, in a
# comma-separated list; -p's pids; convert's --to; show's and convert's files.

set -l __ptbpf_cmds record show convert export list info

function __ptbpf_options --argument-names sub
    # -X, --long: the option names of the lines of SUB --help
    ptbpf $sub --help 2>/dev/null | string match -r '^ +-.*' | string trim -l | string replace -r '   .*' '' |
        string split ', ' | string replace -r '[\[= ].*' '' | string match -r '^--?[A-Za-z][A-Za-z-]*$'
end

function __ptbpf_events
    set -l tok (commandline -ct | string replace -r '^(-e|--events=)' '')
    set -l prefix (string replace -r '[^,]*$' '' -- $tok)
    set -l names (ptbpf list 2>/dev/null | string replace -r '^sys_(enter|exit)_' '' | sort -u)
    set -a names syscalls proc signals sched user posix all
    set -a names %desc %file %memory %process %creds %signal %ipc %net %network %stat %lstat \
        %fstat %%stat %statfs %fstatfs %%statfs %pure %clock
    printf '%s\n' $prefix$names
end

complete -c ptbpf -f
complete -c ptbpf -n "not __fish_seen_subcommand_from $__ptbpf_cmds" -a record -d 'trace a command or processes'
complete -c ptbpf -n "not __fish_seen_subcommand_from $__ptbpf_cmds" -a show -d 'print a trace log'
complete -c ptbpf -n "not __fish_seen_subcommand_from $__ptbpf_cmds" -a convert -d 'convert a trace log'
complete -c ptbpf -n "not __fish_seen_subcommand_from $__ptbpf_cmds" -a export -d 'send a trace log to ClickHouse'
complete -c ptbpf -n "not __fish_seen_subcommand_from $__ptbpf_cmds" -a list -d 'list the event types'
complete -c ptbpf -n "not __fish_seen_subcommand_from $__ptbpf_cmds" -a info -d 'what is missing, and the fix'
complete -c ptbpf -n "not __fish_seen_subcommand_from $__ptbpf_cmds" -l help -l usage -l version
for sub in $__ptbpf_cmds
    complete -c ptbpf -n "__fish_seen_subcommand_from $sub; and string match -q -- '-*' (commandline -ct)" \
        -a "(__ptbpf_options $sub)"
end
complete -c ptbpf -n '__fish_seen_subcommand_from record' -s e -l events -x -a '(__ptbpf_events)'
complete -c ptbpf -n '__fish_seen_subcommand_from record' -s p -l pid -x -a '(__fish_complete_pids)'
complete -c ptbpf -n '__fish_seen_subcommand_from record' -l cgroup -x -a '(__fish_complete_directories)'
complete -c ptbpf -n '__fish_seen_subcommand_from record' -s o -l output -l output-text -r -F
complete -c ptbpf -n '__fish_seen_subcommand_from convert' -s T -l to -x -a 'perfetto chrome ctf jsonl'
complete -c ptbpf -n '__fish_seen_subcommand_from convert' -s o -l output -r -F
complete -c ptbpf -n '__fish_seen_subcommand_from show convert export' -F
