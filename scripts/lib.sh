# shellcheck shell=bash disable=SC2034
# Shared helpers for the scripts in this folder: logging with stage timing,
# fatal errors, and the project's fixed paths.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
LINUX=$BUILD/linux

# bpftool's build settings (tools.sh, deb.sh): no JIT disassembler, as
# Debian 12's bpftool. Without them the build links libLLVM whenever some
# llvm-config is installed, and loading it is most of what any bpftool
# command costs (21 ms of `bpftool version`'s 22 ms natively, 0.5 s in the
# TCG guest); libbfd is GPL-3.0, which bpftool's GPL-2.0 code can't link.
BPFTOOL_FEATURES=(feature-llvm=0 feature-libbfd=0 feature-libbfd-liberty=0 feature-libbfd-liberty-z=0)

# tmake ARGS...: make for the tools/ trees (bpftool, libbpf), through ccache.
tmake() {
	CCACHE_BASEDIR=$TOP CCACHE_NOHASHDIR=1 \
		make -s -j"$(nproc)" CC="ccache gcc" CLANG=clang-19 LLVM_STRIP=llvm-strip-19 "$@"
}

# deb_flavour: $FLAVOUR (default cloud-amd64), or a fatal error when make
# deb has no Debian config of that name. Its Debian architecture is the
# part after the last '-' (cloud-arm64: arm64).
deb_flavour() {
	local flavour=${FLAVOUR:-cloud-amd64}
	case $flavour in
	cloud-amd64 | amd64 | cloud-arm64 | arm64) echo "$flavour" ;;
	*) die "unknown FLAVOUR '$flavour': use FLAVOUR=cloud-amd64 (virtual machines, the default), amd64 (bare metal), cloud-arm64 or arm64 (the same for arm64 hosts, cross-built)" ;;
	esac
}

# The patch queues, in the order they are applied onto the Debian tree.
QUEUES=(kernel bpftool docs bash-completion selftests)

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# stage NAME CMD...: run CMD, then say how long the stage took.
stage() {
	local name=$1 start=$SECONDS
	shift
	log "$name ..."
	# Called plainly, so that set -e stops the script at the first command
	# of CMD that fails. Never test a stage (if, ||, &&): set -e would be
	# off for all of CMD, and a failure in its middle would go unnoticed.
	"$@"
	log "$name done in $((SECONDS - start)) s"
}

# queue_of FILE...: the queue a commit touching FILEs belongs to, by path.
# A commit may only touch one queue's files.
queue_of() {
	local f q queue=
	for f in "$@"; do
		case $f in
		tools/bpf/bpftool/Documentation/*) q=docs ;;
		tools/bpf/bpftool/bash-completion/*) q=bash-completion ;;
		tools/bpf/bpftool/* | tools/lib/bpf/*) q=bpftool ;;
		tools/testing/selftests/*) q=selftests ;;
		*) q=kernel ;;
		esac
		if [[ -n $queue && $q != "$queue" ]]; then
			printf 'mixed:%s+%s\n' "$queue" "$q"
			return
		fi
		queue=$q
	done
	printf '%s\n' "$queue"
}

# The arm64 guest (make test-arm64): Debian's cross compiler, and where its
# kernel, tools, test programs and root file system go. The build/ of an
# arm64 guest is build/arm64: it is mounted on the checkout's build/ there.
ARM64_BUILD=$BUILD/arm64
ARM64_CROSS=aarch64-linux-gnu-

# kernel_target: in the array KTARGET, the kernel make's arguments for the
# target, through ccache: the host's gcc, or with KBUILD_ARCH=arm64 in the
# environment Debian's cross compiler (kbuild, and testmod.sh's external
# module build).
kernel_target() {
	KTARGET=(CC="ccache gcc")
	if [[ ${KBUILD_ARCH:-} == arm64 ]]; then
		KTARGET=(ARCH=arm64 CROSS_COMPILE="$ARM64_CROSS" CC="ccache ${ARM64_CROSS}gcc")
	fi
}

# tools_target ARCH: in the array TTARGET, the make arguments that build
# the tools/ trees (bpftool, libbpf) for the Debian architecture ARCH:
# none for the host's; for arm64 Debian's cross compiler for CC, LD and
# AR, while bpftool's bootstrap build (which makes the skeletons of its
# own BPF programs, and runs on the host) keeps the host's HOSTCC.
tools_target() {
	TTARGET=()
	[[ $1 != arm64 ]] || TTARGET=(ARCH=arm64 CROSS_COMPILE="$ARM64_CROSS" CC="ccache ${ARM64_CROSS}gcc"
		HOSTCC="ccache gcc" HOSTLD=ld HOSTAR=ar)
}

# worktree DIR REV: DIR, a git worktree of build/linux with REV checked
# out (detached): made if missing, moved to REV if elsewhere. For trees
# built beside build/linux itself, such as 6.12 without the series.
worktree() {
	local dir=$1 rev
	[[ -d $LINUX/.git ]] || die "no build/linux: run make tree"
	rev=$(git -C "$LINUX" rev-parse "$2")
	if [[ ! -e $dir/.git ]]; then
		rm -rf "$dir"
		git -C "$LINUX" worktree prune
		git -C "$LINUX" worktree add -q --detach "$dir" "$rev"
	elif [[ $(git -C "$dir" rev-parse HEAD) != "$rev" ]]; then
		git -C "$dir" checkout -q -f --detach "$rev"
	fi
}

# kbuild SRC OBJ LOCALVERSION ARGS...: the kernel's make on the tree SRC,
# objects in OBJ, compiled through ccache (CCACHE_BASEDIR makes hits
# independent of where the checkout lives), with a fixed build identity.
# KBUILD_ARCH=arm64 in the environment cross-compiles for arm64.
kbuild() {
	local src=$1 obj=$2 localversion=$3 KTARGET
	shift 3
	kernel_target
	CCACHE_BASEDIR=$TOP CCACHE_NOHASHDIR=1 CCACHE_SLOPPINESS=time_macros \
		make -C "$src" O="$obj" -j"$(nproc)" -s "${KTARGET[@]}" \
		HOSTCC="ccache gcc" LOCALVERSION="$localversion" \
		KBUILD_BUILD_TIMESTAMP="2000-01-01" KBUILD_BUILD_USER=tracing-multi KBUILD_BUILD_HOST=qemu \
		"$@"
}

# config_unmet FRAGMENT CONFIG: the lines of FRAGMENT that CONFIG does not
# honour (allnoconfig drops silently what it cannot satisfy), one per
# option, the last one FRAGMENT gives it counting: "CONFIG_X=v" wants that
# line, "# CONFIG_X is not set" (or CONFIG_X=n) wants no CONFIG_X line.
config_unmet() {
	awk 'FNR == NR {
		if (/^CONFIG_[A-Za-z0-9_]+=/) { k = $0; sub(/=.*/, "", k); want[k] = $0 }
		else if (/^# CONFIG_[A-Za-z0-9_]+ is not set$/) want[$2] = $0
		next
	     }
	     /^CONFIG_[A-Za-z0-9_]+=/ { k = $0; sub(/=.*/, "", k); have[k] = $0 }
	     END {
		for (k in want)
			if (want[k] ~ /^#|=n$/ ? (k in have) : have[k] != want[k])
				print want[k]
	     }' "$1" "$2" | sort
}

