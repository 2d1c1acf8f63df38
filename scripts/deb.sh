#!/usr/bin/env bash
# make deb [FLAVOUR=cloud-amd64|amd64|cloud-arm64|arm64]: the Debian packages
# a host installs, into build/deb/FLAVOUR/ (the arm64 ones cross-built with
# Debian's gcc-aarch64-linux-gnu):
#   linux-image-RELEASE, linux-headers-RELEASE   the patched kernel, from
#       Debian's own config for FLAVOUR (linux-config-6.12) plus
#       packaging/kernel.config; RELEASE = 6.12.N-tracing-multi-FLAVOUR
#   linux-image-tracing-multi-FLAVOUR, linux-headers-tracing-multi-FLAVOUR
#       meta-packages that depend on this build's (as Debian's
#       linux-image-cloud-amd64 does): what a host installs and follows
#   bpftool-tracing-multi      the patched tree's bpftool, man pages,
#       completion; takes the place of Debian's bpftool
#   libbpf-tracing-multi-dev   its libbpf: headers, static library,
#       pkg-config; takes the place of Debian's libbpf-dev
# Versions are Debian's (KVER_DEB, or bpftool's and libbpf's own before a
# "+" and Debian's) plus DEB_SUFFIX: a rebuild of the same Debian version
# takes a higher suffix (+tm2) so that apt upgrade installs it. bpftool and
# libbpf go by names of their own (Provides, Conflicts, Replaces the
# Debian name): Debian's bpftool, built from 6.1, neither replaces ours nor
# is kept from its updates by a version that sorts above it
# (docs/install.md, "Versions").
# DEB_OUT puts them elsewhere (make deb-test's second build).
# The directory appears whole or not at all: everything is made in
# FLAVOUR.new and renamed at the end. Kernel objects stay in
# build/kbuild/deb-FLAVOUR for the next run, compiled through their own
# ccache (build/ccache-deb) so that they don't push the test kernels out
# of the shared one.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

: "${KVER_DEB:?KVER_DEB (the pinned linux-source-6.12 version) must be set}"
flavour=$(deb_flavour)
suffix=${DEB_SUFFIX:-+tm1}
[[ $suffix =~ ^[+~][a-z0-9.+~]*[0-9]$ ]] ||
	die "DEB_SUFFIX '$suffix' is not a Debian version suffix: want + or ~, then lower-case letters, digits, '.', '+' or '~', ending in a digit (e.g. +tm2)"
