#!/usr/bin/env bash
# scripts/kver.sh PIN: the linux-source-6.12 version the build uses (the
# Makefile's KVER_DEB when the command line does not set it). PIN, the
# version the queues were last proven on, while apt still has it (installed
# or offered). Debian's archive keeps only the 6.12 builds of the current
# point release: when PIN is gone, it says so in one line and picks the
# newest version apt offers that the patch queues apply to (make follow's
# first step, in build/kver); the choice is kept in build/kver.cache until
# apt's lists change.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

pin=${1:?usage: kver.sh PINNED-VERSION}

installed=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || true)
if [[ $installed == "$pin" ]]; then
	echo "$pin"
	exit 0
fi
mapfile -t versions < <(archive_versions)
if ((${#versions[@]} == 0 && EUID == 0)); then
	# a fresh machine may have no package lists yet
	apt-get update -qq >/dev/null 2>&1 || true
	mapfile -t versions < <(archive_versions)
fi
for v in "${versions[@]}"; do
	if [[ $v == "$pin" ]]; then
		echo "$pin"
		exit 0
	fi
done
if ((${#versions[@]} == 0)); then
	# Nothing to choose from: deps.sh's apt-get says what is wrong.
	echo "$pin"
	exit 0
fi

cache=$BUILD/kver.cache
key="$pin $({ stat -c '%n %Y' /var/lib/apt/lists/*Packages* 2>/dev/null || true; } | md5sum | cut -c1-12)"
if [[ -f $cache && $(head -1 "$cache") == "$key" ]]; then
	sed -n 2p "$cache"
	tail -n +3 "$cache" >&2
	exit 0
fi
chosen=
for ((i = ${#versions[@]} - 1; i >= 0; i--)); do
	# in a tree of its own: make follow may be using build/follow
	if BUILD=$BUILD/kver FOLLOW=${versions[i]} "$TOP/scripts/follow.sh" --apply-only >/dev/null 2>&1; then
		chosen=${versions[i]}
		break
	fi
done
if [[ -n $chosen ]]; then
	note="note: linux-source-6.12 $pin (the pinned KVER_DEB) is gone from the archive; using $chosen, the newest one the patch queues apply to (make follow reports every version)"
else
	chosen=$pin
	note="error: linux-source-6.12 $pin (the pinned KVER_DEB) is gone from the archive, and the patch queues apply to none of ${versions[*]}: run make follow, fix the queue for the newest"
fi
mkdir -p "$BUILD"
printf '%s\n%s\n%s\n' "$key" "$chosen" "$note" >"$cache"
echo "$note" >&2
echo "$chosen"
