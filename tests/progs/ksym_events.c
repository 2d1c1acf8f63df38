// SPDX-License-Identifier: GPL-2.0
/* ksym_events CMD [ARG...]: run CMD and print the BPF symbol events perf
 * saw meanwhile on every CPU (PERF_RECORD_KSYMBOL of type BPF), one line
 * each, in the order each CPU saw them:
 *
 *	register|unregister ADDRESS LENGTH NAME
 *
 * What `perf record` shows of BPF code: a profiler learns the names of
 * trampolines and programs from these records. Exits with CMD's status,
 * 2 if the events could not be opened or a CPU's buffer overflowed.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define DATA_PAGES 64

struct ring {
	int fd;
	struct perf_event_mmap_page *meta;
	char *data;
	size_t size;
};

struct ksymbol_record {
	struct perf_event_header header;
	__u64 addr;
	__u32 len;
	__u16 ksym_type;
	__u16 flags;
	char name[];
};

static int open_cpu(int cpu, struct ring *r, long page)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.ksymbol = 1,
		.watermark = 1,
		.wakeup_watermark = 1,
	};
	void *p;

	r->fd = syscall(SYS_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (r->fd < 0)
		return -1;
	r->size = DATA_PAGES * page;
	p = mmap(NULL, r->size + page, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (p == MAP_FAILED)
		return -1;
	r->meta = p;
	r->data = (char *)p + page;
	return 0;
}

/* Print the ring's BPF ksymbol records; -1 if records were lost. */
static int drain(struct ring *r)
{
	__u64 head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	__u64 tail = r->meta->data_tail;
	int lost = 0;

	while (tail < head) {
		size_t off = tail % r->size;
		struct perf_event_header h;
		union {
			struct ksymbol_record k;
			char raw[sizeof(struct ksymbol_record) + 512];
		} rec;
		size_t i;

		for (i = 0; i < sizeof(h); i++)
			((char *)&h)[i] = r->data[(off + i) % r->size];
		if (h.size > sizeof(rec) || h.size < sizeof(h))
			return -1;
		for (i = 0; i < h.size; i++)
			rec.raw[i] = r->data[(off + i) % r->size];
		rec.raw[h.size - 1] = '\0';
		if (h.type == PERF_RECORD_LOST)
			lost = 1;
		else if (h.type == PERF_RECORD_KSYMBOL &&
			 rec.k.ksym_type == PERF_RECORD_KSYMBOL_TYPE_BPF)
			printf("%s 0x%llx %u %s\n",
			       rec.k.flags & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER ?
			       "unregister" : "register",
			       (unsigned long long)rec.k.addr, rec.k.len, rec.k.name);
		tail += h.size;
	}
	__atomic_store_n(&r->meta->data_tail, tail, __ATOMIC_RELEASE);
	return lost ? -1 : 0;
}

int main(int argc, char **argv)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF), page = sysconf(_SC_PAGESIZE);
	struct ring *rings;
	int status, cpu, ret = 0;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: ksym_events CMD [ARG...]\n");
		return 2;
	}
	rings = calloc(ncpu, sizeof(*rings));
	if (!rings)
		return 2;
	for (cpu = 0; cpu < ncpu; cpu++)
		if (open_cpu(cpu, &rings[cpu], page) && errno != ENODEV) {
			fprintf(stderr, "ksym_events: perf_event_open on CPU %d: %s\n",
				cpu, strerror(errno));
			return 2;
		}
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 2;
	if (!pid) {
		execvp(argv[1], argv + 1);
		fprintf(stderr, "ksym_events: %s: %s\n", argv[1], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return 2;
	for (cpu = 0; cpu < ncpu; cpu++)
		if (rings[cpu].fd >= 0 && rings[cpu].meta && drain(&rings[cpu])) {
			fprintf(stderr, "ksym_events: CPU %d lost events\n", cpu);
			ret = 2;
		}
	if (ret)
		return ret;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
