#!/usr/bin/env bats
# Privileges and the tracing_multi link, as upstream has them:
# - BPF_PROG_LOAD of a tracing program (fentry.multi, fexit.multi,
#   fsession.multi) needs CAP_BPF and CAP_PERFMON (bpf_prog_load(): EPERM
#   without CAP_BPF for any type but socket filter and cgroup skb, EPERM
#   without CAP_PERFMON for tracing, kprobe, ... programs);
# - BPF_LINK_CREATE checks no capability (link_create() and
#   bpf_tracing_multi_attach() have none): the program's fd is the
#   authority, so whoever holds one, however unprivileged, attaches it,
#   to the functions of its choice, as with kprobe_multi;
# - link info gives the functions' addresses only when
#   kallsyms_show_value() allows (kernel.kptr_restrict, CAP_SYSLOG), 0
#   otherwise; fdinfo names them (%pS) either way.
# tests/progs/caps_link.c makes and checks the links, run by setpriv with
# exact capability sets.

load helpers
bats_require_minimum_version 1.5.0

TYPES=(fentry.multi fexit.multi fsession.multi)

# nobody CAPS: set priv to the command prefix that runs a command as
# nobody (uid 65534, group nogroup, no supplementary groups) with exactly
# the capabilities CAPS ("" or, say, ",+bpf,+perfmon") in its effective,
# permitted, inheritable, ambient and bounding sets.
nobody() {
	priv=(setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps="-all$1"
		--ambient-caps="-all$1" --bounding-set="-all$1")
}

# What caps_link prints after a link of TYPE was made and the program
# ran twice (two BPF_PROG_TEST_RUNs) on each of bpf_fentry_test1, 2, 3:
# fsession.multi runs at entry and, with its session cookie, at exit.
linked() {
	echo "link_create: OK"
	if [[ $1 == fsession.multi ]]; then echo "calls: 2 2 2 / 2 2 2"; else echo "calls: 2 2 2"; fi
}

# caps_case CAPS CAPEFF LOAD: for each type, a program loaded as nobody
# with CAPS (caps_link prints /proc/self/status's CapEff, which must be
# CAPEFF) gives LOAD (OK, or the errno), and with OK a working link; the
# fd of a program root loaded, handed to nobody with CAPS, makes a
# working link. Nothing stays traced.
caps_case() {
	local caps=$1 capeff=$2 load=$3 t before want
	local head="caps: CapEff $capeff uid 65534"
	nobody "$caps"
	before=$(cat /sys/kernel/tracing/enabled_functions)
	for t in "${TYPES[@]}"; do
		run "${priv[@]}" caps_link load "$t"
		echo "$t, loaded as nobody: $output"
		[ "$status" -eq 0 ]
		want="$head"$'\n'"prog_load: $load"
		[[ $load != OK ]] || want+=$'\n'"$(linked "$t")"
		[ "$output" = "$want" ]

		run caps_link pass "$t" "${priv[@]}" caps_link use "$t"
		echo "$t, loaded by root, linked by nobody: $output"
		[ "$status" -eq 0 ]
		[ "$output" = "$head"$'\n'"$(linked "$t")" ]
	done
	[ "$(cat /sys/kernel/tracing/enabled_functions)" = "$before" ]
}

@test "no capability: loading fentry.multi, fexit.multi and fsession.multi programs is EPERM; link_create with a program fd root loaded works, the program counts every call" {
	caps_case "" 0000000000000000 EPERM
}

@test "CAP_BPF alone: loading fentry.multi, fexit.multi and fsession.multi programs is EPERM (CAP_PERFMON missing); link_create with a program fd root loaded works, the program counts every call" {
	caps_case ",+bpf" 0000008000000000 EPERM
}

@test "CAP_BPF and CAP_PERFMON, no CAP_SYS_ADMIN: fentry.multi, fexit.multi and fsession.multi programs load, link and count every call, as do programs root loaded" {
	caps_case ",+bpf,+perfmon" 000000c000000000 OK
}

@test "link_fuzz as nobody without capabilities, with the fds of programs root loaded: BPF_PROG_LOAD is EPERM, link_create answers as for root, call by call" {
	local before root
	before=$(cat /sys/kernel/tracing/enabled_functions)
	run link_fuzz 2000 7
	echo "$output"
	[ "$status" -eq 0 ]
	root=$output
	# links were made: link_fuzz fails on fewer than min_links(2000), 16
	[[ $root =~ ^link_fuzz:\ 2000\ calls\ \(seed\ 7\):\ ([0-9]+)\ links, ]]
	[ "${BASH_REMATCH[1]}" -ge 16 ]
	# link_fuzz -u checks the drop itself (/proc/self/status, and EPERM
	# from BPF_PROG_LOAD), or exits 2
	run link_fuzz -u 2000 7
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	[ "${lines[0]}" = "link_fuzz: as nobody (uid and gid 65534, no groups, no capabilities): BPF_PROG_LOAD EPERM; link_create with the fds of the programs root loaded" ]
	# the same counts per errno and the same digest of every round
	[ "${lines[1]}" = "$root" ]
	[ "$(cat /sys/kernel/tracing/enabled_functions)" = "$before" ]
}

# What the link must list (pin_link_want, tests/helpers.bash)
setup_file() {
	pin_link_want
}

