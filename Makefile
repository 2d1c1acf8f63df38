# tracing_multi for Debian 12's 6.12 kernel: build, boot and test.
#
#   make run             the demo, in a QEMU guest booted from the patched kernel
#   make test            the bats suite in the guest (TAP: build/test-results.tap)
#   make shell           an interactive shell in the guest
#   make bench           attach/detach time against N, memory, per-call cost (+ plot)
#   make latency         how long attaching everything keeps a real-time task waiting
#   make stress          the stress scenarios on a KASAN/lockdep/kmemleak kernel
#   make regress         6.12's ftrace, live-patch and BPF selftests: unpatched vs patched
#   make tree            build/linux: Debian's source + the patch queues, as git commits
#   make export-patches  regenerate the patch queues from build/linux's commits
#   make lint            shellcheck and checkpatch
#   make deb             Debian packages for a host: kernel (FLAVOUR=cloud-amd64|amd64), bpftool, libbpf-dev
#   make deb-test        those packages installed with apt on Debian 12, booted in QEMU, checked
#
# Every target installs what it needs first (make deps).

KVER_DEB ?= 6.12.118-1~deb12u1
export KVER_DEB

TOP := $(CURDIR)
BUILD := $(TOP)/build
SCRIPTS := $(TOP)/scripts

.PHONY: all deps tree kernel tools testmod test-progs guest-deps \
	test run shell bench-kernel bench latency stress-kernel stress regress export-patches lint clean distclean \
	deb-deps deb-test-deps deb deb-test

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
	@echo "==> make bench: build/bench-results.txt, plot build/bench/attach.svg"

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

export-patches:
	@$(SCRIPTS)/export-patches.sh

# make deb: packages a Debian 12 host installs, in build/deb/FLAVOUR/
# (docs/install.md). FLAVOUR=cloud-amd64 (default) or amd64 picks Debian's
# config; DEB_SUFFIX (default +tm1) ends every package version.
deb: tree deb-deps
	@$(SCRIPTS)/deb.sh

# make deb-test: a Debian 12 root file system (mmdebstrap) with Debian's
# kernel and bpftool, our packages of make deb installed into it with apt,
# booted from our kernel in its /boot; demo and bats files inside
# (tests/deb/check). Uses the built test programs, not the packages' build.
deb-test: deb-test-deps test-progs
	@$(SCRIPTS)/deb-test.sh

lint:
	@$(SCRIPTS)/lint.sh

clean:
	rm -rf $(BUILD)/kbuild $(BUILD)/tools $(BUILD)/tests $(BUILD)/install $(BUILD)/guest \
		$(BUILD)/bench $(BUILD)/stress $(BUILD)/testmod $(BUILD)/deb $(BUILD)/ccache-deb

# Also removes build/linux, with any commits not exported.
distclean:
	rm -rf $(BUILD)
