# shellcheck shell=bash
# Shared helpers for the bats files: paths, BPF object handling, JSON checks.

TOP=$(cd "$(dirname "${BATS_TEST_FILENAME}")/.." && pwd)
BUILD=$TOP/build
PROGS=$BUILD/tests
BIN=$PROGS/bin
export PATH=$BUILD/install/bin:$BIN:$PATH
# Where the booted kernel's modules are installed (make stress boots another
# kernel of the same release, with its own modules).
MODROOT=${TM_MODROOT:-$BUILD/install}

# What differs by architecture (bash's $HOSTTYPE, the guest's: x86_64 or
# aarch64; no uname to start, which costs a second per test in the TCG
# guest). SYS: the system call entry functions' prefix (__x64_sys_read,
# __arm64_sys_read). KREFUSED: two functions only the kernel refuses
# (bpftool's own checks take them), the glob that matches just them, the
# error it gives and what bpftool says of the first when named: on x86_64
# static names kallsyms gives to an untraced namesake (ENOENT); on arm64
# functions of 9 arguments, more than 6.12's trampolines there take
# (ENOTSUPP).
# shellcheck disable=SC2034 # the bats files read them
case $HOSTTYPE in
aarch64)
	SYS=__arm64_sys_
	KREFUSED_GLOB='__?r*_mm_migrate_pages'
	KREFUSED=(__probestub_mm_migrate_pages __traceiter_mm_migrate_pages)
	KREFUSED_ERR="Not supported by this kernel's BPF trampolines (ENOTSUPP)"
	KREFUSED_MSG="the kernel can't build a BPF trampoline for function '${KREFUSED[0]}' ($KREFUSED_ERR)"
	;;
*)
	SYS=__x64_sys_
	KREFUSED_GLOB='mem32_serial_*'
	KREFUSED=(mem32_serial_in mem32_serial_out)
	KREFUSED_ERR='No such file or directory'
	KREFUSED_MSG="function '${KREFUSED[0]}' is not traceable: the kernel finds no ftrace location at its address"
	;;
esac

# x86_64_only WHY: skip this test on another architecture (make
# test-arm64), saying why it can't run there. Skips count apart from passes.
x86_64_only() {
	[[ $HOSTTYPE == x86_64 ]] || skip "x86_64 only: $*"
}

