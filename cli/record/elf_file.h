/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reading a 64-bit little-endian ELF file mapped whole, every access
 * bounds-checked (the file may be anything): headers, sections, the
 * dynamic section's names and search paths, a USDT probe. ptbpf record
 * reads the command's and its libraries' with it.
 */
#ifndef PTBPF_CLI_ELF_FILE_H
#define PTBPF_CLI_ELF_FILE_H

#include <elf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct elf_file {
	const unsigned char *p;
	size_t len;
};

/* Map the regular file at path read-only (at least an ELF header long); 0 or -1. */
int elf_map(struct elf_file *f, const char *path);
void elf_unmap(struct elf_file *f);
/* The n bytes at off, or NULL if the file is shorter. */
const void *elf_at(const struct elf_file *f, uint64_t off, uint64_t n);
/* Copies the n bytes at off (a header may be anywhere: not aligned); 0 or -1. */
int elf_get(const struct elf_file *f, uint64_t off, void *to, size_t n);
/* The ELF header of a 64-bit little-endian file; 0 or -1. */
int elf_hdr(const struct elf_file *f, Elf64_Ehdr *h);
int elf_phdr(const struct elf_file *f, const Elf64_Ehdr *h, unsigned int i, Elf64_Phdr *ph);
int elf_shdr(const struct elf_file *f, const Elf64_Ehdr *h, unsigned int i, Elf64_Shdr *sh);
/* The file offset of the virtual address va (in a PT_LOAD, of n bytes in
 * the file), or -1. */
int64_t elf_offset_of(const struct elf_file *f, const Elf64_Ehdr *h, uint64_t va, uint64_t n);
/* The section named name; 0 or -1. */
int elf_section(const struct elf_file *f, const Elf64_Ehdr *h, const char *name, Elf64_Shdr *out);

/*
 * The file offsets of the USDT probe provider:name and of its semaphore,
 * from the file's .note.stapsdt (addresses adjusted as the note's base
 * says); 0, or -1 (none, or one without a semaphore).
 */
int elf_usdt_probe(const struct elf_file *f, const char *provider, const char *name,
		   uint64_t *pc_off, uint64_t *sem_off);

/* What the dynamic section says to the loader: the libraries and paths. */
#define ELF_DYN_NEEDED_MAX 64
struct elf_dyn {
	uint16_t type;	/* e_type: ET_EXEC, ET_DYN... */
	bool dynamic;	/* it has a PT_DYNAMIC */
	int64_t strtab; /* the file offset of its string table, -1: none */
	uint64_t strsz;
	uint64_t rpath; /* DT_RPATH, DT_RUNPATH: string table offsets, 0: none */
	uint64_t runpath;
	uint64_t needed[ELF_DYN_NEEDED_MAX]; /* DT_NEEDED, in order */
	int nneeded;
	bool more; /* more DT_NEEDED than needed[] holds */
};

/* The dynamic section of f; 0, or -1 if f is not an ELF file we read. */
int elf_dynamic(const struct elf_file *f, struct elf_dyn *d);
/* The string at offset off of the dynamic string table, NUL-terminated
 * within the file, or NULL. */
const char *elf_dynstr(const struct elf_file *f, const struct elf_dyn *d, uint64_t off);

#endif