teardown() {
	if [[ -n ${restrict:-} ]]; then echo "$restrict" >/proc/sys/kernel/kptr_restrict; fi
	rm -f "$(pin_dir)/link"
}

# kptr_link: kernel.kptr_restrict 1 (the old value in restrict, which
# teardown puts back), and a link on bpf_fentry_test1, 2 and 3 pinned at
# link, owned by nobody (BPF_OBJ_GET opens it read-write).
kptr_link() {
	link=$(pin_dir)/link
	rm -f "$link"
	tracing_multi pin "$link" >/dev/null
	chown nobody:nogroup "$link"
	restrict=$(cat /proc/sys/kernel/kptr_restrict)
	echo 1 >/proc/sys/kernel/kptr_restrict
}

# link_info_is ADDRS OUTPUT: caps_link info's OUTPUT is the link's three
# functions with ADDRS ("real": their ftrace locations, "zero": 0), and
# its fdinfo's rows name them (%pS: name+offset/size), in BTF id order.
link_info_is() {
	local id addr cookie f obj i=2 out
	mapfile -t out <<<"$2"
	obj=$(vmlinux_btf_obj_id)
	[ "${#out[@]}" -eq 9 ]
	[ "${out[1]}" = "count: 3" ]
	[ "${out[5]}" = "fdinfo: obj-id"$'\t'" btf-id"$'\t'" cookie"$'\t'" func" ]
	while read -r id addr cookie f; do
		[[ $1 == real ]] || addr=0000000000000000
		[ "${out[i]}" = "func: $id $addr $cookie" ]
		[[ ${out[i + 4]} =~ ^fdinfo:\ $obj$'\t'\ $id$'\t'\ $cookie$'\t'\ $f\+0x[0-9a-f]+/0x[0-9a-f]+$ ]]
		i=$((i + 1))
	done <"$BATS_FILE_TMPDIR/want"
}

@test "kptr_restrict 1 with CAP_SYSLOG (nobody): link info gives the addresses root sees, fdinfo the functions by name, bpftool link show both" {
	local json addrs id addr cookie f root
	kptr_link
	run caps_link info "$link"
	echo "root: $output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "caps: CapEff 000001ffffffffff uid 0" ]
	link_info_is real "$output"
	root=$(sed 1d <<<"$output")
	nobody ",+syslog"
	run "${priv[@]}" caps_link info "$link"
	echo "nobody: $output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "caps: CapEff 0000000400000000 uid 65534" ]
	link_info_is real "$output"
	[ "$(sed 1d <<<"$output")" = "$root" ]

	run "${priv[@]}" bpftool -j link show pinned "$link"
	echo "$output"
	[ "$status" -eq 0 ]
	json=$output
	jq -e --slurpfile w <(jq -R 'split(" ") | {id: (.[0] | tonumber), func: .[3], module: null,
		cookie: (.[2] | tonumber)}' "$BATS_FILE_TMPDIR/want") \
		'.func_cnt == 3 and [.funcs[] | {id: .id, func: .func, module: .module, cookie: .cookie}] == $w' <<<"$json"
	# addresses above 2^53 lose digits in jq: compare them as text
	addrs=$(while read -r _ addr _; do printf '"addr":%u\n' "0x$addr"; done <"$BATS_FILE_TMPDIR/want")
	[ "$(grep -o '"addr":[0-9]*' <<<"$json")" = "$addrs" ]
	run "${priv[@]}" bpftool link show pinned "$link"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "${lines[@]:3:3}")" = "$(while read -r id addr cookie f; do
		printf '\t%-16u %s %-16u %s\n' "$id" "$addr" "$cookie" "$f"; done <"$BATS_FILE_TMPDIR/want")" ]
}

@test "kptr_restrict 1 without CAP_SYSLOG (nobody, and root without it): link info gives 0 addresses, fdinfo the same names, bpftool link show zeros and no names" {
	local who json id cookie
	kptr_link
	nobody ""
	for who in nobody root; do
		# root keeps every capability but CAP_SYSLOG
		[[ $who == nobody ]] || priv=(setpriv --inh-caps=-all --bounding-set=-syslog)
		run "${priv[@]}" caps_link info "$link"
		echo "$who: $output"
		[ "$status" -eq 0 ]
		if [[ $who == nobody ]]; then
			[ "${lines[0]}" = "caps: CapEff 0000000000000000 uid 65534" ]
		else
			[ "${lines[0]}" = "caps: CapEff 000001fbffffffff uid 0" ]
		fi
		link_info_is zero "$output"

		run "${priv[@]}" bpftool -j link show pinned "$link"
		echo "$output"
		[ "$status" -eq 0 ]
		json=$output
		jq -e --slurpfile w <(cut -d' ' -f1,3 "$BATS_FILE_TMPDIR/want" |
			jq -R 'split(" ") | {id: (.[0] | tonumber), addr: 0, cookie: (.[1] | tonumber)}') \
			'.func_cnt == 3 and .funcs == $w' <<<"$json"
		run "${priv[@]}" bpftool link show pinned "$link"
		echo "$output"
		[ "$status" -eq 0 ]
		[ "$(printf '%s\n' "${lines[@]:3:3}")" = "$(while read -r id _ cookie _; do
			printf '\t%-16u %s %-16u\n' "$id" 0000000000000000 "$cookie"; done <"$BATS_FILE_TMPDIR/want")" ]
	done
}
