#!/usr/bin/env bash
# scripts/tools.sh: userspace from the patched tree, into build/install:
#   bin/bpftool (bundled libbpf), lib/libbpf.a, lib/libbpf.so*, include/bpf/*.h,
#   share/man/man8/bpftool*.8, share/bash-completion/completions/bpftool,
# and build/vmlinux.h from the built kernel's BTF.
# scripts/tools.sh arm64: the same for the arm64 guest, cross-compiled, in
# build/arm64; the bootstrap bpftool this build makes for the host (in
# build/arm64/tools/bpftool/bootstrap/) makes its vmlinux.h and the test
# programs' skeletons.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

case ${1:-} in
'') ;;
arm64) BUILD=$ARM64_BUILD ;;
*) die "usage: tools.sh [arm64]" ;;
esac
TTARGET=()
tools_target "${1:-}"
inst=$BUILD/install
obj=$BUILD/tools
host_bpftool=$inst/bin/bpftool
((${#TTARGET[@]} == 0)) || host_bpftool=$obj/bpftool/bootstrap/bpftool
# Objects built from other commits of the userspace sources are dropped:
# bpftool's dependency files name headers its build copies by relative
# path, and after a rebase of the libbpf patches make stops on them ("No
# rule to make target .../libbpf_internal.h"); so are objects built by
# other versions of this script or its settings in lib.sh (make sees no
# changed settings).
src_key=$(git -C "$LINUX" rev-parse HEAD:tools/lib/bpf HEAD:tools/bpf/bpftool HEAD:tools/include
	{ cat "${BASH_SOURCE[0]}"; declare -f tmake; declare -p BPFTOOL_FEATURES; } | sha1sum)
if [[ $(cat "$obj/sources" 2>/dev/null) != "$src_key" ]]; then
	rm -rf "$obj"
	mkdir -p "$obj"
	echo "$src_key" >"$obj/sources"
fi
mkdir -p "$obj/bpftool" "$obj/libbpf" "$obj/bpftool-doc" "$inst/bin"

build_bpftool() {
	# Bpftool feature detection reports on stdout; keep the build quiet.
	tmake -C "$LINUX/tools/bpf/bpftool" OUTPUT="$obj/bpftool/" "${BPFTOOL_FEATURES[@]}" "${TTARGET[@]}" \
		>"$obj/bpftool.log" 2>&1 ||
		{ cat "$obj/bpftool.log" >&2; die "bpftool build failed"; }
	install -m 0755 "$obj/bpftool/bpftool" "$inst/bin/bpftool"
}

build_libbpf() {
	# Static and shared; check: every API symbol is in a version node, and
	# libbpf.map has the node of libbpf_version.h's version.
	tmake -C "$LINUX/tools/lib/bpf" OUTPUT="$obj/libbpf/" "${TTARGET[@]}" \
		prefix="$inst" libdir_relative=lib install check >"$obj/libbpf.log" 2>&1 ||
		{ cat "$obj/libbpf.log" >&2; die "libbpf build failed"; }
}

build_docs() {
	# Man pages and completion go with bpftool (docs/ and bash-completion/).
	make -s -C "$LINUX/tools/bpf/bpftool/Documentation" OUTPUT="$obj/bpftool-doc/" \
		man >"$obj/bpftool-doc.log" 2>&1 || { cat "$obj/bpftool-doc.log" >&2; die "bpftool man pages failed"; }
	mkdir -p "$inst/share/man/man8" "$inst/share/bash-completion/completions"
	install -m 0644 "$obj"/bpftool-doc/*.8 "$inst/share/man/man8/"
	install -m 0644 "$LINUX/tools/bpf/bpftool/bash-completion/bpftool" \
		"$inst/share/bash-completion/completions/bpftool"
}

vmlinux_h() {
	[[ -f $BUILD/vmlinux ]] || die "no ${BUILD#"$TOP"/}/vmlinux: run make kernel (or make test-arm64) first"
	if [[ ! -f $BUILD/vmlinux.h || $BUILD/vmlinux.h -ot $BUILD/vmlinux || $BUILD/vmlinux.h -ot $host_bpftool ]]; then
		"$host_bpftool" btf dump file "$BUILD/vmlinux" format c >"$BUILD/vmlinux.h.new"
		mv "$BUILD/vmlinux.h.new" "$BUILD/vmlinux.h"
	fi
}

stage "build bpftool" build_bpftool
stage "build libbpf" build_libbpf
stage "build bpftool man pages and completion" build_docs
stage "generate build/vmlinux.h" vmlinux_h
