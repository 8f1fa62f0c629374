// SPDX-License-Identifier: MIT
/*
 * wsc info: what the loaded module offers.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cmd_info.h"
#include "common/args.h"
#include "common/env.h"
#include "common/json.h"
#include "common/module_hint.h"
#include "libwsc.h"

static void info_usage(FILE *f)
{
	fprintf(f, "Usage: wsc info [--json]\n\n"
		   "Show the loaded wsc module's version, ABI, limits and allowlist.\n\n"
		   "  -j, --json   print one JSON object\n"
		   "  -h, --help   show this help\n");
}

static void flags_text(unsigned int flags, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s",
		 flags & WSC_CALL_MAY_BLOCK ? "may-block" : "",
		 (flags & WSC_CALL_MAY_BLOCK) && (flags & WSC_CALL_RETURNS_FD) ? "," : "",
		 flags & WSC_CALL_RETURNS_FD ? "returns-fd" : "");
	if (!buf[0])
		snprintf(buf, len, "-");
}

struct info_opts {
	bool json;
};

/* 0: run; -1: done, exit 0 (--help); else the exit code. */
static int info_parse(struct info_opts *o, int argc, char **argv)
{
	static const struct option opts[] = { OPT_JSON, OPT_HELP, OPT_END };
	const struct opt_set set[] = {
		{ 'j', &o->json, NULL },
		{ 0 }
	};
	const struct opt_parser p = {
		.cmd = "info", .shortopts = ":jh", .longopts = opts, .set = set,
		.usage = info_usage, .no_operands = true,
	};

	return opt_parse(&p, argc, argv);
}

/*
 * How this process's batches would run now: "wrapped", or "as plain
 * calls (seccomp, audit)".  The switch: "everyone", "CAP_SYS_ADMIN and
 * group 27", "nobody".
 */
static void policy_text(const struct wsc_policy *p, char *runs, size_t rlen,
			char *who, size_t wlen)
{
	unsigned int bit;
	size_t n;

	if (!p->refused) {
		snprintf(runs, rlen, "wrapped");
	} else {
		n = snprintf(runs, rlen, "as plain system calls (refused:");
		for (bit = 1; bit && n < rlen; bit <<= 1) {
			if (p->refused & bit)
				n += snprintf(runs + n, rlen - n, " %s",
					      wsc_refusal_name(bit) ?: "?");
		}
		if (n < rlen)
			snprintf(runs + n, rlen - n, ")");
	}
	if (p->disabled == WSC_DISABLED_NONE)
		snprintf(who, wlen, "everyone");
	else if (p->disabled == WSC_DISABLED_ALL)
		snprintf(who, wlen, "nobody");
	else if (p->group == WSC_NO_GROUP)
		snprintf(who, wlen, "CAP_SYS_ADMIN only");
	else
		snprintf(who, wlen, "CAP_SYS_ADMIN and group %u", p->group);
}

/*
 * What wsc info --json says before its "calls": the module, the kernel,
 * and the policy (@pol NULL when the module would not tell).
 */
static struct json_object *info_json(const char *module_version,
				     const struct wsc_version *v,
				     const char *release,
				     const struct wsc_policy *pol,
				     const char *who)
{
	struct json_object *o = json_object_new_object();
	struct json_object *kernel = json_object_new_object();
	struct json_object *notes = json_object_new_array();
	struct json_object *policy = NULL;

	json_put(o, "module_version", json_new_str(module_version));
	json_put(o, "abi_version", json_new_u64(v->abi_version));
	json_put(o, "library_version", json_new_str(wsc_version()));
	json_put(o, "max_entries", json_new_u64(v->max_entries));
	json_put(o, "max_args", json_new_u64(WSC_MAX_ARGS));
	json_put(o, "entry_flags", json_new_u64(v->entry_flags));
	json_put(o, "submit_flags", json_new_u64(v->submit_flags));
	json_put(kernel, "release", json_new_str(release));
	json_put(kernel, "preempt_rt", json_new_flag(env_preempt_rt()));
	if (env_preempt_rt())
		json_object_array_add(notes, json_new_str(ENV_RT_SPINLOCK_NOTE));
	json_put(kernel, "notes", notes);
	json_put(o, "kernel", kernel);
	if (pol) {
		policy = json_object_new_object();
		json_put(policy, "refused", json_new_u64(pol->refused));
		json_put(policy, "runs", json_new_str(pol->refused ? "plain" :
						      "wrapped"));
		json_put(policy, "disabled", json_new_u64(pol->disabled));
		json_put(policy, "group", json_new_i64(pol->group == WSC_NO_GROUP ?
						       -1 : (int)pol->group));
		json_put(policy, "allowed", json_new_str(who));
	}
	json_put(o, "policy", policy);
	return o;
}

