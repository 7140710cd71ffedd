/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf record -u USER and -E VAR[=VAL]: who the command runs as and the
 * environment it gets, as strace's -u and -E. The ids are looked up before
 * the command is forked (its errors said then), and set in it before it
 * waits for tracing: the check that ptbpf may trace it sees it as it runs.
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/record.h"

/* UID:GID, numbers (strace 6.2's -u): 0, or -1 when it is not that form */
static int parse_ids(const char *user, uid_t *uid, gid_t *gid)
{
	unsigned long u, g;
	char *end;

	errno = 0;
	u = strtoul(user, &end, 10);
	if (errno || end == user || *end != ':' || user[0] == '-')
		return -1;
	user = end + 1;
	g = strtoul(user, &end, 10);
	if (errno || end == user || *end || user[0] == '-' || u >= (uid_t)-1 || g >= (gid_t)-1)
		return -1;
	*uid = (uid_t)u;
	*gid = (gid_t)g;
	return 0;
}

/* The supplementary groups of pw, as initgroups() sets them: 0 or -1. */
static int user_groups(struct child *c, const struct passwd *pw)
{
	int n = 16;

	for (;;) {
		gid_t *g = realloc(c->groups, (size_t)n * sizeof(*g));
		int got = n;

		if (!g)
			return -1;
		c->groups = g;
		if (getgrouplist(pw->pw_name, pw->pw_gid, g, &got) >= 0) {
			c->ngroups = got;
			return 0;
		}
		if (got <= n)
			got = n * 2;
		n = got;
	}
}

int child_user(struct child *c, const char *user)
{
	struct passwd *pw;

	if (getuid() != 0 || geteuid() != 0) {
		cli_err("-u %s: only root may run the command as another user", user);
		return CLI_EXIT_PERM;
	}
	c->set_user = 1;
	if (!parse_ids(user, &c->uid, &c->gid)) {
		/* strace's: no supplementary group but the group given */
		c->groups = malloc(sizeof(*c->groups));
		if (!c->groups)
			goto oom;
		c->groups[0] = c->gid;
		c->ngroups = 1;
		return 0;
	}
	errno = 0;
	pw = getpwnam(user);
	if (!pw) {
		cli_err("-u: cannot find user '%s'", user);
		return CLI_EXIT_USAGE;
	}
	c->uid = pw->pw_uid;
	c->gid = pw->pw_gid;
	if (!user_groups(c, pw))
		return 0;
oom:
	cli_err("out of memory");
	return CLI_EXIT_FAIL;
}

int child_user_env(const struct child *c)
{
	for (int i = 0; i < c->nenv; i++) {
		const char *eq = strchr(c->env[i], '=');

		/* the string is the command line's: kept until the exec */
		if (eq ? putenv((char *)c->env[i]) : unsetenv(c->env[i]))
			return -1;
	}
	if (!c->set_user)
		return 0;
	if (setgroups((size_t)c->ngroups, c->groups) || setresgid(c->gid, c->gid, c->gid) ||
	    setresuid(c->uid, c->uid, c->uid))
		return -1;
	return 0;
}
