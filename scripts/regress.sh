#!/usr/bin/env bash
# scripts/regress.sh STEP...: make regress, 6.12's own selftests on the
# unpatched and the patched kernel, built from one config.
#   trees    build/regress/src/{base,patched}: git worktrees of build/linux
#            at its `base` tag and at its HEAD (the applied queues)
#   config   one .config for both: allnoconfig + qemu/config/base.config,
#            the selftests' fragments (bpf/config, bpf/config.x86_64,
#            ftrace/config, livepatch/config) and qemu/config/regress.config
#   kernels  both kernels (objects in build/kbuild/regress-{base,patched}),
#            their modules, and the out-of-tree test modules: 6.12's
#            bpf_testmod and the livepatch selftests' test_modules
#   test_progs  6.12's BPF test_progs from the base tree (clang-19)
#   run      boot each kernel in the guest: tests/regress/run
#   bench    only the ftrace-ops benchmark, both kernels at once again
#            (results/NAME/bench.tsv; a quiet machine gives steadier ratios)
#   upstream only upstream's tracing_multi tests on the patched kernel
#            (after a change to selftests/: trees, test_progs, upstream, report;
#            from nothing, with REGRESS_TREES=patched: trees config kernels
#            test_progs upstream, and the results in
#            build/regress/results/patched/results.tsv)
#   report   build/regress/report.md: each test's result on both kernels,
#            the kernel log reports of each, "regressions: N of M tests"
# With no STEP, all of them.
# REGRESS_ARCH=arm64 (make regress-arm64): upstream's tracing_multi tests
# on the patched tree cross-built for arm64 (Debian's cross compilers),
# in the arm64 guest (make test-arm64's root file system): steps trees,
# config, kernels, test_progs, upstream; everything in build/arm64/regress,
# which the arm64 guest sees as build/regress. Its config: the selftests'
# bpf/config and config.aarch64 (6.12 has no live patching on arm64).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

# REGRESS_TREES=patched: the steps build and run the patched tree only
# (enough for the upstream step).
read -r -a TREES <<<"${REGRESS_TREES:-base patched}"
# The selftests' names of the architectures; live patching is x86_64's only.
case ${REGRESS_ARCH:-x86_64} in
x86_64)
	sel_arch=x86_64 livepatch=(tools/testing/selftests/livepatch/config)
	IMAGE=arch/x86/boot/bzImage
	GUEST=() PROGS_TARGET=()
	;;
arm64)
	sel_arch=aarch64 livepatch=()
	# test_progs: the selftests take CC from CROSS_COMPILE
	PROGS_TARGET=(ARCH=arm64 CROSS_COMPILE="$ARM64_CROSS" HOSTCC=gcc HOSTLD=ld HOSTAR=ar)
	BUILD=$ARM64_BUILD
	export KBUILD_ARCH=arm64
	read -r -a TREES <<<"${REGRESS_TREES:-patched}"
	IMAGE=arch/arm64/boot/Image
	GUEST=(--arch arm64)
	;;
*) die "REGRESS_ARCH is x86_64 (the default) or arm64, not '$REGRESS_ARCH'" ;;
esac
FRAGMENTS=(
	"$TOP/qemu/config/base.config"
	"$TOP/qemu/config/${REGRESS_ARCH:-x86_64}.config"
	tools/testing/selftests/bpf/config
	"tools/testing/selftests/bpf/config.$sel_arch"
	tools/testing/selftests/ftrace/config
	"${livepatch[@]}"
	"$TOP/qemu/config/regress.config"
)
R=$BUILD/regress
kernel_target

src_of() { echo "$R/src/$1"; }
obj_of() { echo "$BUILD/kbuild/regress-$1"; }

kmake() {
	local tree=$1
	shift
	kbuild "$(src_of "$tree")" "$(obj_of "$tree")" "-regress-$tree" "$@"
}

