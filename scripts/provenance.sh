#!/usr/bin/env bash
# scripts/provenance.sh [QUEUE...]: the provenance check of make lint.
# Every patch of a queue is one of two kinds, never both:
#   upstream  its body opens with "commit <40-hex sha> upstream." and has
#             the trailer "Origin: upstream, commit:<sha>" (upstream's code,
#             moved only to apply) or "Origin: backport, commit:<sha>"
#             (changed for 6.12, and its message says how); From: is the
#             upstream author (or the message says the author is not known
#             to us); one patch per upstream commit in a queue.
#   ours      no such line; "Origin: vendor" and a "Forwarded:" trailer;
#             From: the team.
# No message names a path of this repository, a make target or a test
# guest: the patches are read outside it. QUEUE/PROVENANCE.md has one row
# per patch of QUEUE/series, in order: | patch | sha or ours | relation |,
# with the patch's own sha.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

cd "$TOP"
TEAM='Tracing Multi Backport <tracing-multi@localhost>'
# What a message must not name: this repository's paths, make targets, test guest.
OURS_REF='\b(guest|seeds?)\b|\bmake (test|stress|bench|regress|deb|lint|tree)\b|(^|[^a-z/.])(tests|docs|scripts|qemu|build)/'
rc=0
bad() {
	printf 'provenance: %s\n' "$*" >&2
	rc=1
}

trim() {
	local s=${1#"${1%%[![:space:]]*}"}
	printf '%s' "${s%"${s##*[![:space:]]}"}"
}

# header FILE: the mail header and message of a patch, up to its "---".
header() { sed '/^---$/q' "$1"; }

check_queue() {
	local q=$1 p f msg from up origin kind osha table row rsha rel ours_ref n=0
	local -A seen=()
	table=$q/PROVENANCE.md
	[[ -f $table ]] || { bad "$q: no $table (one row per patch: | patch | sha or ours | relation |)"; return; }
	mapfile -t rows < <(grep -E '^\| *[0-9]{4}-[^|]*\.patch *\|' "$table" || true)
	while read -r p; do
		[[ -z $p || $p == \#* ]] && continue
		f=$q/$p
		msg=$(header "$f")
		from=$(sed -n 's/^From: //p' <<<"$msg" | head -n1)
		up=$(awk '/^$/ && !body { body = 1; next } body && NF { print; exit }' <<<"$msg" |
			sed -nE 's/^commit ([0-9a-f]{40}) upstream\.$/\1/p')
		origin=$(grep -E '^Origin: ' <<<"$msg" || true)
		# Its row in the table.
		row=${rows[n]:-}
		n=$((n + 1))
		IFS='|' read -r _ rp rsha rel _ <<<"$row"
		rp=$(trim "$rp") rsha=$(trim "$rsha") rel=$(trim "$rel")
		[[ $rp == "$p" ]] || bad "$table: row $n is '${rp:-none}', the series has $p there"
		[[ -n $rel ]] || bad "$table: $p has no relation"
		if [[ -n $up ]]; then
			[[ $rsha == "$up" ]] || bad "$table: $p is upstream $up, the table says '$rsha'"
		else
			[[ $rsha == ours ]] || bad "$table: $p is ours, the table says '$rsha'"
		fi
		if [[ $(grep -c . <<<"$origin") != 1 ]]; then
			bad "$f: needs exactly one Origin: trailer (found: ${origin:-none})"
			continue
		fi
		kind=$(sed -nE 's/^Origin: (upstream|backport|vendor)(, commit:[0-9a-f]{40})?$/\1/p' <<<"$origin")
		osha=$(sed -nE 's/^Origin: [a-z]+, commit:([0-9a-f]{40})$/\1/p' <<<"$origin")
		if [[ -n $up ]]; then
			[[ $kind == upstream || $kind == backport ]] ||
				bad "$f: says \"commit $up upstream.\" but $origin (want Origin: upstream|backport, commit:$up)"
			[[ $osha == "$up" ]] || bad "$f: Origin names ${osha:-no commit}, the body $up"
			if [[ $from == "$TEAM" ]] && ! grep -q '^Upstream author and author date: not in the sources' <<<"$msg"; then
				bad "$f: an upstream commit with the team as its author (From: the upstream author)"
			fi
			[[ -z ${seen[$up]:-} ]] || bad "$f: upstream commit $up is also ${seen[$up]}: one patch per commit"
			seen[$up]=$p
			if grep -qiE "^ours|includes upstream's later fix" <<<"$msg"; then
				bad "$f: an upstream patch holds changes of ours or later fixes: make them patches of their own"
			fi
		else
			[[ $kind == vendor && -z $osha ]] ||
				bad "$f: no \"commit <sha> upstream.\" line, so a patch of ours: want Origin: vendor (found: $origin)"
			grep -qE '^Forwarded: (no|not-needed|https?://)' <<<"$msg" ||
				bad "$f: a patch of ours needs Forwarded: no|not-needed|URL"
			[[ $from == "$TEAM" ]] || bad "$f: a patch of ours with From: $from"
		fi
		ours_ref=$(grep -nE "$OURS_REF" <<<"$msg" | head -n1 || true)
		[[ -z $ours_ref ]] ||
			bad "$f: the message names this repository's paths, make targets or test guest: $ours_ref"
	done <"$q/series"
	((${#rows[@]} == n)) || bad "$table: ${#rows[@]} rows for $n patches"
}

queues=("$@")
((${#queues[@]})) || queues=("${QUEUES[@]}")
for q in "${queues[@]}"; do
	[[ -f $q/series ]] || continue
	check_queue "$q"
done
((rc == 0)) && log "provenance: every patch upstream (one commit) or ours, tables match"
exit "$rc"
