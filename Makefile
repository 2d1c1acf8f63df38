# tracing_multi for Debian 12's 6.12 kernel: build, boot and test.
#
#   make run             the demo, in a QEMU guest booted from the patched kernel
#   make test            the bats suite in the guest (TAP: build/test-results.tap)
#   make test-arm64      the same in an arm64 guest, cross-built (build/arm64/)
#   make bench-arm64     make bench's attach, memory and per-call figures on arm64
#   make shell           an interactive shell in the guest
#   make bench           attach/detach time against N, memory, per-call cost (+ plot),
#                        plain fentry against 6.12 without the series (make bench-base)
#   make latency         how long attaching everything keeps a real-time task waiting
#   make stress          the stress scenarios on a KASAN/lockdep/kmemleak kernel
#   make regress         6.12's ftrace, live-patch and BPF selftests: unpatched vs patched
#   make regress-arm64   upstream's tracing_multi selftests on the arm64 kernel
#   make tree            build/linux: Debian's source + the patch queues, as git commits
#   make export-patches  regenerate the patch queues from build/linux's commits
#   make lint            shellcheck and checkpatch
#   make deb             Debian packages for a host: kernel (FLAVOUR=cloud-amd64|amd64|cloud-arm64|arm64), bpftool, libbpf-dev
#   make repo            those packages in a signed apt repository, with meta-packages to follow
#   make deb-test        a stock Debian 12 host to them and back: apt, GRUB, upgrade, rollback
#   make follow          the queues against every linux-source-6.12 apt offers: applies, builds, test
#
# Every target installs what it needs first (make deps).

# The linux-source-6.12 version the queues are proven on. When Debian's
# archive no longer has it, scripts/kver.sh says so and picks the newest
# one the queues apply to; KVER_DEB=... on the command line overrides both.
KVER_PIN := 6.12.118-1~deb12u1
ifeq ($(origin KVER_DEB),undefined)
KVER_DEB := $(shell $(CURDIR)/scripts/kver.sh $(KVER_PIN))
endif
export KVER_DEB

TOP := $(CURDIR)
BUILD := $(TOP)/build
SCRIPTS := $(TOP)/scripts

.PHONY: all deps tree kernel tools testmod test-progs guest-deps \
	arm64-deps arm64-guest test-arm64 bench-arm64 \
	test run shell bench-kernel bench bench-base latency stress-kernel stress regress regress-arm64 export-patches lint clean distclean \
	deb-deps deb-test-deps deb repo deb-test follow

all: guest-deps

deps:
	@$(SCRIPTS)/deps.sh

deb-deps:
	@$(SCRIPTS)/deps.sh deb

deb-test-deps:
	@$(SCRIPTS)/deps.sh deb-test

tree: deps
	@$(SCRIPTS)/tree.sh

kernel: tree
	@$(SCRIPTS)/kernel.sh guest

tools: kernel
	@$(SCRIPTS)/tools.sh

testmod: kernel
	@$(SCRIPTS)/testmod.sh guest

test-progs: tools
	@$(MAKE) -s -C tests/progs BUILD=$(BUILD)
	@$(MAKE) -s -C examples BUILD=$(BUILD)

# Everything a guest run needs.
guest-deps: kernel tools testmod test-progs

# Guests have two vCPUs on one host thread: QEMU 7.2's multi-threaded TCG
# can run a stale translation of an int3 that a text poke already removed,
# an oops no kernel causes (docs/benchmarks.md, "Two vCPUs"); one thread
# never has. make test runs two such guests at once (scripts/test.sh).
# Neither target has a deadline: a slower or busier machine only takes
# longer; a guest is killed when it prints nothing for much longer than
# any step may take.
test: guest-deps
	@$(SCRIPTS)/test.sh

# make test-arm64: the queues cross-built for arm64 with Debian's
# gcc-aarch64-linux-gnu (kernel: qemu/config/arm64; bpftool, libbpf,
# bpf_testmod and the test programs), a root file system of Debian's arm64
# packages (scripts/rootfs-arm64.sh), and the bats suite in two arm64
# guests (qemu/run --arch arm64: QEMU's virt machine, TCG), everything in
# build/arm64. The x86_64-only tests say why they skip. Not part of make
# test.
arm64-deps:
	@$(SCRIPTS)/deps.sh arm64

