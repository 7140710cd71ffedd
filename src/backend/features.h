/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the running kernel and the caller offer, for ptbpf_probe_features(). */
#ifndef PTBPF_BACKEND_FEATURES_H
#define PTBPF_BACKEND_FEATURES_H

#include <ptbpf/ptbpf.h>

/* Fill every field of f (sz included). */
void features__probe(struct ptbpf_features *f);

#endif