arch=${flavour##*-}
debconfig=/usr/src/linux-config-6.12/config.${arch}_none_$flavour.xz
have=$(dpkg-query -W -f='${Version}' "linux-config-6.12:$arch" 2>/dev/null || true)
[[ $have == "$KVER_DEB" && -f $debconfig ]] ||
	die "Debian's config for $flavour ($debconfig, package linux-config-6.12:$arch $KVER_DEB) is missing, found '${have:-none}': run make deb-deps FLAVOUR=$flavour"

# Another architecture than the host's is cross-built: the kernel through
# kbuild's KBUILD_ARCH, the tools with the target's compiler and binutils
# (bpftool's bootstrap build, which makes its skeletons, stays the
# host's), and dpkg-shlibdeps reads the target's libraries.
TTARGET=() kcross=()
if [[ $arch != "$(dpkg-architecture -qDEB_BUILD_ARCH)" ]]; then
	[[ $arch == arm64 ]] || die "no cross compiler known for $arch"
	export KBUILD_ARCH=arm64 DEB_HOST_ARCH=arm64
	tools_target arm64
	# Debian's arm64 kernels have a vDSO for 32-bit tasks too
	# (COMPAT_VDSO), built by the 32-bit Arm compiler; without it
	# olddefconfig would drop it.
	kcross=(CROSS_COMPILE_COMPAT=arm-linux-gnueabihf-)
fi
multiarch=$(dpkg-architecture -a"$arch" -qDEB_HOST_MULTIARCH 2>/dev/null)
strip=$(dpkg-architecture -a"$arch" -qDEB_HOST_GNU_TYPE 2>/dev/null)-strip
kver=$(make -s -C "$LINUX" kernelversion)
release=$kver-tracing-multi-$flavour
obj=$BUILD/kbuild/deb-$flavour/obj
out=${DEB_OUT:-$BUILD/deb/$flavour}
new=$out.new
rm -rf "$new"
mkdir -p "$obj" "$new"
trap 'rm -rf "$new"' EXIT

# What the tracing_multi link needs; Debian's configs have it all, and
# the build stops if one ever doesn't.
# fprobe (kprobe_multi, which a test compares against) has no arm64 form
# in 6.12.
needs=(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS=y CONFIG_HAVE_SINGLE_FTRACE_DIRECT_OPS=y
	CONFIG_BPF_SYSCALL=y CONFIG_BPF_JIT=y CONFIG_DEBUG_INFO_BTF=y CONFIG_DEBUG_INFO_BTF_MODULES=y)
[[ $arch == arm64 ]] || needs+=(CONFIG_FPROBE=y)

# Debian's config, then ours on top; olddefconfig settles the rest (a
# different compiler version string, anything our patches add).
configure() {
	local frag=$obj/../fragment.config
	{
		xzcat "$debconfig"
		cat "$TOP/packaging/kernel.config"
		printf 'CONFIG_BUILD_SALT="%s"\n' "$release"
	} >"$frag"
	cp "$frag" "$obj/.config"
	kbuild "$LINUX" "$obj" "" "${kcross[@]}" olddefconfig >/dev/null
	printf '%s\n' "${needs[@]}" | cat "$TOP/packaging/kernel.config" - >"$frag"
	mapfile -t bad < <(config_unmet "$frag" "$obj/.config")
	if ((${#bad[@]})); then
		printf '  %s\n' "${bad[@]}" >&2
		die "the $flavour config lacks these lines of packaging/kernel.config or of what the backport needs"
	fi
	xzcat "$debconfig" >"$obj/../debian.config"
	"$LINUX/scripts/diffconfig" "$obj/../debian.config" "$obj/.config" >"$new/config.diff"
	log "config: Debian's $flavour config, changed as follows (also in ${new#"$TOP"/}/config.diff):"
	sed 's/^/    /' "$new/config.diff" >&2
}

# The kernel's own bindeb-pkg, without the -dbg package (profile
# nokerneldbg: its 1 GB of module debug info would take longer to
# compress than the kernel takes to build; vmlinux with its symbols stays
# in build/kbuild/deb-FLAVOUR/obj). It also makes linux-libc-dev, which is
# dropped: a host keeps Debian's C library headers.
# What bindeb-pkg leaves beside the object tree.
drop_bindeb_output() { rm -f "$obj"/../*.deb "$obj"/../*.buildinfo "$obj"/../*.changes; }

kernel_debs() {
	drop_bindeb_output
	# A separate cache: 20 GB of Debian-config objects would push the
	# test kernels' out of the shared one (5 GB).
	CCACHE_DIR=$BUILD/ccache-deb CCACHE_MAXSIZE=20G \
		kbuild "$LINUX" "$obj" "-tracing-multi-$flavour" "${kcross[@]}" bindeb-pkg \
		KDEB_PKGVERSION="$KVER_DEB$suffix" KDEB_SOURCENAME=linux-tracing-multi \
		DPKG_FLAGS="-Ppkg.linux-tracing-multi.nokerneldbg" \
		>"$obj/../bindeb-pkg.log" 2>&1 ||
		{
			tail -30 "$obj/../bindeb-pkg.log" >&2
			drop_bindeb_output
			die "the kernel's bindeb-pkg failed (log: ${obj#"$TOP"/}/../bindeb-pkg.log)"
		}
	[[ $(cat "$obj/include/config/kernel.release") == "$release" ]] ||
		die "the kernel came out as $(cat "$obj/include/config/kernel.release"), not $release"
	mv "$obj"/../linux-image-"$release"_*.deb "$obj"/../linux-headers-"$release"_*.deb "$new/"
	drop_bindeb_output
}

# build_deb PACKAGE VERSION [TEMPLATE]: the binary package of the tree
# $tools/debian/PACKAGE (the layout dpkg-shlibdeps expects), with
# packaging/TEMPLATE.control (default: PACKAGE's) filled in; Depends from
# dpkg-shlibdeps when it has executables.
build_deb() {
	local pkg=$1 version=$2 dir=$tools/debian/$1 deps='' exe
	mkdir -p "$dir/DEBIAN" "$dir/usr/share/doc/$pkg"
	install -m 0644 "$TOP/packaging/copyright" "$dir/usr/share/doc/$pkg/copyright"
	mapfile -t exe < <(cd "$tools" && find "debian/$pkg" -type f -perm -u+x)
	if ((${#exe[@]})); then
		printf 'Source: tracing-multi\n\nPackage: %s\nArchitecture: any\n' "$pkg" >"$tools/debian/control"
		deps=$(cd "$tools" && dpkg-shlibdeps -O "${exe[@]}" | sed -n 's/^shlibs:Depends=//p')
	fi
	sed -e "s|@VERSION@|$version|g" -e "s|@ARCH@|$arch|g" -e "s|@KVER@|$kver|g" \
		-e "s|@LIBBPF@|${version#1:}|g" -e "s|@DEPENDS@|$deps|g" \
		-e "s|@FLAVOUR@|$flavour|g" -e "s|@RELEASE@|$release|g" \
		-e "s|@SIZE@|$(du -sk --exclude=DEBIAN "$dir" | cut -f1)|g" \
		"$TOP/packaging/${3:-$pkg}.control" >"$dir/DEBIAN/control"
	dpkg-deb --root-owner-group -Zxz --build "$dir" "$new/" >/dev/null
}

# bpftool and libbpf, built for /usr with the trees' own install targets.
tools=$BUILD/deb/tools
tool_debs() {
	local root bv lv
	rm -rf "$tools"
	mkdir -p "$tools/bpftool" "$tools/libbpf" "$tools/doc"
	root=$tools/debian/bpftool-tracing-multi
	if ! { tmake -C "$LINUX/tools/bpf/bpftool" OUTPUT="$tools/bpftool/" "${BPFTOOL_FEATURES[@]}" "${TTARGET[@]}" \
		prefix=/usr DESTDIR="$root" install &&
		make -s -C "$LINUX/tools/bpf/bpftool/Documentation" OUTPUT="$tools/doc/" \
			prefix=/usr mandir=/usr/share/man DESTDIR="$root" install; } >"$tools/bpftool.log" 2>&1; then
		tail -30 "$tools/bpftool.log" >&2
		die "bpftool build failed (log: ${tools#"$TOP"/}/bpftool.log)"
	fi
	gzip -9n "$root"/usr/share/man/man8/*.8
	# the JSON Schemas of link show's and link attach's -j output (ours)
	install -d "$root/usr/share/doc/bpftool-tracing-multi/schema"
	install -m 0644 "$TOP"/docs/schema/*.schema.json "$root/usr/share/doc/bpftool-tracing-multi/schema/"
	# links that come back at boot: tracing-multi@NAME.service (ours)
	install -D -m 0644 "$TOP/packaging/systemd/tracing-multi@.service" \
		"$root/usr/lib/systemd/system/tracing-multi@.service"
	install -D -m 0755 "$TOP/packaging/systemd/tracing-multi-link" \
		"$root/usr/libexec/tracing-multi/tracing-multi-link"
	install -D -m 0644 "$TOP/packaging/systemd/syscount.conf" \
		"$root/usr/share/doc/bpftool-tracing-multi/examples/syscount.conf"
	install -d "$root/etc/tracing-multi"
	"$strip" --remove-section=.comment --remove-section=.note "$root/usr/sbin/bpftool"
	# The bootstrap bpftool, of the same sources, runs on the build host.
	bv=$("$tools/bpftool/bootstrap/bpftool" version | sed -n 's/^bpftool v//p')
	[[ -n $bv ]] || die "the built bpftool does not print its version"
	build_deb bpftool-tracing-multi "$bv+$KVER_DEB$suffix"

	root=$tools/debian/libbpf-tracing-multi-dev
	tmake -C "$LINUX/tools/lib/bpf" OUTPUT="$tools/libbpf/" "${TTARGET[@]}" prefix=/usr libdir_relative="lib/$multiarch" DESTDIR="$root" \
		install_headers install_pkgconfig "$tools/libbpf/libbpf.a" >"$tools/libbpf.log" 2>&1 ||
		{ tail -30 "$tools/libbpf.log" >&2; die "libbpf build failed (log: ${tools#"$TOP"/}/libbpf.log)"; }
	install -m 0644 "$tools/libbpf/libbpf.a" "$root/usr/lib/$multiarch/"
	lv=$(sed -n 's/^Version: //p' "$root/usr/lib/$multiarch/pkgconfig/libbpf.pc")
	[[ -n $lv ]] || die "libbpf.pc has no Version"
	build_deb libbpf-tracing-multi-dev "1:$lv+$KVER_DEB$suffix"
	rm -rf "$tools"
}

# The meta-packages: no files but their copyright, Depends on this build.
meta_debs() {
	tools=$BUILD/deb/meta
	rm -rf "$tools"
	build_deb "linux-image-tracing-multi-$flavour" "$KVER_DEB$suffix" linux-image-tracing-multi
	build_deb "linux-headers-tracing-multi-$flavour" "$KVER_DEB$suffix" linux-headers-tracing-multi
	rm -rf "$tools"
}

stage "build bpftool and libbpf-dev packages" tool_debs
stage "configure the $flavour kernel (Debian's config + packaging/kernel.config)" configure
stage "build linux-image-$release and linux-headers-$release (bindeb-pkg)" kernel_debs
stage "build the meta-packages linux-image-tracing-multi-$flavour and linux-headers-tracing-multi-$flavour" meta_debs
rm -rf "$out"
mv "$new" "$out"
trap - EXIT
log "packages in ${out#"$TOP"/}:"
(cd "$out" && for d in *.deb; do
	printf '    %-70s %s\n' "$d" "$(du -h "$d" | cut -f1)"
done) >&2
