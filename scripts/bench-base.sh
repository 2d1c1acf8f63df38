#!/usr/bin/env bash
# make bench-base: what a plain fentry, fexit and fmod_ret program adds to
# a system call on the bench kernel (build/bench/bzImage, the series)
# against 6.12 without it, built from the same config
# (build/bench-base/bzImage): existing fentry users must not pay for the
# series. Guests with one vCPU booted by turns, BENCH_BASE_BOOTS times
# each (default 5), each running bench_attach's BENCH_PER_CALL_PLAIN
# rounds (tests/progs/bench_attach.c); every boot and every round places
# the programs and trampolines anew, and the JIT's placement decides much
# of a call's time under TCG. The combined table goes to
# build/bench-base-results.txt: per kernel and kind the best round of all
# boots and the median of the boots' medians, minus the bare call's, and
# the ratios series / 6.12. Wall clock: nothing else may run meanwhile.
# Then one boot of each with qemu/run --icount, whose clock counts
# executed instructions: the same table in instructions, exact from run to
# run, which placement does not move.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

boots=${BENCH_BASE_BOOTS:-5}
dir=$BUILD/bench-base
out=$BUILD/bench-base-results.txt

# run MODE N: N boots of each kernel by turns (MODE wall, or icount for
# qemu/run --icount), their per-call-plain lines in $dir/raw-MODE.txt as
# KERNEL BOOT KIND BEST MEDIAN ("-" where the kernel lacks KIND)
run() {
	local mode=$1 n=$2 i k opt=()
	[[ $mode == wall ]] || opt=(--icount)
	: >"$dir/raw-$mode.txt"
	for ((i = 1; i <= n; i++)); do
		for k in bench bench-base; do
			log "$mode, boot $i of $n: $k kernel"
			"$TOP/qemu/run" --smp 1 "${opt[@]}" --kernel "$BUILD/$k/bzImage" --timeout 0 \
				--idle-timeout 1800 --console "$dir/console-$mode-$k-$i.log" -- \
				env BENCH_PER_CALL_PLAIN=1 build/tests/bin/bench_attach |
				sed -n "s/^per-call-plain /$k $i /p" >>"$dir/raw-$mode.txt"
		done
	done
}

# table MODE N UNIT: the combined table of run MODE N
table() {
	awk -v boots="$2" -v unit="$3" -v series="$(cat "$BUILD/bench/kernel.release")" \
		-v base="$(cat "$dir/kernel.release")" '
function median(list,   v, n, i, j, t) {
	n = split(list, v, " ")
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
$4 != "-" {
	key = $1 SUBSEP $3
	if (!(key in best) || $4 + 0 < best[key]) best[key] = $4 + 0
	meds[key] = meds[key] " " $5
	if (!($3 in seen)) { seen[$3] = 1; kinds[++nk] = $3 }
}
END {
	split("bench bench-base", ks, " ")
	for (i = 1; i <= nk; i++)
		for (j = 1; j <= 2; j++) {
			key = ks[j] SUBSEP kinds[i]
			if (key in best) med[key] = median(meds[key])
		}
	printf "# per call: %s a plain program adds to getpgid(0): the bench kernel (%s) and 6.12 without the series (%s), same config\n", unit, series, base
	printf "# %d boot(s) of each by turns; best: the best round of all boots; median: of the boots%s medians\n", boots, "\047"
	printf "%-14s | %9s %9s | %9s %9s | %8s %8s\n", "kind", "series", "median", "6.12", "median", "best", "median"
	met = 1
	for (i = 1; i <= nk; i++) {
		k = kinds[i]
		if (k == "none") continue
		s = ("bench" SUBSEP k) in best; b = ("bench-base" SUBSEP k) in best
		sa = s ? best["bench" SUBSEP k] - best["bench" SUBSEP "none"] : 0
		sm = s ? med["bench" SUBSEP k] - med["bench" SUBSEP "none"] : 0
		if (!b) {
			printf "%-14s | %9.1f %9.1f | %9s %9s | %8s %8s\n", k, sa, sm, "-", "-", "-", "-"
			continue
		}
		ba = best["bench-base" SUBSEP k] - best["bench-base" SUBSEP "none"]
		bm = med["bench-base" SUBSEP k] - med["bench-base" SUBSEP "none"]
		printf "%-14s | %9.1f %9.1f | %9.1f %9.1f | %7.2fx %7.2fx\n", k, sa, sm, ba, bm, sa / ba, sm / bm
		if (sa > 1.05 * ba) met = 0
	}
	printf "# bare call: series %.1f %s, 6.12 %.1f %s (best)\n", best["bench" SUBSEP "none"], unit, best["bench-base" SUBSEP "none"], unit
	printf "# target: plain fentry, fexit and fmod_ret add at most 1.05x on the series of what they add on 6.12 (best rounds): %s\n", met ? "met" : "MISSED"
}' "$dir/raw-$1.txt"
}

run wall "$boots"
run icount 1
{
	table wall "$boots" ns
	echo
	table icount 1 insn
} | tee "$out"
log "make bench-base: ${out#"$TOP"/}"
