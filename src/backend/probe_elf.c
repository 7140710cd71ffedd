// SPDX-License-Identifier: LGPL-2.1-or-later
/* Function symbols and USDT notes of a binary, with libelf (see probe_elf.h). */
#include "backend/probe_elf.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Names collected from a file, to be sorted and walked once each. */
struct names {
	char **v;
	size_t n, cap;
};

/* a and b (a provider and a name; b NULL: "") as one allocation */
static int names__add(struct names *ns, const char *a, const char *b)
{
	size_t la = strlen(a), lb = b ? strlen(b) + 1 : 1;
	char *s;

	if (ns->n == ns->cap) {
		size_t cap = ns->cap ? 2 * ns->cap : 256;
		char **v = realloc(ns->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		ns->v = v;
		ns->cap = cap;
	}
	s = malloc(la + 1 + lb);
	if (!s)
		return -ENOMEM;
	memcpy(s, a, la + 1);
	memcpy(s + la + 1, b ? b : "", lb);
	ns->v[ns->n++] = s;
	return 0;
}

static void names__free(struct names *ns)
{
	for (size_t i = 0; i < ns->n; i++)
		free(ns->v[i]);
	free(ns->v);
}

static int names__cmp(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	int c = strcmp(x, y);

	return c ? c : strcmp(x + strlen(x) + 1, y + strlen(y) + 1);
}

/* An opened ELF file. */
struct elf_file {
	int fd;
	Elf *elf;
};

static int elf_file__open(struct elf_file *f, const char *path)
{
	f->elf = NULL;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOEXEC;
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0)
		return -errno;
	f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF) {
		if (f->elf)
			elf_end(f->elf);
		close(f->fd);
		return -ENOEXEC;
	}
	return 0;
}

static void elf_file__close(struct elf_file *f)
{
	elf_end(f->elf);
	close(f->fd);
}

/* The defined function symbols of one symbol table section. */
static int symtab_names(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, struct names *ns)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t n;
	int err;

	if (!d || !sh->sh_entsize)
		return 0;
	n = sh->sh_size / sh->sh_entsize;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(d, (int)i, &sym))
			break;
		if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_shndx == SHN_UNDEF ||
		    !sym.st_value)
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		err = names__add(ns, name, NULL);
		if (err)
			return err;
	}
	return 0;
}

int probe_elf__parse_stapsdt(const void *desc, size_t len, size_t addr_size, const char **provider,
			     const char **name)
{
	const char *p = desc, *end = p + len, *z;

	if (addr_size != 4 && addr_size != 8)
		return -EINVAL;
	if (len < 3 * addr_size)
		return -EINVAL;
	p += 3 * addr_size;
	z = memchr(p, 0, (size_t)(end - p));
	if (!z)
		return -EINVAL;
	*provider = p;
	p = z + 1;
	z = memchr(p, 0, (size_t)(end - p));
	if (!z || !**provider || z == p)
		return -EINVAL;
	*name = p;
	return 0;
}

/* The USDT probes of the .note.stapsdt section scn. */
static int stapsdt_names(Elf *elf, Elf_Scn *scn, struct names *ns)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t off = 0, noff, doff, asz = gelf_getclass(elf) == ELFCLASS32 ? 4 : 8;
	GElf_Nhdr nh;
	int err;

	if (!d)
		return 0;
	while ((off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
		const char *prov, *name;

		if (nh.n_type != 3 /* NT_STAPSDT */ || nh.n_namesz != 8 ||
		    memcmp((const char *)d->d_buf + noff, "stapsdt", 8))
			continue;
		if (probe_elf__parse_stapsdt((const char *)d->d_buf + doff, nh.n_descsz, asz, &prov,
					     &name))
			continue;
		err = names__add(ns, prov, name);
		if (err)
			return err;
	}
	return 0;
}

/* Collect the names of path's symbols (usdt false) or USDT probes. */
static int collect(const char *path, bool usdt, struct names *ns)
{
	struct elf_file f;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	int err = elf_file__open(&f, path);

	if (err)
		return err;
	if (elf_getshdrstrndx(f.elf, &shstrndx)) {
		elf_file__close(&f);
		return -ENOEXEC;
	}
	while (!err && (scn = elf_nextscn(f.elf, scn))) {
		GElf_Shdr sh;
		const char *sname;

		if (!gelf_getshdr(scn, &sh))
			continue;
		if (!usdt && (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM)) {
			err = symtab_names(f.elf, scn, &sh, ns);
			continue;
		}
		sname = elf_strptr(f.elf, shstrndx, sh.sh_name);
		if (usdt && sh.sh_type == SHT_NOTE && sname && !strcmp(sname, ".note.stapsdt"))
			err = stapsdt_names(f.elf, scn, ns);
	}
	elf_file__close(&f);
	if (!err && ns->n)
		qsort(ns->v, ns->n, sizeof(*ns->v), names__cmp);
	return err;
}

int probe_elf__symbols(const char *path, int (*fn)(void *ctx, const char *name), void *ctx)
{
	struct names ns = { 0 };
	int err = collect(path, false, &ns);

	for (size_t i = 0; !err && i < ns.n; i++)
		if (!i || strcmp(ns.v[i], ns.v[i - 1]))
			err = fn(ctx, ns.v[i]);
	names__free(&ns);
	return err;
}

int probe_elf__usdt(const char *path, int (*fn)(void *ctx, const char *provider, const char *name),
		    void *ctx)
{
	struct names ns = { 0 };
	int err = collect(path, true, &ns);

	for (size_t i = 0; !err && i < ns.n; i++) {
		const char *v = ns.v[i];

		if (!i || names__cmp(&ns.v[i], &ns.v[i - 1]))
			err = fn(ctx, v, v + strlen(v) + 1);
	}
	names__free(&ns);
	return err;
}
