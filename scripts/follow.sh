#!/usr/bin/env bash
# make follow [FOLLOW="V ..."] [FOLLOW_TEST=newest|none]: the patch queues
# against every linux-source-6.12 that apt offers (bookworm-security
# carries each 6.12 Debian ships, about one every two weeks), or against
# the versions FOLLOW names. For each version, oldest first:
#   applies   the queues with git am onto Debian's pristine source
#   builds    the guest kernel (the config of make test) from that tree
#   test      make test on it: for the newest version (FOLLOW_TEST=newest,
#             the default), when the queue applies and the kernel builds
# and one line of report per version, also in build/follow/report.txt.
# Exits non-zero when any version fails a step it ran. With --apply-only,
# only the first step (scripts/kver.sh uses it to pick a version).
#
# Work files in build/follow: the downloaded linux-source packages (debs/),
# one git tree holding each version's pristine source (tag base-VERSION)
# with the queues applied on branch "follow", and the kernel objects of the
# last version built. One tree and one object directory for all versions:
# moving to the next version rewrites only the files that differ, so make
# rebuilds only what they touch, and a ccache of its own (build/ccache-follow)
# keeps the test kernels' cache as it is.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

only_apply=0
[[ ${1:-} == --apply-only ]] && only_apply=1
fb=$BUILD/follow
tree=$fb/linux
report=$fb/report.txt
mkdir -p "$fb/debs"
git_f() { git -C "$tree" "$@"; }

# tag_of VERSION: a git tag name for a Debian version ('~' and ':' are not
# allowed in tag names).
tag_of() { local v=${1//\~/_}; printf 'base-%s\n' "${v//:/%}"; }

fetch() {
	local v=$1
	if ! compgen -G "$fb/debs/linux-source-6.12_${v/:/%3a}_all.deb" >/dev/null; then
		(cd "$fb/debs" && apt-get download -q "linux-source-6.12=$v" >/dev/null)
	fi
	printf '%s\n' "$fb/debs/linux-source-6.12_${v/:/%3a}_all.deb"
}

# import VERSION: its pristine source as a root commit tagged base-VERSION.
import() {
	local v=$1 tag deb tmp
	tag=$(tag_of "$v")
	git_f rev-parse -q --verify "refs/tags/$tag" >/dev/null && return
	deb=$(fetch "$v")
	tmp=$fb/unpack
	rm -rf "$tmp" && mkdir -p "$tmp"
	dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/src/linux-source-6.12.tar.xz | tar -xJ -C "$tmp"
	GIT_INDEX_FILE=$fb/import.index GIT_WORK_TREE=$tmp/linux-source-6.12 git -C "$tree" add -A -f
	git_f tag "$tag" "$(GIT_INDEX_FILE=$fb/import.index git_f commit-tree \
		"$(GIT_INDEX_FILE=$fb/import.index git_f write-tree)" \
		-m "Debian linux-source-6.12 $v (pristine)")"
	rm -rf "$tmp" "$fb/import.index"
}

# applies VERSION: the queues on base-VERSION, on branch "follow".
applies() {
	git_f am --abort >/dev/null 2>&1 || true
	git_f checkout -q -f -B follow "$(tag_of "$1")"
	queue_apply "$tree" 2>"$fb/apply.log"
}

builds() {
	BUILD=$fb CCACHE_DIR=$TOP/build/ccache-follow CCACHE_MAXSIZE=5G \
		"$TOP/scripts/kernel.sh" guest >"$fb/build.log" 2>&1
}

if [[ ! -d $tree/.git ]]; then
	git init -q -b follow "$tree"
	git_f config gc.auto 0
	git_f config user.name "Tracing Multi Backport"
	git_f config user.email tracing-multi@localhost
fi
# tree.sh's identity: the same queue gives the same commits
tree_identity

if [[ -n ${FOLLOW:-} ]]; then
	read -ra versions <<<"$FOLLOW"
else
	mapfile -t versions < <(archive_versions)
	((${#versions[@]})) || die "apt offers no linux-source-6.12: is bookworm-security in apt's sources (and apt-get update run)?"
fi
newest=${versions[-1]}
npatches=$(cat "${QUEUES[@]/%//series}" 2>/dev/null | grep -c '\.patch$')
log "following ${#versions[@]} Debian versions: ${versions[*]} (queues: $npatches patches)"
: >"$report"
failed=0
line() { printf '%s\n' "$*" | tee -a "$report"; }
for v in "${versions[@]}"; do
	start=$SECONDS
	if ! import "$v" 2>"$fb/import.log"; then
		line "$v  not fetched: $(tail -1 "$fb/import.log")"
		failed=1
		continue
	fi
	if ! applies "$v"; then
		line "$v  applies: NO, $QUEUE_FAILED does not apply · builds: not tried · test: not run"
		failed=1
		continue
	fi
	kept=$(grep -c 'kept as an empty commit' "$fb/apply.log" || true)
	a="applies: yes"
	((kept == 0)) || a+=" ($kept of them already in Debian's source)"
	if [[ $only_apply == 1 ]]; then
		line "$v  $a"
		continue
	fi
	if ! builds; then
		line "$v  $a · builds: NO (log: ${fb#"$TOP"/}/build.log) · test: not run"
		failed=1
		continue
	fi
	b="builds: yes ($((SECONDS - start)) s, $(cat "$fb/kernel.release"))"
	t="test: not run"
	if [[ ${FOLLOW_TEST:-newest} == newest && $v == "$newest" ]]; then
		log "$v: make test KVER_DEB=$v"
		if make -s -C "$TOP" test KVER_DEB="$v" 2>&1 | tee "$fb/test.log"; then
			t="test: $(grep -E '^[0-9]+ passed, [0-9]+ failed' "$fb/test.log" | tail -1)"
		else
			t="test: FAILED ($(grep -E '^[0-9]+ passed, [0-9]+ failed' "$fb/test.log" | tail -1 || echo 'see build/follow/test.log'))"
			failed=1
		fi
	fi
	line "$v  $a · $b · $t"
done
log "report: ${report#"$TOP"/}"
exit "$failed"
