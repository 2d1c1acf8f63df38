// SPDX-License-Identifier: GPL-2.0
/* prog_run OBJECT [COUNT]: run a BPF program COUNT times (default 1) with
 * BPF_PROG_TEST_RUN and print its return value. OBJECT is a pinned program
 * or link in bpffs (a link runs the program it holds) or "id:N".
 *
 * For tracing programs the kernel's test run calls the bpf_fentry_test*
 * functions, which is how tests trigger fentry/fexit programs attached there.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

/* Whether fd is a link: its fdinfo says link_type (a program's says prog_type). */
static int is_link(int fd)
{
	char path[64], line[256];
	int link = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "link_type:", 10))
			link = 1;
	fclose(f);
	return link;
}

static int prog_fd_of(const char *what)
{
	struct bpf_link_info info = {};
	__u32 len = sizeof(info);
	int fd, pfd;

	if (!strncmp(what, "id:", 3))
		return bpf_prog_get_fd_by_id(strtoul(what + 3, NULL, 0));

	fd = bpf_obj_get(what);
	if (fd < 0 || !is_link(fd))
		return fd;
	if (bpf_link_get_info_by_fd(fd, &info, &len)) {
		close(fd);
		return -errno;
	}
	close(fd);
	pfd = bpf_prog_get_fd_by_id(info.prog_id);
	return pfd;
}

int main(int argc, char **argv)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	long i, count = argc > 2 ? strtol(argv[2], NULL, 0) : 1;
	int fd, err;

	if (argc < 2 || argc > 3 || count < 1) {
		fprintf(stderr, "usage: %s PINNED-PROG-OR-LINK|id:N [COUNT]\n", argv[0]);
		return 2;
	}
	fd = prog_fd_of(argv[1]);
	if (fd < 0) {
		fprintf(stderr, "prog_run: cannot get a program from %s: %s\n",
			argv[1], strerror(-fd));
		return 1;
	}
	for (i = 0; i < count; i++) {
		err = bpf_prog_test_run_opts(fd, &opts);
		if (err) {
			fprintf(stderr, "prog_run: BPF_PROG_TEST_RUN failed: %s\n",
				strerror(errno));
			return 1;
		}
	}
	printf("%u\n", opts.retval);
	return 0;
}