/* A row of the allowlist; "nr" -1 for the entry that runs no handler. */
static struct json_object *call_json(const struct wsc_call_info *ci,
				     const char *flags)
{
	struct json_object *o = json_object_new_object();

	json_put(o, "name", json_new_str(ci->name));
	json_put(o, "nr", json_new_i64(ci->nr == WSC_NR_NOP ? -1 : (int)ci->nr));
	json_put(o, "group", json_new_str(wsc_group_name(ci->group)));
	json_put(o, "flags", json_new_str(flags));
	return o;
}

static int info_run(const struct info_opts *o)
{
	char module_version[64];
	bool known_version, have_policy;
	char runs[128], who[64];
	struct wsc_policy pol;
	struct utsname uts;
	bool rt = env_preempt_rt();
	struct wsc_call_info ci;
	struct wsc_version v;
	struct json_object *doc = NULL, *calls = NULL;
	bool json = o->json;
	unsigned int i;
	int fd, ret;

	fd = wsc_device_open();
	if (fd < 0)
		return module_report("info", fd, false);
	ret = wsc_device_version(fd, &v);
	if (ret) {
		fprintf(stderr, "wsc info: version query failed: %s\n", strerror(-ret));
		close(fd);
		return 1;
	}

	have_policy = wsc_device_policy(fd, &pol) == 0;
	policy_text(&pol, runs, sizeof(runs), who, sizeof(who));

	if (uname(&uts))
		snprintf(uts.release, sizeof(uts.release), "?");
	known_version = env_module_version(module_version, sizeof(module_version));
	if (json) {
		doc = info_json(known_version ? module_version : NULL, &v,
				uts.release, have_policy ? &pol : NULL, who);
		calls = json_object_new_array();
		json_put(doc, "calls", calls);
	} else {
		printf("wsc module: %s, ABI %u (library %s, ABI %u)\n"
		       "kernel: %s%s\n",
		       known_version ? module_version : "version unknown",
		       v.abi_version, wsc_version(), WSC_ABI_VERSION,
		       uts.release, rt ? ", PREEMPT_RT" : "");
		if (rt)
			printf("note: %s\n", ENV_RT_SPINLOCK_NOTE);
		if (have_policy)
			printf("batches of this process run: %s\n"
			       "who may run batches wrapped: %s (module parameters disabled=%u, group=%d)\n",
			       runs, who, pol.disabled,
			       pol.group == WSC_NO_GROUP ? -1 : (int)pol.group);
		printf("limits: %u entries per batch, %u arguments per call\n"
		       "allowlist: %u entries\n\n%-16s %5s  %-9s %s\n",
		       v.max_entries, WSC_MAX_ARGS, v.nr_calls,
		       "call", "nr", "group", "flags");
	}

	for (i = 0; i < v.nr_calls; i++) {
		char flags[32];

		ret = wsc_device_call_info(fd, i, &ci);
		if (ret) {
			fprintf(stderr, "wsc info: row %u: %s\n", i, strerror(-ret));
			json_object_put(doc);
			close(fd);
			return 1;
		}
		ci.name[sizeof(ci.name) - 1] = '\0';
		flags_text(ci.flags, flags, sizeof(flags));
		if (json) {
			json_object_array_add(calls, call_json(&ci, flags));
		} else if (ci.nr == WSC_NR_NOP) {
			printf("%-16s %5s  %-9s %s\n", ci.name, "-",
			       wsc_group_name(ci.group), "runs no handler");
		} else {
			printf("%-16s %5u  %-9s %s\n", ci.name, ci.nr,
			       wsc_group_name(ci.group), flags);
		}
	}
	if (json)
		json_emit_line(stdout, doc);
	close(fd);
	return 0;
}

int cmd_info(int argc, char **argv)
{
	struct info_opts o = { 0 };
	int ret = info_parse(&o, argc, argv);

	if (ret)
		return ret < 0 ? 0 : ret;
	return info_run(&o);
}