# Every test runs under a time limit: bats stops a test still running after
# BATS_TEST_TIMEOUT seconds, reports it "not ok ... # timeout after Ns" and
# goes on with the next one. Limits are generous: machines of one kind
# differ about 3x in speed, and a busy host halves a guest's share again.
# The default, 600 s, is 20 times what a test of up to 30 s on a fast
# machine needs there; a test that takes longer carries its own
# limit, about 20 times its time, in a bats tag above it,
#     # bats test_tags=timeout:SECONDS
# with a comment saying what it does and what it took. Bats 1.8 has no such
# tag: it is read here from the test file as bats preprocessed it, whose
# last lines list each test with its tags. The limit's watchdog is a
# background job of the test's shell: a test waits for its own jobs by
# their pids (a bare `wait` would wait for the watchdog too).
tm_test_timeout() {
	local lines i re tag tags
	# shellcheck disable=SC2034 # bats reads it
	BATS_TEST_TIMEOUT=600
	[[ -n ${BATS_TEST_NAME:-} && -r ${BATS_TEST_SOURCE:-} ]] || return 0
	re="^bats_test_function --tags '([^']*)' $BATS_TEST_NAME\$"
	mapfile -t lines <"$BATS_TEST_SOURCE"
	for ((i = ${#lines[@]} - 1; i >= 0; i--)); do
		[[ ${lines[i]} == bats_test_function\ * ]] || break
		[[ ${lines[i]} =~ $re ]] || continue
		IFS=, read -ra tags <<<"${BASH_REMATCH[1]}"
		for tag in "${tags[@]}"; do
			# shellcheck disable=SC2034 # bats reads it
			[[ $tag != timeout:* ]] || BATS_TEST_TIMEOUT=${tag#timeout:}
		done
	done
}
tm_test_timeout

# What bats 1.8 kills when a test's time is up: only the test's children,
# so a command stuck below one (in `run`, in a pipeline) would keep the
# test waiting for ever. Every process below the test, instead (bats calls
# this from its watchdog, a child of the test, which is left out).
bats_kill_childprocesses_of() {
	local pid ppid p c todo=("$1") doomed=()
	local -A kids=()
	while read -r pid ppid; do
		kids[$ppid]+=" $pid"
	done < <(ps -e -o pid=,ppid=)
	while ((${#todo[@]})); do
		p=${todo[-1]}
		unset 'todo[-1]'
		for c in ${kids[$p]:-}; do
			((c != BASHPID)) || continue
			doomed+=("$c")
			todo+=("$c")
		done
	done
	((${#doomed[@]} == 0)) || kill -KILL "${doomed[@]}" 2>/dev/null || true
}

# bpftool ARGS...: bpftool itself, and for a `link` command with -j or -p,
# its output saved for json_check (the output is printed as it is, the
# exit status kept).
bpftool() {
	local a json=false out rc=0 f
	for a; do
		case $a in -j | -p | --json | --pretty | -[a-z]*[jp]*) json=true ;; esac
	done
	if ! $json || [[ " $* " != *" link "* ]]; then
		command bpftool "$@"
		return
	fi
	out=$(command bpftool "$@") || rc=$?
	[[ -z $out ]] || printf '%s\n' "$out"
	f=${BATS_FILE_TMPDIR:-/tmp}/bpftool-json/${BATS_TEST_NUMBER:-0}
	mkdir -p "$f"
	[[ -e $f/test ]] || printf '%s\n' "${BATS_TEST_DESCRIPTION:-setup_file}" >"$f/test"
	f=$f/${EPOCHREALTIME/./}.$BASHPID
	printf '%s\n' "$*" >"$f.cmd"
	printf '%s\n' "$out" >"$f.json"
	return "$rc"
}

# json_check: every `bpftool -j link ...` output of this test file is one
# JSON document, valid against its schema in docs/schema (tests/json-check:
# one python3 for the whole file, failures named by test); teardown_file
# calls it.
json_check() {
	local d=${BATS_FILE_TMPDIR:-}/bpftool-json
	[[ -d $d ]] || return 0
	/usr/bin/python3 "$TOP/tests/json-check" "$d" >&2 || return 1
	rm -r "$d"
}

# Unless the file has its own (which does the same): the file's bpffs
# folder removed, its JSON outputs checked.
teardown_file() {
	rm -rf "$(pin_dir)"
	json_check
}

# eventually CMD...: run CMD until it succeeds, every 0.2 s. What the kernel
# finishes later (a link released by a work item, a module reference
# dropped with it) takes longer on a slower or busier machine, so no
# deadline of its own: a condition that never comes fails at the test's
# time limit, and bats names this line.
eventually() {
	until "$@"; do sleep 0.2; done
}

# link_gone ID: true when no link has id ID (any more).
link_gone() {
	! bpftool link show id "$1" >/dev/null 2>&1
}

# unpin PATH...: for each link pinned at a PATH, detach it, remove the pin
# and wait until the link is gone. Removing the pin alone releases the
# link later, from a work item: a check right after the rm, or the next
# test's attach of the same program ("already attached"), would race it.
# A PATH that is not a pinned link is left alone.
unpin() {
	local p id
	for p; do
		[[ -f $p ]] || continue
		id=$(bpftool -j link show pinned "$p" 2>/dev/null | jq -e .id) || continue
		# an fentry link has no BPF_LINK_DETACH (EOPNOTSUPP): it goes at the rm
		bpftool link detach pinned "$p" 2>/dev/null || true
		rm "$p"
		eventually link_gone "$id"
	done
}

# A bpffs folder of this test file's own, removed by teardown_file.
pin_dir() {
	local d=/sys/fs/bpf/tests/${BATS_TEST_FILENAME##*/}
	d=${d%.bats}
	mkdir -p "$d"
	echo "$d"
}

# hold_fd PATH: start a python3 that opens the BPF object pinned at PATH
# (BPF_OBJ_GET) and sleeps holding the fd; prints its pid once it holds it.
# A process of its own, so that bpftool lists it among the object's pids.
hold_fd() {
	local out=$BATS_TEST_TMPDIR/hold_fd.$RANDOM
	/usr/bin/python3 -c '
import ctypes, os, signal, sys
nr = {"x86_64": 321, "aarch64": 280}[os.uname().machine]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
path = ctypes.create_string_buffer(sys.argv[1].encode())
attr = (ctypes.c_uint64 * 2)(ctypes.addressof(path), 0)  # pathname, bpf_fd, file_flags
fd = libc.syscall(ctypes.c_long(nr), ctypes.c_long(7), attr, ctypes.c_long(16))  # BPF_OBJ_GET
if fd < 0:
    sys.exit("BPF_OBJ_GET " + sys.argv[1] + ": " + os.strerror(ctypes.get_errno()))
with open(sys.argv[2], "w") as f:
    print(fd, file=f)
signal.pause()
' "$1" "$out" >/dev/null 3>&- &
	local pid=$!
	until [[ -s $out ]]; do
		kill -0 "$pid" 2>/dev/null || { wait "$pid" || true; return 1; }
		sleep 0.1
	done
	echo "$pid"
}

# The value of a global variable VAR of a .bss map pinned at PATH.
bss_var() {
	local path=$1 var=$2
	bpftool -j map dump pinned "$path" |
		jq -e --arg v "$var" '.[0].formatted.value[".bss"][] | select(has($v)) | .[$v]'
}

# The only pinned map in DIR whose name ends in SUFFIX (libbpf pins .bss as
# OBJNAME_bss).
pinned_map() {
	local dir=$1 suffix=$2 f
	for f in "$dir"/*"$suffix"; do
		[[ -e $f ]] || { echo "no map *$suffix pinned in $dir" >&2; return 1; }
		echo "$f"
		return 0
	done
}

# The id of the BPF object (link or program) pinned at PATH.
pinned_id() {
	bpftool -j "$1" show pinned "$2" | jq -e .id
}

# The vmlinux BTF id of function NAME.
btf_id() {
	bpftool btf dump file /sys/kernel/btf/vmlinux | sed -n "s/^\[\([0-9]*\)\] FUNC '$1' .*/\1/p"
}

# The BTF object id of vmlinux's BTF.
vmlinux_btf_obj_id() {
	bpftool -j btf show | jq -e '.[] | select(.name == "vmlinux") | .id'
}

# The ftrace location (hex) of function NAME: what a tracing_multi link's
# link info gives as its address, as upstream's does. The kallsyms address,
# or a few bytes after it (x86 with IBT, arm64).
ftrace_addr() {
	awk -v f="$1" '$2 == f { print $1; exit }' /sys/kernel/tracing/available_filter_functions_addrs
}

# What link info lists for the link `tracing_multi pin PATH` makes, one "ID
# ADDR COOKIE NAME" line per function in BTF id order: vmlinux BTF's ids,
# the functions' ftrace locations (hex), the cookies 7, 8 and 9 it gives
# bpf_fentry_test1, 2 and 3; into $BATS_FILE_TMPDIR/want. For setup_file:
# each btf_id dumps all of BTF.
pin_link_want() {
	local f cookie=7
	for f in bpf_fentry_test1 bpf_fentry_test2 bpf_fentry_test3; do
		echo "$(btf_id "$f") $(ftrace_addr "$f") $cookie $f"
		cookie=$((cookie + 1))
	done | sort -n >"$BATS_FILE_TMPDIR/want"
}

# Load bpf_testmod from the modules built with the kernel (the host's
# /lib/modules is not the guest's).
testmod_load() {
	grep -q '^bpf_testmod ' /proc/modules || modprobe -d "$MODROOT" bpf_testmod
}

# Load tests/progs/link_attach.bpf.c (the programs bpftool link attach
# tests use) with its programs pinned under DIR/progs and maps under
# DIR/maps.
link_attach_load() {
	bpftool prog loadall "$PROGS/link_attach.bpf.o" "$1/progs" pinmaps "$1/maps"
}
