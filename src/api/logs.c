/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The trace analyzer on trace logs: open, rewind, close. */
#include <errno.h>
#include <trace.h>

#include "api/api.h"
#include "core/logtrace.h"

int posix_trace_open(int fd, trace_id_t *trid)
{
	struct pt_logtrace *lt;
	int err;

	if (!trid)
		return EINVAL;
	if (fd < 0)
		return EBADF;
	err = logtrace__open(&lt, fd);
	if (err)
		return api_err(err);
	err = registry__add(TRACE_KIND_LOG, lt, 1, trid);
	if (err) {
		logtrace__close(lt);
		return api_err(err);
	}
	return 0;
}

int posix_trace_rewind(trace_id_t trid)
{
	struct api_ref r;
	int err;

	if (api_get(trid, TRACE_KIND_LOG, &r))
		return EINVAL;
	err = logtrace__rewind(r.obj);
	api_put(&r);
	return api_err(err);
}

int posix_trace_close(trace_id_t trid)
{
	void *obj;

	if (registry__remove(trid, TRACE_KIND_LOG, NULL, &obj))
		return EINVAL;
	logtrace__close(obj);
	return 0;
}