# Worktrees rather than build/linux itself: the base tree is another
# commit, and the patched one must not pick up uncommitted edits.
trees() {
	local tree src
	for tree in "${TREES[@]}"; do
		src=$(src_of "$tree")
		if [[ $tree == base ]]; then worktree "$src" base; else worktree "$src" HEAD; fi
		log "$tree tree: $(git -C "$src" log -1 --format='%h %s')"
	done
}

# The base tree's config, copied to the patched tree: the patches add no
# user-visible option, so olddefconfig must give the same file there.
# (With one tree, its own.)
config() {
	local frag=$R/fragment.config f base patched first=${TREES[0]}
	mkdir -p "$(obj_of "$first")" "$(obj_of patched)"
	for f in "${FRAGMENTS[@]}"; do
		[[ $f == /* ]] || f=$(src_of "$first")/$f
		printf '# --- %s\n' "${f#"$R"/src/"$first"/}"
		cat "$f"
	done >"$frag.new"
	base=$(obj_of "$first")/.config
	if cmp -s "$frag.new" "$frag" && [[ -f $base ]]; then
		rm "$frag.new"
	else
		mv "$frag.new" "$frag"
		kmake "$first" allnoconfig KCONFIG_ALLCONFIG="$frag" 2>"$R/config.log" ||
			{ cat "$R/config.log" >&2; die "allnoconfig failed"; }
		# The fragments ask for more than allnoconfig can give (hardware
		# of no use in the guest, options whose dependencies no fragment
		# enables): list what did not survive, for docs/regressions.md,
		# rather than fail.
		config_unmet "$frag" "$base" >"$R/config.dropped"
		log "config: $(grep -c '^CONFIG_.*=[ym]' "$base") options set; $(wc -l <"$R/config.dropped") lines of the fragments not in it (${R#"$TOP"/}/config.dropped)"
	fi
	[[ $first == base ]] || return 0
	patched=$(obj_of patched)/.config
	cp "$base" "$patched"
	kmake patched olddefconfig
	diff <(grep '^CONFIG_' "$base") <(grep '^CONFIG_' "$patched") >"$R/config.diff" || true
	# Symbols only the patched tree has (selected by the series) are expected.
	if grep -v -e '^[0-9]' -e '^> CONFIG_HAVE_SINGLE_FTRACE_DIRECT_OPS=y$' "$R/config.diff" | grep -q .; then
		cat "$R/config.diff" >&2
		die "the patched tree's config differs from the base tree's"
	fi
}

kernels() {
	local tree obj inst release
	for tree in "${TREES[@]}"; do
		obj=$(obj_of "$tree")
		inst=$R/$tree
		stage "build $tree kernel (${IMAGE##*/}, modules)" kmake "$tree" "${IMAGE##*/}" modules
		release=$(cat "$obj/include/config/kernel.release")
		rm -rf "$inst/lib/modules/$release"
		kmake "$tree" modules_install INSTALL_MOD_PATH="$inst" INSTALL_MOD_STRIP= DEPMOD=/sbin/depmod >/dev/null
		cp "$obj/$IMAGE" "$inst/${IMAGE##*/}"
		cp "$obj/vmlinux" "$inst/vmlinux"
		echo "$release" >"$inst/kernel.release"
		test_modules "$tree"
		log "$tree: the test modules built"
	done
}

# Out-of-tree modules of the tree's own selftests, built in place:
# bpf_testmod and bpf_test_no_cfi (tests/regress/run puts them beside
# test_progs), the livepatch selftests' test_modules/*.ko and their getpid
# caller.
test_modules() {
	local tree=$1 obj src m
	obj=$(obj_of "$tree")
	src=$(src_of "$tree")/tools/testing/selftests
	for m in bpf_testmod bpf_test_no_cfi; do
		make -s -C "$obj" M="$src/bpf/$m" "${KTARGET[@]}" -j"$(nproc)" modules
	done
	((${#livepatch[@]})) || return 0
	make -s -C "$obj" M="$src/livepatch/test_modules" "${KTARGET[@]}" -j"$(nproc)" modules
	gcc -O2 -o "$src/livepatch/test_klp-call_getpid" "$src/livepatch/test_klp-call_getpid.c"
}

# Each tree's test_progs, built against its kernel's BTF with clang-19:
# the base tree's runs on both kernels, the patched tree's (6.12's tests
# plus upstream's tracing_multi tests, selftests/) gives the upstream
# tests on the patched kernel. Left out of both:
# prog_tests/bpf_attr_size.c, which includes a skeleton whose BPF source
# 6.12's tree lacks (test_progs does not build with it).
test_progs() {
	local tree dir
	for tree in "${TREES[@]}"; do
		dir=$(src_of "$tree")/tools/testing/selftests/bpf
		rm -f "$dir/prog_tests/bpf_attr_size.c"
		stage "build the $tree tree's test_progs" build_test_progs "$tree" "$dir"
	done
}

# build_test_progs TREE DIR: one tree's test_progs, its output in
# build/regress/test_progs-TREE.log. (Not tested around stage: set -e
# would be off inside it, and a failure would pass unnoticed.)
# shellcheck disable=SC2317 # called through stage
build_test_progs() {
	local tree=$1 dir=$2
	# As a make of its own (MAKELEVEL 0): the selftests' lib.mk sets
	# OUTPUT to the test folder only there, and under make regress (level
	# 1) its output would go to /.
	env -u MAKELEVEL -u MAKEFLAGS -u MFLAGS \
		make -C "$dir" -j"$(nproc)" -s test_progs "${PROGS_TARGET[@]}" CLANG=clang-19 LLC=llc-19 LLVM_STRIP=llvm-strip-19 \
		VMLINUX_BTF="$R/$tree/vmlinux" KDIR="$(obj_of "$tree")" >"$R/test_progs-$tree.log" 2>&1 ||
		{ tail -30 "$R/test_progs-$tree.log" >&2; die "test_progs did not build (${R#"$TOP"/}/test_progs-$tree.log)"; }
}

# Both kernels at once, each guest on one vCPU and so on one of the
# host's two CPUs: the same conditions for both, which the ftrace-ops
# ratio needs, in half the time of one after the other. Each runs to the
# end whatever the other gives: qemu/run's exit status (its health gate
# included) is kept for the report. Up to four hours each: under TCG and
# lockdep, every switch of ftracetest to the function tracers patches
# all functions and waits out rcu_tasks grace periods.
run_one() {
	local tree=$1 part=${2:-} what=selftests
	[[ -z $part ]] || what=$part
	mkdir -p "$R/results/$tree"
	stage "$what on the $tree kernel" guest_run "$tree" "$part"
}

# guest_run TREE PART: qemu/run's exit status (its health gate included),
# whatever it is, in results/TREE/[PART-]rc for the report (TM_MODROOT is
# the kernel's modules as the guest sees them: its build/ is $BUILD). The status is
# taken here, not around stage: there set -e would be off for all of it
# and stage would return 0 for any status.
# shellcheck disable=SC2317 # called through stage
guest_run() {
	local tree=$1 part=$2 rc=0
	"$TOP/qemu/run" "${GUEST[@]}" --kernel "$R/$tree/${IMAGE##*/}" --smp 1 --mem 2G --timeout 14400 \
		--console "$R/results/$tree/${part:+$part-}console.log" -- \
		env TM_MODROOT="$TOP/build/regress/$tree" tests/regress/run "$tree" ${part:+"$part"} || rc=$?
	echo "$rc" >"$R/results/$tree/${part:+$part-}rc"
}

run() {
	local tree pids=()
	for tree in "${TREES[@]}"; do
		run_one "$tree" "$@" &
		pids+=($!)
	done
	wait "${pids[@]}"
}

# The kernel log's problem reports (qemu/run's health gate patterns), one
# kind per line with its count.
splats() {
	local pat
	pat=$(sed -n "s/^HEALTH='\(.*\)'$/\1/p" "$TOP/qemu/run")
	grep -Eo "$pat" "$1" 2>/dev/null | sort | uniq -c | awk '{ $1 = $1 } 1' || true
}

# build/regress/report.md: per suite and test, the result on each kernel,
# then the verdict lines.
report() {
	local b=$R/results/base p=$R/results/patched out=$R/report.md n m
	if [[ ${TREES[*]} == patched ]]; then
		# the patched tree alone: upstream's tests, from the upstream step
		[[ -f $p/results.tsv ]] || die "no results: run scripts/regress.sh upstream"
		{
			sed -n 's/^upstream\t\(.*\)\t\(.*\)$/| upstream | \1 | \2 |/p' "$p/results.tsv"
			echo
			echo "- kernel log reports: $(splats "$p/upstream-console.log" | paste -sd, - | sed 's/^$/none/')"
			echo "upstream tracing_multi: $(awk -F'\t' '$1 == "upstream" && $3 == "OK"' "$p/results.tsv" | wc -l) passed," \
				"$(awk -F'\t' '$1 == "upstream" && $3 != "OK"' "$p/results.tsv" | wc -l) not passed"
		} >"$out"
		cat "$out"
		return
	fi
	[[ -f $b/results.tsv && -f $p/results.tsv ]] || die "no results of both kernels: run scripts/regress.sh run"
	{
		echo "| suite | test | base | patched |"
		echo "|---|---|---|---|"
		join -t $'\t' -a1 -a2 -e 'not run' -o 0,1.2,2.2 \
			<(awk -F'\t' '{ print $1 ": " $2 "\t" $3 }' "$b/results.tsv" | sort -t $'\t' -k1,1) \
			<(awk -F'\t' '{ print $1 ": " $2 "\t" $3 }' "$p/results.tsv" | sort -t $'\t' -k1,1) |
			awk -F'\t' '{ split($1, k, ": "); t = substr($1, length(k[1]) + 3)
				mark = ($2 ~ /^(PASS|ok|OK)$/ && $3 !~ /^(PASS|ok|OK)$/) ? " **regression**" : ""
				printf "| %s | %s | %s | %s%s |\n", k[1], t, $2, $3, mark }'
		echo
		echo "Kernel log reports (base / patched):"
		echo
		echo "- base: $(splats "$b/console.log" | paste -sd, - | sed 's/^$/none/')"
		echo "- patched: $(splats "$p/console.log" | paste -sd, - | sed 's/^$/none/')"
		echo "- on patched only: $(comm -13 <(splats "$b/console.log" | cut -d' ' -f2- | sort) \
			<(splats "$p/console.log" | cut -d' ' -f2- | sort) | paste -sd, - | sed 's/^$/none/')"
		echo
	} >"$out.tmp"
	n=$(grep -c '\*\*regression\*\*' "$out.tmp" || true)
	m=$(grep -c '^| [a-z]' "$out.tmp" || true)
	m=$((m - 1 - $(grep -c '^| upstream |' "$out.tmp" || true)))
	{
		cat "$out.tmp"
		echo "regressions: $n of $m tests"
		echo "upstream tracing_multi: $(awk -F'\t' '$1 == "upstream" && $3 == "OK"' "$p/results.tsv" | wc -l) passed," \
			"$(awk -F'\t' '$1 == "upstream" && $3 == "FAIL"' "$p/results.tsv" | wc -l) failed"
	} >"$out"
	rm "$out.tmp"
	cat "$out"
}

main() {
	local steps=("$@") s
	((${#steps[@]})) || steps=(trees config kernels test_progs run report)
	mkdir -p "$R"
	for s in "${steps[@]}"; do
		case $s in
		trees) trees ;;
		config) config ;;
		kernels) kernels ;;
		test_progs) test_progs ;;
		run) run ;;
		bench) run ftrace-ops ;;
		upstream) run_one patched upstream ;;
		report) report ;;
		*) die "unknown step '$s' (want trees, config, kernels, test_progs, run, bench, upstream or report)" ;;
		esac
	done
}

# One line, read whole before it runs: the script can be edited during a
# run of an hour or more without bash reading the new text mid-way.
main "$@"; exit
