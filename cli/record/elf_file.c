// SPDX-License-Identifier: LGPL-2.1-or-later
/* Reading a 64-bit little-endian ELF file mapped whole: see elf_file.h. */
#include "record/elf_file.h"

#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int elf_map(struct elf_file *f, const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	f->p = MAP_FAILED;
	if (fd < 0)
		return -1;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size >= (off_t)sizeof(Elf64_Ehdr))
		f->p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (f->p == MAP_FAILED)
		return -1;
	f->len = st.st_size;
	return 0;
}

void elf_unmap(struct elf_file *f)
{
	if (f->p != MAP_FAILED)
		munmap((void *)f->p, f->len);
}

/* The n bytes at off, or NULL if the file is shorter. */
const void *elf_at(const struct elf_file *f, uint64_t off, uint64_t n)
{
	if (off > f->len || n > f->len - off)
		return NULL;
	return f->p + off;
}

/* Copies the n bytes at off (a header may be anywhere: not aligned); 0 or -1. */
int elf_get(const struct elf_file *f, uint64_t off, void *to, size_t n)
{
	const void *at = elf_at(f, off, n);

	if (!at)
		return -1;
	memcpy(to, at, n);
	return 0;
}

/* The ELF header of a 64-bit little-endian file; 0 or -1. */
int elf_hdr(const struct elf_file *f, Elf64_Ehdr *h)
{
	if (elf_get(f, 0, h, sizeof(*h)) || memcmp(h->e_ident, ELFMAG, SELFMAG) ||
	    h->e_ident[EI_CLASS] != ELFCLASS64 || h->e_ident[EI_DATA] != ELFDATA2LSB ||
	    (h->e_phnum && h->e_phentsize != sizeof(Elf64_Phdr)) ||
	    (h->e_shnum && h->e_shentsize != sizeof(Elf64_Shdr)))
		return -1;
	return 0;
}

int elf_phdr(const struct elf_file *f, const Elf64_Ehdr *h, unsigned int i, Elf64_Phdr *ph)
{
	return elf_get(f, h->e_phoff + (uint64_t)i * sizeof(*ph), ph, sizeof(*ph));
}

int elf_shdr(const struct elf_file *f, const Elf64_Ehdr *h, unsigned int i, Elf64_Shdr *sh)
{
	return elf_get(f, h->e_shoff + (uint64_t)i * sizeof(*sh), sh, sizeof(*sh));
}

/* The file offset of the virtual address va (in a PT_LOAD, of n bytes in
 * the file), or -1. */
int64_t elf_offset_of(const struct elf_file *f, const Elf64_Ehdr *h, uint64_t va, uint64_t n)
{
	Elf64_Phdr ph;
	unsigned int i;

	for (i = 0; i < h->e_phnum; i++) {
		if (elf_phdr(f, h, i, &ph) || ph.p_type != PT_LOAD || va < ph.p_vaddr ||
		    va - ph.p_vaddr >= ph.p_filesz || n > ph.p_filesz - (va - ph.p_vaddr) ||
		    !elf_at(f, ph.p_offset + (va - ph.p_vaddr), n))
			continue;
		return (int64_t)(va - ph.p_vaddr + ph.p_offset);
	}
	return -1;
}

/* The section named name; 0 or -1. */
int elf_section(const struct elf_file *f, const Elf64_Ehdr *h, const char *name, Elf64_Shdr *out)
{
	size_t len = strlen(name) + 1;
	Elf64_Shdr strs;
	unsigned int i;

	if (h->e_shstrndx >= h->e_shnum || elf_shdr(f, h, h->e_shstrndx, &strs))
		return -1;
	for (i = 0; i < h->e_shnum; i++) {
		const char *n;

		if (elf_shdr(f, h, i, out) || out->sh_name >= strs.sh_size)
			continue;
		n = elf_at(f, strs.sh_offset + (uint64_t)out->sh_name, len);
		if (n && !memcmp(n, name, len))
			return 0;
	}
	return -1;
}

