// SPDX-License-Identifier: MIT
/*
 * The environment a measurement was taken in: CPU, kernel, mitigations,
 * clocksource, emulation, hardware counters and the exact command line.
 * Recorded with every result, since a latency means little without the
 * machine and the kernel that gave it.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <libwsc.h>

#include "counters.h"
#include "env.h"
#include "json.h"

static int cmd_argc;
static char **cmd_argv;

void env_set_command(int argc, char **argv)
{
	/* A copy: getopt_long() reorders the array the subcommands parse. */
	cmd_argv = malloc(((size_t)argc + 1) * sizeof(*cmd_argv));
	if (!cmd_argv)
		cmd_argv = argv;
	else
		memcpy(cmd_argv, argv, ((size_t)argc + 1) * sizeof(*cmd_argv));
	cmd_argc = argc;
}

static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* The value of the first "key : value" line of /proc/cpuinfo. */
static void cpuinfo_field(const char *key, char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[4096];
	size_t klen = strlen(key);

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, key, klen) || !colon)
			continue;
		colon += 1 + (colon[1] == ' ');
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(buf, len, "%s", colon);
		break;
	}
	fclose(f);
}

/*
 * "qemu-tcg", "hypervisor" or "none", from what the guest sees: QEMU's
 * emulated CPUs name themselves in the model name, and a CPU that runs
 * under any hypervisor has the hypervisor flag (KVM's guests too, whose
 * model name is the host's).
 */
static const char *emulation(void)
{
	char flags[4096], model[256];

	cpuinfo_field("flags", flags, sizeof(flags));
	cpuinfo_field("model name", model, sizeof(model));
	if (strstr(model, "QEMU") || strstr(model, "TCG"))
		return "qemu-tcg";
	if (strstr(flags, " hypervisor"))
		return "hypervisor";
	return "none";
}

/*
 * Whether the measurements will get hardware counters: asked the way
 * they ask (common/counters.c's group, user and kernel mode), so that an
 * unprivileged user under perf_event_paranoid 2, whom a user-only probe
 * would let in, hears "not available" here as in the figures.  QEMU's
 * TCG offers no PMU, and many hosts hide theirs: say so, never guess.
 */
bool env_perf_counters_available(void)
{
	struct counter_group g;

	if (getenv("WSC_NO_PERF_COUNTERS"))
		return false;
	if (counter_group_open(&g, counters_bench, 1, NULL, 0))
		return false;
	counter_group_close(&g);
	return true;
}

/*
 * What the environment does to the meaning of the figures, as one
 * sentence under 100 columns; NULL on bare hardware with counters.
 * Under TCG every instruction is translated, so a time says little about
 * a real CPU, but variants measured side by side pay alike and their
 * ratio carries over; a hypervisor adds its exits to some calls and not
 * others.  Counters are named only where nothing else is said: an
 * emulator or a virtual machine rarely has them, and the header says.
 */
static const char *env_note(void)
{
	const char *emu = emulation();

	if (!strcmp(emu, "qemu-tcg"))
		return "times measured under an emulator (QEMU TCG): ratios, not absolute times, carry over";
	if (!strcmp(emu, "hypervisor"))
		return "times measured in a virtual machine (hypervisor flag): ratios carry over better than times";
	if (!env_perf_counters_available())
		return "no hardware counters here: times only, no counts of events";
	return NULL;
}

void env_print_note(FILE *f)
{
	const char *note = env_note();

	if (note)
		fprintf(f, "note: %s\n", note);
}

/* A PREEMPT_RT kernel says so in /sys/kernel/realtime. */
bool env_preempt_rt(void)
{
	char value[8];

	read_line("/sys/kernel/realtime", value, sizeof(value));
	return !strcmp(value, "1");
}

/*
 * The loaded module's own version, as its MODULE_VERSION() put it in
 * sysfs: the ABI number says what the module speaks, this says which
 * build answered (a DKMS rebuild, an older insmod).  False when wsc is
 * not loaded or the kernel shows no version.
 */
bool env_module_version(char *buf, size_t len)
{
	read_line("/sys/module/wsc/version", buf, len);
	return buf[0] != '\0';
}

/*
 * Whether this process's batches run wrapped, as the module says
 * (WSC_IOC_POLICY): 0 when they do, else the enum wsc_refusal reasons;
 * -1 when there is no module to ask.  A refused process's "wrapped"
 * figures are of plain calls: every report says so.
 */
