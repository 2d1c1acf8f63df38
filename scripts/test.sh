#!/usr/bin/env bash
# scripts/test.sh [BATS-FILE...]: make test. The bats files (default: every
# tests/*.bats) run in two QEMU guests at once, each on one host thread,
# so both cores of a 2-core host work. The guests share one list of files,
# longest first (tests/durations): each takes the next file the other has
# not taken (tests/run --claim), so the split stays fair on any machine.
# Their TAP streams print as one, numbered in the order tests end, and are
# saved in build/test-results.tap; the last line is "N passed, M failed".
# Each guest's console goes through qemu/run's health gate
# (build/guest-console.log, build/guest-console-2.log).
# TM_ARCH=arm64 (make test-arm64): the same in arm64 guests (qemu/run --arch
# arm64), everything kept in build/arm64/ instead of build/.
#
# No limit on the whole run: a slow or busy machine only makes it slower.
# Each test has its own limit (tests/helpers.bash); a guest is killed only
# when it prints nothing for longer than any test may take.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

GUESTS=2
# Longer than the longest limit a test has (tests/helpers.bash), with
# setup_file and teardown_file around it.
IDLE_TIMEOUT=5400

# TM_ARCH=arm64 (make test-arm64): arm64 guests, whose build/ is
# build/arm64; everything this script keeps goes there.
arch=(--arch "${TM_ARCH:-x86_64}")
gbuild=$BUILD
[[ ${TM_ARCH:-x86_64} == x86_64 ]] || gbuild=$ARM64_BUILD
# The suite's folder, here and as the guests see it.
suite=$gbuild/guest/suite
gsuite=$BUILD/guest/suite
rm -rf "$suite"
mkdir -p "$suite/claims"

# The files, longest first: tests/durations has the seconds each took in
# one guest; a file not listed there yet goes first.
if (($#)); then
	files=("$@")
else
	files=("$TOP"/tests/*.bats)
fi
declare -A secs=()
while read -r s name; do
	[[ $s == \#* ]] || secs[$name]=$s
done <"$TOP/tests/durations"
mapfile -t files < <(for f in "${files[@]}"; do
	printf '%s\t%s\n' "${secs[${f##*/}]:-999999}" "$f"
done | sort -t $'\t' -k1,1nr -s | cut -f2-)
planned=$(bats --count "${files[@]}")

pids=()
for ((g = 1; g <= GUESTS; g++)); do
	console=$gbuild/guest-console.log
	((g == 1)) || console=$gbuild/guest-console-$g.log
	: >"$suite/out.$g"
	(
		rc=0
		"$TOP/qemu/run" "${arch[@]}" --tcg-thread single --timeout 0 --idle-timeout "$IDLE_TIMEOUT" \
			--console "$console" -- tests/run --claim "$gsuite/claims" "${files[@]}" \
			>"$suite/out.$g" || rc=$?
		echo "$rc" >"$suite/rc.$g"
	) &
	pids+=("$!")
done
# Interrupted, no guest outlives make test: each qemu/run (a background
# job, so deaf to the terminal's SIGINT) is sent TERM, on which it kills
# its QEMU.
# shellcheck disable=SC2317 # called by the EXIT trap
stop_guests() {
	local p
	for p in "${pids[@]}"; do
		pkill -TERM -P "$p" 2>/dev/null || true
	done
}
trap stop_guests EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Print the guests' lines as they come, whole lines only, with the tests
# numbered 1..N over both; bats' own plan lines ("1..n" per file) give way
# to the one plan for all. Everything else is a TAP comment.
n=0
declare -A partial=() fd=()
for ((g = 1; g <= GUESTS; g++)); do
	exec {f}<"$suite/out.$g"
	fd[$g]=$f
	partial[$g]=
done
exec {tap}>"$suite/tap"
# put LINE: on the terminal and in the saved stream
put() {
	printf '%s\n' "$1"
	printf '%s\n' "$1" >&"$tap"
}
put "1..$planned"
emit() {
	local g=$1 line=$2 re='^(not )?ok [0-9]+ (.*)$'
	if [[ $line =~ $re ]]; then
		n=$((n + 1))
		line="${BASH_REMATCH[1]}ok $n ${BASH_REMATCH[2]}"
	elif [[ $line =~ ^1\.\.[0-9]+$ ]]; then
		return
	elif [[ $line == "# "* ]]; then
		[[ $line =~ ^#\ [^[:space:]]+\.bats(:\ [0-9]+\ s)?$ ]] && line="# guest $g: ${line#\# }"
	else
		line="# guest $g: $line"
	fi
	put "$line"
}
drain() {
	local g=$1 line
	while IFS= read -r line <&"${fd[$g]}"; do
		emit "$g" "${partial[$g]}$line"
		partial[$g]=
	done
	# at the end of what is written so far: part of a line, kept
	partial[$g]+=$line
}
running() {
	local g
	for ((g = 1; g <= GUESTS; g++)); do
		[[ -f $suite/rc.$g ]] || return 0
	done
	return 1
}
while running; do
	for ((g = 1; g <= GUESTS; g++)); do drain "$g"; done
	sleep 1
done
wait
status=0
for ((g = 1; g <= GUESTS; g++)); do
	drain "$g"
	[[ -z ${partial[$g]} ]] || emit "$g" "${partial[$g]}"
	rc=$(cat "$suite/rc.$g")
	if ((rc != 0)); then
		echo "make test: guest $g failed: qemu/run exit status $rc (its messages are above)" >&2
		status=1
	fi
done
trap - EXIT
cp "$suite/tap" "$gbuild/test-results.tap"
# How long each file took, for tests/durations.
sed -n 's/^# guest [0-9]*: \([^ ]*\.bats\): \([0-9]*\) s$/\2 \1/p' "$suite/tap" | sort -k1,1nr \
	>"$gbuild/test-durations"
"$TOP/tests/run" --summary "$gbuild/test-results.tap" "$planned" || status=1
exit "$status"
