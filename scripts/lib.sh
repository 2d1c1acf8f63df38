# shellcheck shell=bash disable=SC2034
# Shared helpers for the scripts in this folder: logging with stage timing,
# fatal errors, and the project's fixed paths.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
LINUX=$BUILD/linux

# The patch queues, in the order they are applied onto the Debian tree.
QUEUES=(kernel bpftool docs bash-completion selftests)

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# stage NAME CMD...: run CMD, then say how long the stage took.
stage() {
	local name=$1 start=$SECONDS
	shift
	log "$name ..."
	"$@"
	log "$name done in $((SECONDS - start)) s"
}

# queue_of FILE...: the queue a commit touching FILEs belongs to, by path.
# A commit may only touch one queue's files.
queue_of() {
	local f q queue=
	for f in "$@"; do
		case $f in
		tools/bpf/bpftool/Documentation/*) q=docs ;;
		tools/bpf/bpftool/bash-completion/*) q=bash-completion ;;
		tools/bpf/bpftool/* | tools/lib/bpf/*) q=bpftool ;;
		tools/testing/selftests/*) q=selftests ;;
		*) q=kernel ;;
		esac
		if [[ -n $queue && $q != "$queue" ]]; then
			printf 'mixed:%s+%s\n' "$queue" "$q"
			return
		fi
		queue=$q
	done
	printf '%s\n' "$queue"
}