static long wrapped_policy(void)
{
	struct wsc_policy p;
	int fd = wsc_device_open();
	long ret = -1;

	if (fd < 0)
		return -1;
	if (wsc_device_policy(fd, &p) == 0)
		ret = p.refused;
	close(fd);
	return ret;
}

/* "seccomp, audit": the reasons' names, into @buf. */
static void refusal_names(unsigned int refused, char *buf, size_t len,
			  const char *sep)
{
	unsigned int bit;
	size_t n = 0;

	buf[0] = '\0';
	for (bit = 1; bit && n < len; bit <<= 1) {
		if (!(refused & bit))
			continue;
		n += snprintf(buf + n, len - n, "%s%s", n ? sep : "",
			      wsc_refusal_name(bit) ?: "?");
	}
}

void env_print_text(FILE *f)
{
	struct utsname u;
	char model[256], clock[64], why[128];
	long policy;

	uname(&u);
	cpuinfo_field("model name", model, sizeof(model));
	read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		  clock, sizeof(clock));
	/* Two lines: the tables under them fit 100 columns, so do they. */
	fprintf(f, "# kernel %s%s, clocksource %s, CPU %s\n", u.release,
		env_preempt_rt() ? " (PREEMPT_RT)" : "", clock, model);
	fprintf(f, "# emulation %s, hardware counters %s\n", emulation(),
		env_perf_counters_available() ? "available" : "not available");
	policy = wrapped_policy();
	if (policy > 0) {
		refusal_names(policy, why, sizeof(why), ", ");
		fprintf(f, "# wrapped calls: refused (%s): the module runs none of this process's batches, libwsc made them as plain system calls, so the wrapped figures are of plain calls\n",
			why);
	}
}

/* Each file of the vulnerabilities folder and its line, by name. */
static struct json_object *vulnerabilities_json(void)
{
	const char *dir = "/sys/devices/system/cpu/vulnerabilities";
	struct json_object *o = json_object_new_object();
	struct dirent **names;
	char path[512], value[256];
	int i, n;

	n = scandir(dir, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
			read_line(path, value, sizeof(value));
			json_put(o, names[i]->d_name, json_new_str(value));
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	return o;
}

/* How the module treats this process's batches; null without a module. */
static struct json_object *wrapped_calls_json(void)
{
	struct json_object *o, *refused;
	long policy = wrapped_policy();
	unsigned int bit;

	if (policy < 0)
		return NULL;
	o = json_object_new_object();
	refused = json_object_new_array();
	for (bit = 1; bit; bit <<= 1)
		if (policy & bit)
			json_object_array_add(refused,
				json_new_str(wsc_refusal_name(bit) ?: "?"));
	json_put(o, "runs", json_new_str(policy ? "plain" : "wrapped"));
	json_put(o, "refused", refused);
	return o;
}

struct json_object *env_json(void)
{
	struct json_object *o = json_object_new_object(), *cmd;
	struct utsname u;
	char model[256], clock[64], date[32];
	struct tm tm;
	time_t now;
	int i;

	uname(&u);
	cpuinfo_field("model name", model, sizeof(model));
	read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		  clock, sizeof(clock));
	/* When and by which wsc: a figure's stamp says both (user/plot/wsc-plot). */
	now = time(NULL);
	if (!gmtime_r(&now, &tm) ||
	    !strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm))
		date[0] = '\0';
	json_put(o, "date", json_new_str(date));
	json_put(o, "wsc_version", json_new_str(WSC_VERSION));
	json_put(o, "kernel", json_new_str(u.release));
	json_put(o, "preempt_rt", json_new_flag(env_preempt_rt()));
	json_put(o, "cpu", json_new_str(model));
	json_put(o, "cpus", json_new_i64(sysconf(_SC_NPROCESSORS_ONLN)));
	json_put(o, "clocksource", json_new_str(clock));
	json_put(o, "emulation", json_new_str(emulation()));
	json_put(o, "hardware_counters",
		 json_new_flag(env_perf_counters_available()));
	json_put(o, "note", json_new_str(env_note()));
	json_put(o, "vulnerabilities", vulnerabilities_json());
	json_put(o, "wrapped_calls", wrapped_calls_json());
	cmd = json_object_new_array();
	for (i = 0; i < cmd_argc; i++)
		json_object_array_add(cmd, json_new_str(cmd_argv[i]));
	json_put(o, "command", cmd);
	return o;
}