int elf_usdt_probe(const struct elf_file *f, const char *provider, const char *name,
		   uint64_t *pc_off, uint64_t *sem_off)
{
	size_t lp = strlen(provider) + 1, ln = strlen(name) + 1;
	Elf64_Shdr notes, base;
	Elf64_Ehdr h;
	uint64_t off, end;
	int have_base;

	if (elf_hdr(f, &h) || elf_section(f, &h, ".note.stapsdt", &notes) ||
	    !elf_at(f, notes.sh_offset, notes.sh_size))
		return -1;
	have_base = !elf_section(f, &h, ".stapsdt.base", &base);
	end = notes.sh_offset + notes.sh_size;
	for (off = notes.sh_offset; off + sizeof(Elf64_Nhdr) <= end;) {
		uint64_t name_at = off + sizeof(Elf64_Nhdr), desc_at, a[3];
		const char *desc, *owner;
		int64_t pc, sem;
		Elf64_Nhdr n;

		if (elf_get(f, off, &n, sizeof(n)))
			return -1;
		desc_at = name_at + (((uint64_t)n.n_namesz + 3) & ~3ull);
		desc = elf_at(f, desc_at, n.n_descsz);
		owner = elf_at(f, name_at, n.n_namesz);
		off = desc_at + (((uint64_t)n.n_descsz + 3) & ~3ull);
		if (!desc || !owner || desc_at + n.n_descsz > end || n.n_type != 3 ||
		    n.n_namesz != sizeof("stapsdt") ||
		    memcmp(owner, "stapsdt", sizeof("stapsdt")) || n.n_descsz < sizeof(a) + lp + ln)
			continue;
		/* pc, base, semaphore, then "provider\0name\0args\0" */
		memcpy(a, desc, sizeof(a));
		if (memcmp(desc + sizeof(a), provider, lp) ||
		    memcmp(desc + sizeof(a) + lp, name, ln) || !a[2])
			continue;
		if (have_base && base.sh_addr != a[1]) {
			a[0] += base.sh_addr - a[1];
			a[2] += base.sh_addr - a[1];
		}
		pc = elf_offset_of(f, &h, a[0], 1);
		sem = elf_offset_of(f, &h, a[2], sizeof(unsigned short));
		if (pc < 0 || sem < 0)
			return -1;
		*pc_off = (uint64_t)pc;
		*sem_off = (uint64_t)sem;
		return 0;
	}
	return -1;
}

int elf_dynamic(const struct elf_file *f, struct elf_dyn *d)
{
	uint64_t strtab = 0;
	Elf64_Ehdr h;
	Elf64_Phdr ph;
	Elf64_Dyn e;

	memset(d, 0, sizeof(*d));
	d->strtab = -1;
	if (elf_hdr(f, &h))
		return -1;
	d->type = h.e_type;
	for (unsigned int i = 0; i < h.e_phnum; i++) {
		if (elf_phdr(f, &h, i, &ph) || ph.p_type != PT_DYNAMIC)
			continue;
		d->dynamic = true;
		for (uint64_t k = 0; k < ph.p_filesz / sizeof(e); k++) {
			if (elf_get(f, ph.p_offset + k * sizeof(e), &e, sizeof(e)) ||
			    e.d_tag == DT_NULL)
				break;
			if (e.d_tag == DT_STRTAB)
				strtab = e.d_un.d_ptr;
			else if (e.d_tag == DT_STRSZ)
				d->strsz = e.d_un.d_val;
			else if (e.d_tag == DT_RPATH)
				d->rpath = e.d_un.d_val;
			else if (e.d_tag == DT_RUNPATH)
				d->runpath = e.d_un.d_val;
			else if (e.d_tag == DT_NEEDED && d->nneeded < ELF_DYN_NEEDED_MAX)
				d->needed[d->nneeded++] = e.d_un.d_val;
			else if (e.d_tag == DT_NEEDED)
				d->more = true;
		}
		break;
	}
	if (strtab)
		d->strtab = elf_offset_of(f, &h, strtab, 1);
	return 0;
}

const char *elf_dynstr(const struct elf_file *f, const struct elf_dyn *d, uint64_t off)
{
	const char *s;

	if (d->strtab < 0 || off >= d->strsz)
		return NULL;
	s = elf_at(f, (uint64_t)d->strtab + off, 1);
	return s && memchr(s, '\0', f->len - ((uint64_t)d->strtab + off)) ? s : NULL;
}