arm64-guest: tree arm64-deps
	@$(SCRIPTS)/kernel.sh arm64
	@$(SCRIPTS)/testmod.sh arm64
	@$(SCRIPTS)/tools.sh arm64
	@$(SCRIPTS)/rootfs-arm64.sh
	@$(MAKE) -s -C tests/progs BUILD=$(BUILD)/arm64 LINUX=$(BUILD)/linux ARCH=arm64 \
		BPFTOOL=$(BUILD)/arm64/tools/bpftool/bootstrap/bpftool GUEST_INST=$(BUILD)/install
	@$(MAKE) -s -C examples BUILD=$(BUILD)/arm64 ARCH=arm64

test-arm64: arm64-guest
	@TM_ARCH=arm64 $(SCRIPTS)/test.sh

# make bench-arm64: make bench's two runs in arm64 guests booted from the
# arm64 kernel without lock checkers (build/arm64/bench/Image); the tables
# in build/arm64/bench-results.txt. 6.12 has no kprobe_multi on arm64:
# its figures show "-". No deadline: a guest is killed only when it
# prints nothing for 30 min.
bench-arm64: arm64-guest
	@$(SCRIPTS)/kernel.sh arm64-bench
	@bash -o pipefail -c '$(TOP)/qemu/run --arch arm64 --smp 1 --kernel $(BUILD)/arm64/bench/Image \
		--timeout 0 --idle-timeout 1800 --console $(BUILD)/arm64/bench/console.log -- \
		env BENCH_DATA=build/bench build/tests/bin/bench_attach | tee $(BUILD)/arm64/bench-results.txt'
	@bash -o pipefail -c '$(TOP)/qemu/run --arch arm64 --smp 1 --icount --kernel $(BUILD)/arm64/bench/Image \
		--timeout 0 --idle-timeout 1800 --console $(BUILD)/arm64/bench/console-icount.log -- \
		env BENCH_PER_CALL=icount build/tests/bin/bench_attach | tee -a $(BUILD)/arm64/bench-results.txt'
	@echo "==> make bench-arm64: build/arm64/bench-results.txt"

run: guest-deps
	@$(TOP)/qemu/run --tcg-thread single --timeout 0 --idle-timeout 1800 -- examples/demo

shell: guest-deps
	@$(TOP)/qemu/run --shell

# make bench: tests/progs/bench_attach.c in two guests booted from the bench
# kernel (no lock checkers), one vCPU each. The first times attach and
# detach against N (saved in build/bench/attach.dat, plotted to
# build/bench/attach.svg) and measures kernel memory per function; the
# second (qemu/run --icount: its clock counts instructions, so the figures
# repeat exactly) measures the per-call cost. Both tables go to
# build/bench-results.txt. One vCPU: with two, TCG turns every TLB flush
# into slow cross-vCPU work, and attaching anything to all functions trips
# a stray int3 oops now and then (kprobe_multi alone too, see
# docs/benchmarks.md).
bench-kernel: tree
	@$(SCRIPTS)/kernel.sh bench

bench: bench-kernel test-progs
	@rm -f $(BUILD)/bench/attach.dat $(BUILD)/bench/attach.svg
	@bash -o pipefail -c '$(TOP)/qemu/run --smp 1 --kernel $(BUILD)/bench/bzImage --timeout 3000 \
		--console $(BUILD)/bench/console.log -- \
		env BENCH_DATA=build/bench build/tests/bin/bench_attach | tee $(BUILD)/bench-results.txt'
	@bash -o pipefail -c '$(TOP)/qemu/run --smp 1 --icount --kernel $(BUILD)/bench/bzImage \
		--timeout 1800 --console $(BUILD)/bench/console-icount.log -- \
		env BENCH_PER_CALL=icount build/tests/bin/bench_attach | tee -a $(BUILD)/bench-results.txt'
	@gnuplot -c $(SCRIPTS)/bench-plot.gp $(BUILD)/bench/attach.dat $(BUILD)/bench/attach.svg
	@$(BENCH_BASE)
	@echo "==> make bench: build/bench-results.txt, build/bench-base-results.txt, plot build/bench/attach.svg"

# make bench-base: what plain fentry, fexit and fmod_ret programs add per
# call on the bench kernel against 6.12 without the series built from the
# same config (build/bench-base/bzImage), in one-vCPU guests booted by
# turns (scripts/bench-base.sh); the table in build/bench-base-results.txt.
# make bench ends with it. Wall clock: run it alone.
BENCH_BASE = $(SCRIPTS)/kernel.sh bench-base && $(SCRIPTS)/bench-base.sh
bench-base: bench-kernel test-progs
	@$(BENCH_BASE)

