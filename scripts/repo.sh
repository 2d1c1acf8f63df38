#!/usr/bin/env bash
# make repo [FLAVOUR=...] [REPO=dir]: publish the packages of make deb
# (build/deb/FLAVOUR, or DEB_DIR) in a signed apt repository, by default
# build/repo:
#   pool/main/*.deb                 every build published so far (a host
#                                   can go back to an earlier one)
#   dists/bookworm/{InRelease,Release,Release.gpg}, main/binary-ARCH/Packages*
#   tracing-multi-archive-keyring.gpg  the public key, for signed-by
# The directory is what any web server serves (or a host reads as file://).
# Release is signed with the repository key: REPO_KEY (a fingerprint) from
# the keyring REPO_GNUPGHOME, by default
# ~/.local/share/tracing-multi/repo-gnupg, where a key without a
# passphrase is made on first use. It lives outside the checkout, so no
# make clean or git operation touches it; guard and back it up like any
# signing key (docs/install.md, "Keys").
# A package file already in the pool is never replaced by different
# content: a rebuild needs a new version (make deb DEB_SUFFIX=+tm2).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

flavour=$(deb_flavour)
debs=${DEB_DIR:-$BUILD/deb/$flavour}
repo=${REPO:-$BUILD/repo}
suite=bookworm
export GNUPGHOME=${REPO_GNUPGHOME:-${XDG_DATA_HOME:-$HOME/.local/share}/tracing-multi/repo-gnupg}
uid="tracing-multi archive signing key ($(hostname -f 2>/dev/null || hostname))"

compgen -G "$debs/linux-image-tracing-multi-${flavour}_*.deb" >/dev/null ||
	die "no packages of make deb in ${debs#"$TOP"/} (or from before the meta-packages): run make deb${FLAVOUR:+ FLAVOUR=$flavour} first"

# key: the fingerprint to sign with, made on first use.
key() {
	local fpr
	if [[ -n ${REPO_KEY:-} ]]; then
		gpg --batch --list-secret-keys "$REPO_KEY" >/dev/null 2>&1 ||
			die "REPO_KEY $REPO_KEY has no secret key in $GNUPGHOME"
		echo "$REPO_KEY"
		return
	fi
	fpr=$(gpg --batch --with-colons --list-secret-keys 2>/dev/null | awk -F: '$1 == "fpr" { print $10; exit }')
	if [[ -z $fpr ]]; then
		mkdir -p "$GNUPGHOME" && chmod 700 "$GNUPGHOME"
		log "no repository key in $GNUPGHOME: making one ($uid)"
		gpg --batch --quiet --passphrase '' --quick-gen-key "$uid" ed25519 sign never
		fpr=$(gpg --batch --with-colons --list-secret-keys | awk -F: '$1 == "fpr" { print $10; exit }')
	fi
	echo "$fpr"
}

publish() {
	local deb name pool=$repo/pool/main added=0
	mkdir -p "$pool"
	for deb in "$debs"/*.deb; do
		name=${deb##*/}
		if [[ -f $pool/$name ]]; then
			cmp -s "$deb" "$pool/$name" ||
				die "$name is already published with other content: a rebuild needs a new version (make deb DEB_SUFFIX=+tmN, N above the last)"
			continue
		fi
		cp "$deb" "$pool/$name.new" && mv "$pool/$name.new" "$pool/$name"
		added=$((added + 1))
	done
	log "$added new package files in ${pool#"$TOP"/} ($(find "$pool" -name '*.deb' | wc -l) in all)"
}

# One index per architecture in the pool (amd64, and arm64 once an arm64
# flavour is published): apt on a host reads its own architecture's.
index() {
	local arch archs dist=$repo/dists/$suite fpr=$1
	mapfile -t archs < <(find "$repo/pool/main" -name '*.deb' -printf '%f\n' | sed 's/.*_\([a-z0-9]*\)\.deb$/\1/' | sort -u)
	for arch in "${archs[@]}"; do
		mkdir -p "$dist/main/binary-$arch"
		(cd "$repo" && apt-ftparchive --arch "$arch" packages pool/main) >"$dist/main/binary-$arch/Packages"
		gzip -9nc "$dist/main/binary-$arch/Packages" >"$dist/main/binary-$arch/Packages.gz"
	done
	(cd "$dist" && apt-ftparchive \
		-o APT::FTPArchive::Release::Origin=tracing-multi \
		-o APT::FTPArchive::Release::Label=tracing-multi \
		-o APT::FTPArchive::Release::Suite=$suite \
		-o APT::FTPArchive::Release::Codename=$suite \
		-o APT::FTPArchive::Release::Architectures="${archs[*]}" \
		-o APT::FTPArchive::Release::Components=main \
		-o APT::FTPArchive::Release::Description="Debian 12's 6.12 kernel with the tracing_multi backport" \
		release .) >"$dist/Release.new"
	mv "$dist/Release.new" "$dist/Release"
	rm -f "$dist/InRelease" "$dist/Release.gpg"
	gpg --batch --yes --local-user "$fpr" --digest-algo SHA512 --clearsign -o "$dist/InRelease" "$dist/Release"
	gpg --batch --yes --local-user "$fpr" --digest-algo SHA512 -abs -o "$dist/Release.gpg" "$dist/Release"
	gpg --batch --yes --export "$fpr" >"$repo/tracing-multi-archive-keyring.gpg"
	# what a host checks the key file against
	echo "$fpr" >"$repo/tracing-multi-archive-keyring.fingerprint"
}

fpr=$(key)
stage "publish ${debs#"$TOP"/} in ${repo#"$TOP"/}" publish
stage "index and sign (key $fpr)" index "$fpr"
gpgv --keyring "$repo/tracing-multi-archive-keyring.gpg" "$repo/dists/$suite/InRelease" 2>/dev/null ||
	die "InRelease does not verify with the exported key"
log "repository ${repo#"$TOP"/}: serve the directory; on each host (docs/install.md):"
cat >&2 <<EOF
    install -m 0644 tracing-multi-archive-keyring.gpg /etc/apt/keyrings/tracing-multi.gpg
    printf '%s\n' 'Types: deb' 'URIs: https://YOUR-SERVER/PATH' 'Suites: $suite' 'Components: main' \\
        'Signed-By: /etc/apt/keyrings/tracing-multi.gpg' >/etc/apt/sources.list.d/tracing-multi.sources
EOF
