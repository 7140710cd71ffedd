/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "itest.h"

#include <dirent.h>
#include <ptbpf/ptbpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool in_ci(void)
{
	const char *ci = getenv("CI");

	return ci && (!strcmp(ci, "true") || !strcmp(ci, "1"));
}

void itest_require_bpf(void)
{
	struct ptbpf_features f = { .sz = sizeof(f) };
	const char *why = NULL;

	if (ptbpf_probe_features(&f))
		why = "feature probe failed";
	else if (!f.btf)
		why = "no BTF at /sys/kernel/btf/vmlinux";
	else if (!f.ringbuf || !f.tp_btf)
		why = "kernel lacks BPF ring buffer or tp_btf";
	else if (!f.bpf_load_ok)
		why = "cannot load BPF programs (need root or CAP_BPF+CAP_PERFMON)";
	if (!why)
		return;
	if (in_ci()) {
		fprintf(stderr, "FAIL: CI=true but BPF is unusable: %s\n", why);
		exit(1);
	}
	fprintf(stderr, "SKIP: %s (run ptbpf info)\n", why);
	exit(ITEST_SKIP);
}

const char *itest_prog(const char *name)
{
	static char path[4096];
	const char *dir = getenv("PTBPF_PROGS_DIR"); /* the programs copied elsewhere */

	snprintf(path, sizeof(path), "%s/%s", dir && *dir ? dir : PTBPF_PROGS_DIR, name);
	return path;
}

pid_t itest_thread(const char *name)
{
	char path[300], comm[32];
	struct dirent *de;
	int tries;

	for (tries = 0; tries < 200; tries++) {
		DIR *d = opendir("/proc/self/task");

		while (d && (de = readdir(d))) {
			FILE *f;

			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/proc/self/task/%s/comm", de->d_name);
			f = fopen(path, "r");
			if (!f)
				continue;
			if (fgets(comm, sizeof(comm), f)) {
				comm[strcspn(comm, "\n")] = 0;
				if (!strcmp(comm, name)) {
					pid_t tid = atoi(de->d_name);

					fclose(f);
					closedir(d);
					return tid;
				}
			}
			fclose(f);
		}
		if (d)
			closedir(d);
		usleep(10000);
	}
	return 0;
}
