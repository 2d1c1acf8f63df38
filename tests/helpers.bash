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

# A bpffs folder of this test file's own, removed by teardown_file.
pin_dir() {
	local d=/sys/fs/bpf/tests/${BATS_TEST_FILENAME##*/}
	d=${d%.bats}
	mkdir -p "$d"
	echo "$d"
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

# The address (hex, as /proc/kallsyms prints it) of the text symbol NAME.
ksym_addr() {
	awk -v f="$1" '$3 == f && ($2 == "t" || $2 == "T") { print $1; exit }' /proc/kallsyms
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