# The longest stretch an attach or detach on all traceable functions keeps a
# waiting real-time task off the CPU (bench_attach's BENCH_LATENCY mode; see
# docs/benchmarks.md, "Preemption latency").
latency: bench-kernel test-progs
	@$(TOP)/qemu/run --smp 1 --kernel $(BUILD)/bench/bzImage --timeout 3000 \
		--console $(BUILD)/bench/console.log -- env BENCH_LATENCY=1 build/tests/bin/bench_attach

# tests/stress/run in a guest booted from the stress kernel (guest config +
# KASAN, kmemleak, fault injection), two vCPUs on one host thread (QEMU 7.2's
# multi-threaded TCG trips a stray int3 on hot patched functions, see
# docs/benchmarks.md). pci=noacpi: under KASAN the ACPI interpreter is too
# slow for its 30 s loop timeout, and PCI interrupt routing from ACPI fails
# (no virtio, no root filesystem). Not part of make test. STRESS_SECONDS:
# how long the concurrency scenario runs.
STRESS_SECONDS ?= 120

stress-kernel: tree
	@$(SCRIPTS)/kernel.sh stress
	@$(SCRIPTS)/testmod.sh stress

stress: stress-kernel test-progs
	@$(TOP)/qemu/run --kernel $(BUILD)/stress/bzImage --smp 2 --mem 4G --tcg-thread single \
		--append pci=noacpi --timeout 5400 --console $(BUILD)/stress/console.log -- \
		tests/stress/run $(STRESS_SECONDS)

# The unpatched (base tag) and the patched tree built with one config (the
# guest's plus what 6.12's selftests ask for), each booted in turn to run
# that tree's ftracetest, live-patch selftests, BPF test_progs (upstream's
# tracing_multi tests too, on the patched one) and ftrace-ops benchmark
# (scripts/regress.sh, tests/regress/run). Not part of make test.
regress: tree
	@$(SCRIPTS)/regress.sh

# make regress-arm64: upstream's tracing_multi selftests (selftests/) on
# the patched kernel cross-built for arm64 with the selftests' config, in
# the arm64 guest; results in build/arm64/regress/report.md.
regress-arm64: tree arm64-guest
	@REGRESS_ARCH=arm64 $(SCRIPTS)/regress.sh trees config kernels test_progs upstream report

export-patches:
	@$(SCRIPTS)/export-patches.sh

# make deb: packages a Debian 12 host installs, in build/deb/FLAVOUR/
# (docs/install.md). FLAVOUR=cloud-amd64 (default) or amd64 picks Debian's
# config, cloud-arm64 or arm64 the same for arm64 hosts (cross-built);
# DEB_SUFFIX (default +tm1) ends every package version.
deb: tree deb-deps
	@$(SCRIPTS)/deb.sh

# make repo: the packages of make deb in a signed apt repository
# (build/repo, or REPO=dir), with the meta-packages a host follows; the
# key is made on first use outside the checkout (scripts/repo.sh).
repo: deb-deps
	@$(SCRIPTS)/repo.sh

# make deb-test: the road of a stock Debian 12 host (Debian's 6.1 kernel,
# booted by UEFI firmware and GRUB from its disk) to our kernel and back:
# apt from the signed repository, a one-time boot with grub-reboot, the
# checks (tests/deb/check), the default, an upgrade to a second build, a
# rollback to Debian's kernel and bpftool (scripts/deb-test.sh,
# tests/deb/road). Uses the packages of make deb and the built test programs
# (with an arm64 FLAVOUR, make test-arm64's, and the road ends after the
# checks).
deb-test: deb-test-deps $(if $(filter %arm64,$(FLAVOUR)),arm64-guest,test-progs)
	@$(SCRIPTS)/deb-test.sh

# make follow: every linux-source-6.12 apt offers (FOLLOW="V ..." names
# some), oldest first: does the queue apply, does the guest kernel build,
# and make test on the newest (FOLLOW_TEST=none skips it). One line per
# version, also in build/follow/report.txt (scripts/follow.sh).
follow: deps
	@$(SCRIPTS)/follow.sh

lint:
	@$(SCRIPTS)/lint.sh

# Keeps build/linux and build/repo (the builds a fleet was given).
clean:
	rm -rf $(BUILD)/kbuild $(BUILD)/tools $(BUILD)/tests $(BUILD)/install $(BUILD)/guest \
		$(BUILD)/bench $(BUILD)/stress $(BUILD)/testmod $(BUILD)/deb $(BUILD)/ccache-deb \
		$(BUILD)/deb-test $(BUILD)/follow $(BUILD)/ccache-follow $(BUILD)/kver $(BUILD)/kver.cache

# Also removes build/linux, with any commits not exported, and build/repo
# (the repository's key stays: it is not under build/).
distclean:
	rm -rf $(BUILD)
