#!/usr/bin/env bash
# make lint: shellcheck on every shell script and bats file of the project,
# checkpatch and the provenance check on every patch of the queues.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

cd "$TOP"
mapfile -t shells < <(git ls-files | while read -r f; do
	case $f in
	*.sh | *.bash | *.bats) echo "$f" ;;
	*) head -n1 "$f" 2>/dev/null | grep -qE '^#!.*\b(bash|sh)\b' && echo "$f" ;;
	esac
done)
log "shellcheck: ${#shells[@]} files"
shellcheck -x "${shells[@]}"
# A bare `wait` in a test also waits for the watchdog of its time limit
# (tests/helpers.bash), so it would only end at the limit.
if grep -nE '(^|[;&|]|then|do)[[:space:]]*wait[[:space:]]*($|;|&&|\|\|)' tests/*.bats tests/helpers.bash; then
	die "tests: wait for a job by its pid (wait \"\$pid\"), not for all of them"
fi

[[ -x $LINUX/scripts/checkpatch.pl ]] || die "no build/linux: run make tree first"
# stdin, checkpatch's report, has only SPACING errors on unnamed bit-fields.
bitfield_spacing_only() {
	awk '/^(ERROR|WARNING|CHECK):/ { n++; type = $1 }
	     /^#[0-9]+: FILE:/ { getline src
		if (type == "ERROR:SPACING:" && src ~ /^\+[ \t]+[a-z_0-9]+ :[0-9]+;$/) ok++ }
	     END { exit !(n > 0 && n == ok) }'
}

rc=0
for q in "${QUEUES[@]}"; do
	while read -r p; do
		[[ -z $p || $p == \#* ]] && continue
		# The sign-off (the team's, and only it) is the provenance
		# check's (scripts/provenance.py): checkpatch runs with
		# --no-signoff.
		# From inside build/linux: run from this checkout, checkpatch
		# would take the patch for a file of our own git tree.
		# UNKNOWN_COMMIT_ID: commit messages cite upstream 7.2 commits,
		# which Debian's 6.12 tree does not have.
		# LONG_LINE_STRING: a user-visible message stays on one line to
		# be grep-able (coding-style.rst), as upstream's are.
		ignore=FILE_PATH_CHANGES,GIT_COMMIT_ID,COMMIT_LOG_LONG_LINE,UNKNOWN_COMMIT_ID,LONG_LINE_STRING
		# selftests/ carries upstream's tests as upstream wrote them: BPF
		# programs declare kernel symbols as "extern ... __ksym" (which
		# checkpatch also misreads as "foo1 bar" pointer spacing), and
		# long ASSERT lines are the selftests' style. After such a
		# declaration of bpf_fentry_test1 it also takes the "&&" of
		# "err == 0 && a == 1" in tracing_multi_check.c for a unary one
		# (SPACING). Session programs keep their cookie pointer volatile,
		# as upstream's do (VOLATILE).
		[[ $q != selftests ]] ||
			ignore+=,AVOID_EXTERNS,POINTER_LOCATION,LONG_LINE,LINE_SPACING,SPACING,VOLATILE
		# bpftool's skeleton programs (skeleton/*.bpf.c) take their
		# settings in "const volatile" globals, libbpf's way to a
		# .rodata the verifier knows and the compiler doesn't fold, as
		# upstream's pid_iter.bpf.c and profiler.bpf.c do (VOLATILE).
		[[ $q != bpftool ]] || ignore+=,VOLATILE
		# /usr/bin first: Debian's python3 has the modules spdxcheck.py
		# needs (a pyenv or venv python3 earlier on PATH may not).
		out=$(cd "$LINUX" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --quiet --no-signoff --show-types \
			--ignore "$ignore" "$TOP/$q/$p") && continue
		# Unnamed bit-fields ("__u32 :32;" in UAPI structs, "size_t :0;"
		# closing libbpf's opts structs) are written so upstream;
		# checkpatch takes their ':' for misplaced. Only those may fail.
		if ! bitfield_spacing_only <<<"$out"; then
			printf '%s\n  in %s/%s\n' "$out" "$q" "$p" >&2
			rc=1
		fi
	done <"$q/series"
done
# Where each patch comes from (adapted from upstream's diff, written from
# its description, or ours), the team's authorship, and each queue's
# PROVENANCE.md saying the same (scripts/provenance.py).
/usr/bin/python3 "$TOP/scripts/provenance.py" || rc=1
((rc == 0)) && log "lint: clean"
exit "$rc"
