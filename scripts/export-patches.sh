#!/usr/bin/env bash
# make export-patches: regenerate every patch queue from the commits on top of
# "base" in build/linux. Each commit goes to the queue that owns the files it
# touches (see queue_of in lib.sh); a commit touching two queues' files is
# refused. The output is deterministic: unchanged commits give byte-identical
# patch files (zeroed commit ids, full blob ids, no version signature).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

[[ -d $LINUX/.git ]] || die "no build/linux tree: run make tree first"
git_l() { git -C "$LINUX" "$@"; }

[[ -z $(git_l status --porcelain --untracked-files=no) ]] ||
	die "build/linux has uncommitted edits: commit them (git -C build/linux commit) before exporting"

out=$BUILD/export.tmp
rm -rf "$out"
declare -A count
for q in "${QUEUES[@]}"; do
	mkdir -p "$out/$q"
	: >"$out/$q/series"
	count[$q]=0
done

# kept_patch SHA: the queue file an empty commit stands for (queue_apply
# makes one for a carried fix that Debian's source already has): the patch
# of that subject, printed as QUEUE/FILE.
kept_patch() {
	local subject q f
	subject=$(git_l log -1 --format=%s "$1")
	for q in "${QUEUES[@]}"; do
		for f in "$TOP/$q"/*.patch; do
			[[ -f $f ]] || continue
			[[ $(git mailinfo /dev/null /dev/null <"$f" | sed -n 's/^Subject: //p') == "$subject" ]] &&
				{ printf '%s\n' "$q/${f##*/}"; return; }
		done
	done
}

while read -r sha; do
	mapfile -t files < <(git_l diff-tree --no-commit-id --name-only -r "$sha")
	if ((${#files[@]} == 0)); then
		f=$(kept_patch "$sha")
		[[ -n $f ]] || die "commit $(git_l log -1 --format='%h (%s)' "$sha") changes nothing and is no patch of the queues"
		q=${f%%/*}
		count[$q]=$((count[$q] + 1))
		p=$(printf '%04d-%s' "${count[$q]}" "${f#*/[0-9][0-9][0-9][0-9]-}")
		cp "$TOP/$f" "$out/$q/$p"
		echo "$p" >>"$out/$q/series"
		continue
	fi
	q=$(queue_of "${files[@]}")
	[[ $q != mixed:* ]] ||
		die "commit $(git_l log -1 --format='%h (%s)' "$sha") touches files of two queues (${q#mixed:}); split it"
	count[$q]=$((count[$q] + 1))
	p=$(git_l format-patch -1 "$sha" --zero-commit --no-signature --full-index \
		--no-numbered --start-number "${count[$q]}" -o "$out/$q")
	basename "$p" >>"$out/$q/series"
done < <(git_l rev-list --reverse base..HEAD)

# queue_same DIR1 DIR2: same series and the same patch files in both.
queue_same() {
	local p
	cmp -s "$1/series" "$2/series" || return 1
	while read -r p; do
		cmp -s "$1/$p" "$2/$p" || return 1
	done <"$2/series"
}

changed=0
for q in "${QUEUES[@]}"; do
	if ! queue_same "$TOP/$q" "$out/$q"; then
		changed=1
		mkdir -p "$TOP/$q"
		find "$TOP/$q" -maxdepth 1 -name '*.patch' -delete
		cp "$out/$q"/* "$TOP/$q/"
		log "$q/: ${count[$q]} patches (updated)"
	else
		log "$q/: ${count[$q]} patches (unchanged)"
	fi
done
rm -rf "$out"

# The queues now describe build/linux exactly: record that for make tree.
"$TOP/scripts/tree.sh" --stamp-only
[[ $changed == 1 ]] && log "review with: git status ${QUEUES[*]}"
exit 0
