// SPDX-License-Identifier: GPL-2.0
/* fill_tramp FUNC DIR: attach plain fentry programs to the vmlinux function
 * FUNC until its trampoline is full (the kernel answers E2BIG), pin the
 * links as DIR/1, DIR/2, ... and print how many there are. Removing DIR
 * detaches them. For tests of the per-trampoline program limit.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>
#include "plain_fentry.h"

int main(int argc, char **argv)
{
	struct btf *btf = btf__load_vmlinux_btf();
	char path[4096];
	int id, n, prog, link;

	if (argc != 3) {
		fprintf(stderr, "usage: fill_tramp FUNC DIR\n");
		return 2;
	}
	id = btf ? btf__find_by_name_kind(btf, argv[1], BTF_KIND_FUNC) : -1;
	if (id < 0) {
		fprintf(stderr, "fill_tramp: no function %s in vmlinux BTF\n", argv[1]);
		return 1;
	}
	for (n = 0;; n++) {
		prog = load_plain_fentry(id);
		if (prog < 0) {
			fprintf(stderr, "fill_tramp: load: %s\n", strerror(-prog));
			return 1;
		}
		link = bpf_link_create(prog, 0, BPF_TRACE_FENTRY, NULL);
		close(prog);
		if (link < 0 && errno == E2BIG)
			break;
		if (link < 0) {
			fprintf(stderr, "fill_tramp: link %d: %s\n", n + 1, strerror(errno));
			return 1;
		}
		snprintf(path, sizeof(path), "%s/%d", argv[2], n + 1);
		if (bpf_obj_pin(link, path)) {
			fprintf(stderr, "fill_tramp: pin %s: %s\n", path, strerror(errno));
			return 1;
		}
		close(link);
	}
	printf("%d\n", n);
	return 0;
}