# archive_versions: the linux-source-6.12 versions apt offers, oldest first.
archive_versions() {
	apt-cache madison linux-source-6.12 2>/dev/null | awk '{ print $3 }' | sort -u -V
}

# tree_identity: the fixed committer and dates of make tree's commits, so
# that the same queues always give the same commit ids (git am keeps
# author dates; committer date follows them).
tree_identity() {
	export GIT_AUTHOR_NAME="Debian linux-source" GIT_AUTHOR_EMAIL="debian-kernel@lists.debian.org"
	export GIT_COMMITTER_NAME="tracing-multi tree" GIT_COMMITTER_EMAIL="tree@localhost"
	export GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z"
}

# queue_apply TREE: apply every queue's patches onto the git tree TREE
# (at its base), one commit each. A patch whose change the base already
# has (a stable fix the queue carries for older Debian versions, which
# newer ones include) becomes an empty commit with the patch's author and
# message, so that make export-patches writes it back unchanged and the
# queue stays one series for every version. On a patch that does not
# apply, QUEUE_FAILED names it (queue/file), git am is left stopped there,
# and it returns 1.
QUEUE_FAILED=
queue_apply() {
	local tree=$1 q p msg info
	for q in "${QUEUES[@]}"; do
		[[ -f $TOP/$q/series ]] || continue
		while read -r p; do
			[[ -z $p || $p == \#* ]] && continue
			if git -C "$tree" am -q --committer-date-is-author-date "$TOP/$q/$p" >/dev/null 2>&1; then
				continue
			fi
			git -C "$tree" am --abort >/dev/null 2>&1 || true
			if git -C "$tree" apply -R --check "$TOP/$q/$p" 2>/dev/null; then
				msg=$(mktemp)
				info=$(git mailinfo "$msg" /dev/null <"$TOP/$q/$p")
				GIT_AUTHOR_NAME=$(sed -n 's/^Author: //p' <<<"$info") \
					GIT_AUTHOR_EMAIL=$(sed -n 's/^Email: //p' <<<"$info") \
					GIT_AUTHOR_DATE=$(sed -n 's/^Date: //p' <<<"$info") \
					GIT_COMMITTER_DATE=$(sed -n 's/^Date: //p' <<<"$info") \
					git -C "$tree" commit -q --allow-empty --cleanup=verbatim \
					-F <(printf '%s\n\n' "$(sed -n 's/^Subject: //p' <<<"$info")"; cat "$msg")
				rm -f "$msg"
				log "$q/$p: already in Debian's source, kept as an empty commit"
				continue
			fi
			git -C "$tree" am -q --committer-date-is-author-date "$TOP/$q/$p" >/dev/null 2>&1 || true
			QUEUE_FAILED=$q/$p
			return 1
		done <"$TOP/$q/series"
	done
}
