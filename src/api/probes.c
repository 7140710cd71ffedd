// SPDX-License-Identifier: LGPL-2.1-or-later
/* ptbpf_probe_* and ptbpf_trace_add_probe: probes of unmodified programs. */
#include <errno.h>
#include <ptbpf/ptbpf.h>

#include "api/api.h"
#include "core/probe_spec.h"
#include "core/probes.h"

int ptbpf_probe_parse(const char *spec, struct ptbpf_probe_spec *p)
{
	if (!spec || !p)
		return EINVAL;
	return api_err(probe_spec__parse(spec, p));
}

int ptbpf_probe_resolve(const char *path, pid_t pid, char *buf, size_t size)
{
	if (!path || !buf || pid < 0)
		return EINVAL;
	return api_err(probes__resolve(path, pid, buf, size));
}

int ptbpf_probe_list(const char *spec, pid_t pid, ptbpf_probe_list_fn fn, void *ctx)
{
	if (!spec || !fn || pid < 0)
		return EINVAL;
	return api_err(probes__list(spec, pid, fn, ctx));
}

int ptbpf_trace_add_probe(trace_id_t trid, const char *spec, trace_event_id_t *ids, size_t max,
			  size_t *count)
{
	uint32_t v[PTBPF_PROBE_MATCH_MAX];
	struct api_ref r;
	size_t n = 0;
	int err;

	if (!spec || !ids || !max || !count || api_get(trid, TRACE_KIND_ACTIVE, &r))
		return EINVAL;
	err = stream__add_probe(r.obj, spec, v, max, &n);
	api_put(&r);
	for (size_t i = 0; i < n; i++)
		ids[i] = v[i];
	*count = n;
	return api_err(err);
}
