// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Probe specs (see <ptbpf/ptbpf.h>):
 *   uprobe:PATH:SYMBOL[+OFFSET][:TYPES]
 *   uretprobe:PATH:SYMBOL[:TYPE]
 *   usdt:PATH[:[PROVIDER:]NAME][:TYPES]
 * The parts after PATH may be left out for ptbpf_probe_list().
 */
#include "core/probe_spec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct probe_kind {
	const char *word;
	int kind;
	unsigned int max_types; /* the arguments it carries */
};

static const struct probe_kind kinds[] = {
	{ "uprobe", PTBPF_PROBE_UPROBE, 6 },
	{ "uretprobe", PTBPF_PROBE_URETPROBE, 1 },
	{ "usdt", PTBPF_PROBE_USDT, PTBPF_PROBE_ARGS_MAX },
};

static const char *const type_words[] = {
	[PTBPF_PROBE_ARG_INT] = "int",
	[PTBPF_PROBE_ARG_UINT] = "uint",
	[PTBPF_PROBE_ARG_HEX] = "hex",
	[PTBPF_PROBE_ARG_STR] = "str",
};

static const struct probe_kind *kind_of(int kind)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].kind == kind)
			return &kinds[i];
	return NULL;
}

static int copy_part(char *dst, size_t size, const char *s, size_t n)
{
	if (n >= size)
		return -EINVAL;
	memcpy(dst, s, n);
	dst[n] = 0;
	return 0;
}

/* TYPES: comma-separated type words, at most max of them. */
static int parse_types(struct ptbpf_probe_spec *p, const char *s, unsigned int max)
{
	p->ntypes = 0;
	while (*s) {
		size_t n = strcspn(s, ","), t;

		for (t = 1; t < sizeof(type_words) / sizeof(type_words[0]); t++)
			if (strlen(type_words[t]) == n && !strncmp(s, type_words[t], n))
				break;
		if (t == sizeof(type_words) / sizeof(type_words[0]) || p->ntypes >= max)
			return -EINVAL;
		p->types[p->ntypes++] = (unsigned char)t;
		s += n;
		if (*s && !*++s)
			return -EINVAL; /* a trailing comma */
	}
	return 0;
}

/* SYMBOL[+OFFSET] */
static int parse_symbol(struct ptbpf_probe_spec *p, const char *s, size_t n)
{
	const char *plus = memchr(s, '+', n);
	char *end;

	if (plus && p->kind != PTBPF_PROBE_UPROBE)
		return -EINVAL; /* a return has no offset */
	if (plus) {
		if (plus == s + n - 1)
			return -EINVAL;
		errno = 0;
		p->offset = strtoul(plus + 1, &end, 0);
		if (errno || end != s + n || plus[1] == '-')
			return -EINVAL;
		n = (size_t)(plus - s);
	}
	return copy_part(p->name, sizeof(p->name), s, n);
}

int probe_spec__parse(const char *spec, struct ptbpf_probe_spec *p)
{
	const struct probe_kind *k = NULL;
	const char *part[5], *s;
	size_t len[5], n = 0, i;
	int err;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		size_t w = strlen(kinds[i].word);

		if (!strncmp(spec, kinds[i].word, w) && spec[w] == ':') {
			k = &kinds[i];
			spec += w + 1;
			break;
		}
	}
	if (!k)
		return -EINVAL;
	p->kind = k->kind;
	for (s = spec;; s++) {
		if (n == 5)
			return -EINVAL;
		part[n] = s;
		s += strcspn(s, ":");
		len[n] = (size_t)(s - part[n]);
		if (!len[n])
			return -EINVAL;
		n++;
		if (!*s)
			break;
	}
	err = copy_part(p->path, sizeof(p->path), part[0], len[0]);
	if (err)
		return err;
	if (p->kind != PTBPF_PROBE_USDT) {
		if (n > 3)
			return -EINVAL;
		if (n > 1 && (err = parse_symbol(p, part[1], len[1])))
			return err;
		return n > 2 ? parse_types(p, part[2], k->max_types) : 0;
	}
	if (n > 4)
		return -EINVAL;
	if (n == 2)
		return copy_part(p->name, sizeof(p->name), part[1], len[1]);
	if (n >= 3) {
		err = copy_part(p->provider, sizeof(p->provider), part[1], len[1]);
		if (!err)
			err = copy_part(p->name, sizeof(p->name), part[2], len[2]);
		if (err)
			return err;
	}
	return n == 4 ? parse_types(p, part[3], k->max_types) : 0;
}

int probe_spec__type_name(const struct ptbpf_probe_spec *p, const char *prov, const char *match,
			  char *buf)
{
	const char *base = strrchr(p->path, '/') ? strrchr(p->path, '/') + 1 : p->path;
	char types[PTBPF_PROBE_ARGS_MAX * 5 + 2] = "", off[24] = "";
	size_t n;
	int w;

	for (unsigned int i = 0; i < p->ntypes; i++) {
		strcat(types, i ? "," : ":");
		strcat(types, type_words[p->types[i]]);
	}
	if (p->offset)
		snprintf(off, sizeof(off), "+%#lx", p->offset);
	if (p->kind == PTBPF_PROBE_USDT)
		w = snprintf(buf, TRACE_EVENT_NAME_MAX, "usdt:%s:%s:%s%s", base, prov, match,
			     types);
	else
		w = snprintf(buf, TRACE_EVENT_NAME_MAX, "%s:%s:%s%s%s", kind_of(p->kind)->word,
			     base, match, off, types);
	n = (size_t)w;
	return w < 0 || n >= TRACE_EVENT_NAME_MAX ? -ENAMETOOLONG : 0;
}

uint32_t probe_spec__str_mask(const struct ptbpf_probe_spec *p)
{
	uint32_t m = 0;

	for (unsigned int i = 0; i < p->ntypes; i++)
		if (p->types[i] == PTBPF_PROBE_ARG_STR)
			m |= 1u << i;
	return m;
}
