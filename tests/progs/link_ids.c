// SPDX-License-Identifier: GPL-2.0
/* link_ids: print the ids of all BPF links, one per line. What `bpftool
 * link list` would give, without loading BTF: tests call it around every
 * failing command to check no link was left behind.
 *
 * link_ids unsettled MS: wait up to MS milliseconds for a link that has an
 * id but is not settled yet (BPF_LINK_GET_FD_BY_ID gives EAGAIN: a
 * tracing_multi link while its trampolines are built), print its id; exit
 * status 1 if none showed up.
 * link_ids state ID: print "unsettled", "settled" or "gone".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>

static const char *state(__u32 id)
{
	int fd = bpf_link_get_fd_by_id(id);

	if (fd >= 0) {
		close(fd);
		return "settled";
	}
	return errno == EAGAIN ? "unsettled" : "gone";
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int wait_unsettled(long ms)
{
	double end = now_ms() + ms;
	__u32 id;

	do {
		for (id = 0; !bpf_link_get_next_id(id, &id);) {
			if (!strcmp(state(id), "unsettled")) {
				printf("%u\n", id);
				return 0;
			}
		}
	} while (now_ms() < end);
	fprintf(stderr, "link_ids: no unsettled link in %ld ms\n", ms);
	return 1;
}

int main(int argc, char **argv)
{
	__u32 id = 0;

	if (argc == 3 && !strcmp(argv[1], "unsettled"))
		return wait_unsettled(strtol(argv[2], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "state")) {
		printf("%s\n", state(strtoul(argv[2], NULL, 0)));
		return 0;
	}
	if (argc != 1) {
		fprintf(stderr, "usage: link_ids [unsettled MS | state ID]\n");
		return 2;
	}
	while (!bpf_link_get_next_id(id, &id))
		printf("%u\n", id);
	return 0;
}
