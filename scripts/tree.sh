#!/usr/bin/env bash
# make tree: build/linux as a git repository holding Debian's pristine
# linux-source tree (commit tagged "base") plus one commit per patch of the
# queues kernel/, bpftool/, docs/, bash-completion/ and selftests/, applied
# with git am.
#
# Re-running is cheap: when the queues are unchanged nothing is touched.
# When they changed, the tree is reset to "base" and the queues re-applied,
# unless build/linux holds work that was not exported (commits or edits made
# since the last make tree): then it stops, so nothing is lost. FORCE=1
# discards that work.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

: "${KVER_DEB:?KVER_DEB (the pinned linux-source-6.12 version) must be set}"
TARBALL=/usr/src/linux-source-6.12.tar.xz
STAMP=$BUILD/tree.stamp
tree_identity

have=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || true)
[[ $have == "$KVER_DEB" ]] ||
	die "linux-source-6.12 $KVER_DEB is needed, found '${have:-none}' (run: make deps)"

queue_hash() {
	local q patches
	for q in "${QUEUES[@]}"; do
		[[ -f $TOP/$q/series ]] || continue
		mapfile -t patches < <(grep -v -e '^#' -e '^$' "$TOP/$q/series" || true)
		printf '%s\n' "$q"
		(cd "$TOP/$q" && sha256sum series "${patches[@]}")
	done | sha256sum | cut -d' ' -f1
}

git_l() { git -C "$LINUX" "$@"; }

unpack() {
	local tmp=$BUILD/linux.unpack
	rm -rf "$tmp" && mkdir -p "$tmp"
	tar -C "$tmp" -xJf "$TARBALL"
	mv "$tmp/linux-source-6.12" "$LINUX"
	rmdir "$tmp"
	git_l init -q -b main
	git_l config core.abbrev 12
	git_l config gc.auto 0
	# New commits (make export-patches turns them into patches) are the
	# team's, as their Signed-off-by lines say.
	git_l config user.name "Tracing Multi Backport"
	git_l config user.email tracing-multi@localhost
	# Everything, even what the kernel's .gitignore names: it is the source.
	git_l add -A -f
	git_l commit -q -m "Debian linux-source-6.12 $KVER_DEB (pristine)"
	git_l tag base
	echo "$KVER_DEB" >"$LINUX/.debian-version"
}

apply_queues() {
	git_l am --abort >/dev/null 2>&1 || true
	git_l reset -q --hard base
	queue_apply "$LINUX" ||
		die "patch $QUEUE_FAILED does not apply; fix it in build/linux (git am --continue), then make export-patches"
}

mkdir -p "$BUILD"
# unexported_work: what build/linux holds that the queues do not (commits
# or edits made since the last make tree or make export-patches), if any.
unexported_work() {
	local had_hash='' had_head=''
	[[ -f $STAMP ]] && read -r had_hash had_head <"$STAMP"
	[[ -n $had_head ]] || return 0
	if [[ $(git_l rev-parse HEAD) != "$had_head" ]]; then
		echo "commits that are not in the patch queues: run make export-patches first"
	elif [[ -n $(git_l status --porcelain --untracked-files=no) ]]; then
		echo "uncommitted edits: commit and export them first"
	fi
}

# Another Debian version: a new tree, unless this one holds work.
if [[ -d $LINUX/.git && $(cat "$LINUX/.debian-version" 2>/dev/null) != "$KVER_DEB" ]]; then
	work=$(unexported_work)
	[[ -z $work || ${FORCE:-0} == 1 ]] ||
		die "build/linux is Debian $(cat "$LINUX/.debian-version" 2>/dev/null), not $KVER_DEB, and has $work (or FORCE=1 to drop it)"
	rm -rf "$LINUX" "$STAMP"
fi
if [[ ! -d $LINUX/.git ]]; then
	rm -rf "$LINUX" "$STAMP"
	stage "unpack Debian linux-source $KVER_DEB into build/linux" unpack
fi

want=$(queue_hash)
if [[ ${1:-} == --stamp-only ]]; then
	echo "$want $(git_l rev-parse HEAD)" >"$STAMP"
	exit 0
fi
had_hash='' had_head=''
[[ -f $STAMP ]] && read -r had_hash had_head <"$STAMP"
if [[ $had_hash == "$want" ]]; then
	log "build/linux is up to date with the patch queues"
	exit 0
fi
work=$(unexported_work)
[[ -z $work || ${FORCE:-0} == 1 ]] || die "build/linux has $work (or FORCE=1 make tree to drop them)"
stage "apply patch queues (${QUEUES[*]})" apply_queues
echo "$want $(git_l rev-parse HEAD)" >"$STAMP"
log "build/linux: $(git_l rev-list --count base..HEAD) patches on top of base"
