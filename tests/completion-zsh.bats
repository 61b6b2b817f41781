#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# completion-zsh.bats - completions/_tracemap in a real `zsh -f` (in tmux): Tab on
# subcommands, options, events, clocks, instances, files and COMMAND after `--`.

load helpers

setup() {
	tm_kernel_setup
	tm_need "zsh (make deps installs it)" command -v zsh
	tm_need "tmux (make deps installs it)" command -v tmux
	SOCK=tracemap-zsh-$$
	INST=tmzsh-$$
	mkdir "$TRACEFS/instances/$INST"
	touch "$TM_TMP/zfixture.dat"
	# the tracemap under test first in PATH, the completion first in fpath
	cat >"$TM_TMP/zshrc" <<ZRC
PATH="$(dirname "$TRACEMAP"):\$PATH"
fpath=("$TM_ROOT/completions" \$fpath)
PS1='zsh> '
autoload -Uz compinit && compinit -u -d "$TM_TMP/zcompdump"
zstyle ':completion:*' list-rows-first true
cd "$TM_TMP"
ZRC
	tmux -L "$SOCK" new-session -d -s z -x 200 -y 50 "zsh -f"
	tmux -L "$SOCK" send-keys -t z "source $TM_TMP/zshrc" Enter
	wait_screen '^zsh> ?$'
}

teardown() {
	tmux -L "$SOCK" kill-server 2>/dev/null || true
	rmdir "$TRACEFS/instances/$INST" 2>/dev/null || true
	tm_kernel_teardown
}

screen() {
	tmux -L "$SOCK" capture-pane -p -t z
}

# Whether a line of the screen matches $1.
screen_has() {
	screen | grep -qE -- "$1"
}

# wait_screen REGEX: poll the screen until a line matches (bounded: 30 s).
wait_screen() {
	tm_wait 30 "a line matching '$1' on the screen" screen_has "$1" || { screen >&2; return 1; }
}

# complete TEXT REGEX: type TEXT, press Tab, wait for REGEX on the screen, clear the line.
complete() {
	tmux -L "$SOCK" send-keys -t z -l "$1"
	tmux -L "$SOCK" send-keys -t z Tab
	wait_screen "$2" || return 1
	tmux -L "$SOCK" send-keys -t z C-u
	tmux -L "$SOCK" send-keys -t z C-l
	wait_screen '^zsh> ?$'
}

@test "zsh: subcommands, options, events, clocks, tracers, instances, files, COMMAND after --" {
	complete 'tracemap recor' '^zsh> tracemap record ?$'
	complete 'tracemap reco' 'recover'
	complete 'tracemap recover zfix' '^zsh> tracemap recover zfixture.dat ?$'
	complete 'tracemap help str' '^zsh> tracemap help stream ?$'
	complete 'tracemap record --stackt' '^zsh> tracemap record --stacktrace ?$'
	complete 'tracemap record --upr' '^zsh> tracemap record --uprobe='
	complete 'tracemap stream -e sched:sched_swi' '^zsh> tracemap stream -e sched:sched_switch ?$'
	# several clocks start with "mono": both listed
	complete 'tracemap record -C mono' 'mono_raw'
	complete 'tracemap record -R stackt' '^zsh> tracemap record -R stacktrace ?$'
	complete 'tracemap record -O nooverw' '^zsh> tracemap record -O nooverwrite ?$'
	complete "tracemap list -B tmzsh-" "^zsh> tracemap list -B $INST ?\$"
	complete "tracemap record -B tmzsh-" "^zsh> tracemap record -B $INST ?\$"
	complete 'tracemap record --switch-output si' '^zsh> tracemap record --switch-output signal ?$'
	complete 'tracemap record --trigger sched:sched_proc' '^zsh> tracemap record --trigger sched:sched_process_'
	complete 'tracemap report --compat 3.' '3\.1'
	complete 'tracemap record -p fun' '^zsh> tracemap record -p function'
	complete 'tracemap stream --max-gr' '^zsh> tracemap stream --max-graph-depth='
	complete 'tracemap report zfix' '^zsh> tracemap report zfixture.dat ?$'
	complete 'tracemap record -e sched -- ech' '^zsh> tracemap record -e sched -- echo ?$'
}
