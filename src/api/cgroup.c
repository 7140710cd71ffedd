/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf_trace_add_cgroup(), ptbpf_trace_create_cgroup(): a cgroup's processes. */
#include <errno.h>
#include <ptbpf/ptbpf.h>

#include "api/api.h"
#include "core/cgroup.h"
#include "core/stream.h"

int ptbpf_cgroup_id(const char *path, uint64_t *id)
{
	if (!path || !id)
		return EINVAL;
	return api_err(cgroup__id(path, id));
}

int ptbpf_trace_create_cgroup(const char *path, const trace_attr_t *attr, int fd, trace_id_t *trid)
{
	uint64_t id;
	int err;

	if (!path || !trid)
		return EINVAL;
	/* before anything is loaded: a bad path leaves the log file as it was */
	err = cgroup__id(path, &id);
	if (err)
		return api_err(err);
	if (fd != -1 && (err = api_log_fd(fd)))
		return err;
	return api_create(-1, path, attr, fd, trid);
}

int ptbpf_trace_add_cgroup(trace_id_t trid, const char *path)
{
	struct api_ref r;
	int err;

	if (!path || api_get(trid, TRACE_KIND_ACTIVE, &r))
		return EINVAL;
	err = stream__add_cgroup(r.obj, path);
	api_put(&r);
	return api_err(err);
}
