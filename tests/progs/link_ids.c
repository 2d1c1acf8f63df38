// SPDX-License-Identifier: GPL-2.0
/* link_ids: print the ids of all BPF links, one per line. What `bpftool
 * link list` would give, without loading BTF: tests call it around every
 * failing command to check no link was left behind.
 */
#include <stdio.h>
#include <bpf/bpf.h>

int main(void)
{
	__u32 id = 0;

	while (!bpf_link_get_next_id(id, &id))
		printf("%u\n", id);
	return 0;
}
