// SPDX-License-Identifier: GPL-2.0
/*
 * tm_klp_multi: a live patch of four /proc show functions at once, for
 * tests/75-livepatch.bats (a tracing_multi link over several live patched
 * functions): each replacement prints "tm_klp_multi NAME" instead of the
 * file's usual text. On x86_64 also munlockall(2) (__do_sys_munlockall,
 * whose alias __x64_sys_munlockall the system call table calls), which
 * then fails with ENOTTY.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/livepatch.h>
#include <linux/seq_file.h>
#include <linux/ptrace.h>

#define TM_SHOW(name)							\
static int tm_##name##_proc_show(struct seq_file *m, void *v)		\
{									\
	seq_puts(m, "tm_klp_multi " #name "\n");			\
	return 0;							\
}

TM_SHOW(cmdline)
TM_SHOW(version)
TM_SHOW(loadavg)
TM_SHOW(uptime)

#ifdef CONFIG_X86_64
static long tm_munlockall(const struct pt_regs *regs)
{
	return -ENOTTY;
}
#endif

static struct klp_func funcs[] = {
	{ .old_name = "cmdline_proc_show", .new_func = tm_cmdline_proc_show },
	{ .old_name = "version_proc_show", .new_func = tm_version_proc_show },
	{ .old_name = "loadavg_proc_show", .new_func = tm_loadavg_proc_show },
	{ .old_name = "uptime_proc_show", .new_func = tm_uptime_proc_show },
#ifdef CONFIG_X86_64
	{ .old_name = "__do_sys_munlockall", .new_func = tm_munlockall },
#endif
	{ }
};

static struct klp_object objs[] = {
	{ .funcs = funcs },	/* vmlinux */
	{ }
};

static struct klp_patch patch = {
	.mod = THIS_MODULE,
	.objs = objs,
};

static int __init tm_klp_multi_init(void)
{
	return klp_enable_patch(&patch);
}

static void __exit tm_klp_multi_exit(void)
{
}

module_init(tm_klp_multi_init);
module_exit(tm_klp_multi_exit);
MODULE_LICENSE("GPL");
MODULE_INFO(livepatch, "Y");
MODULE_DESCRIPTION("Live patch of four /proc show functions and munlockall(2), for the tracing_multi tests");
