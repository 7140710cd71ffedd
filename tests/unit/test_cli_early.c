// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ptbpf record's reader of libposixtrace files (cli/record_early.c,
 * cli/elf_file.c): the probe ptbpf:early and its semaphore found in the
 * library just built, its dynamic section's names, and a file cut short or
 * with its fields overwritten read without a crash; which commands need
 * the library (early_needed).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../cli/record/elf_file.c"
#include "../../cli/record/early.c"

static unsigned char *lib;
static size_t lib_len;

static int setup(void **state)
{
	FILE *f = fopen(PTBPF_LIB, "rb");

	(void)state;
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	lib_len = (size_t)ftell(f);
	rewind(f);
	lib = malloc(lib_len);
	assert_non_null(lib);
	assert_int_equal(fread(lib, 1, lib_len, f), lib_len);
	fclose(f);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(lib);
	return 0;
}

/* The probe is a nop in the constructor; the semaphore two bytes of .probes. */
static void test_finds_probe(void **state)
{
	struct elf_file f = { lib, lib_len };
	uint64_t pc = 0, sem = 0;

	(void)state;
	assert_int_equal(elf_usdt_probe(&f, "ptbpf", "early", &pc, &sem), 0);
	assert_true(pc < lib_len && sem + 2 <= lib_len);
	assert_int_equal(lib[pc], 0x90);	      /* x86-64 nop (the only target built here) */
	assert_int_equal(lib[sem] | lib[sem + 1], 0); /* at rest in the file */
}

/* Every name of the dynamic section read: within the file, terminated. */
static void read_dynamic(const struct elf_file *f)
{
	volatile size_t sink = 0;
	struct elf_dyn d;

	if (elf_dynamic(f, &d))
		return;
	assert_true(d.nneeded <= ELF_DYN_NEEDED_MAX);
	for (int i = 0; i < d.nneeded; i++) {
		const char *s = elf_dynstr(f, &d, d.needed[i]);

		if (s) {
			assert_true((const unsigned char *)s >= f->p &&
				    (const unsigned char *)s < f->p + f->len);
			sink += strlen(s);
		}
	}
	sink += elf_dynstr(f, &d, d.rpath) != NULL;
	sink += elf_dynstr(f, &d, d.runpath) != NULL;
	(void)sink;
}

/* The library needs libc, by name. */
static void test_dynamic(void **state)
{
	struct elf_file f = { lib, lib_len };
	struct elf_dyn d;
	bool libc = false;

	(void)state;
	assert_int_equal(elf_dynamic(&f, &d), 0);
	assert_true(d.dynamic);
	assert_int_equal(d.type, ET_DYN);
	for (int i = 0; i < d.nneeded; i++)
		libc |= !strcmp(elf_dynstr(&f, &d, d.needed[i]), "libc.so.6");
	assert_true(libc);
	assert_null(elf_dynstr(&f, &d, d.strsz));
}

/*
 * Which commands get the uprobe: the ones that load libposixtrace (this
 * test, linked with it statically, does not; the library does not name
 * itself), none that cannot; a script, a missing file: told apart by
 * nothing, so they get it.
 */
static void test_needed(void **state)
{
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	(void)state;
	assert_true(n > 0);
	self[n] = '\0';
	assert_int_equal(early_needed("/bin/true"), 0);
	assert_int_equal(early_needed(self), 0);
	assert_int_equal(early_needed(PTBPF_CLI), 1);
	assert_int_equal(early_needed("/bin/sh"), 0);
	assert_int_equal(early_needed(PTBPF_SCRIPT), 1);
	assert_int_equal(early_needed("/nonexistent"), 1);
}

/* Every length the file could be cut to: found or not, never out of bounds. */
static void test_truncated(void **state)
{
	uint64_t pc, sem;
	size_t n;

	(void)state;
	for (n = 0; n < lib_len; n += n < 4096 ? 1 : 4093) {
		unsigned char *cut = malloc(n ? n : 1);
		struct elf_file f = { cut, n };

		memcpy(cut, lib, n);
		if (!elf_usdt_probe(&f, "ptbpf", "early", &pc, &sem))
			assert_true(pc < n && sem < n);
		read_dynamic(&f);
		free(cut);
	}
}

/* Each 8 bytes, at any alignment, of the headers and of the notes overwritten
 * with extremes. */
static void test_corrupted(void **state)
{
	static const uint64_t junk[] = { 0, ~0ull, 0x7fffffffull, 0x80000000ull, 0xfffffff0ull };
	unsigned char *bad = malloc(lib_len);
	struct elf_file f = { bad, lib_len };
	struct elf_file good = { lib, lib_len };
	uint64_t pc, sem;
	/* set by the asserted calls: gcc -O3 cannot tell cmocka's failure stops */
	Elf64_Shdr notes = { 0 };
	Elf64_Phdr dyn = { 0 };
	Elf64_Ehdr h = { 0 };
	size_t at, j;

	(void)state;
	assert_non_null(bad);
	memcpy(bad, lib, lib_len);
	assert_int_equal(elf_hdr(&good, &h), 0);
	assert_int_equal(elf_section(&good, &h, ".note.stapsdt", &notes), 0);
	for (j = 0; j < h.e_phnum; j++) {
		assert_int_equal(elf_phdr(&good, &h, (unsigned int)j, &dyn), 0);
		if (dyn.p_type == PT_DYNAMIC)
			break;
	}
	assert_int_equal(dyn.p_type, PT_DYNAMIC);
	for (at = 0; at + 8 <= lib_len; at++) {
		int hot = at < sizeof(Elf64_Ehdr) ||
			  (at >= dyn.p_offset && at < dyn.p_offset + dyn.p_filesz) ||
			  (at >= h.e_shoff && at < h.e_shoff + h.e_shnum * sizeof(Elf64_Shdr)) ||
			  (at >= h.e_phoff && at < h.e_phoff + h.e_phnum * sizeof(Elf64_Phdr)) ||
			  (at >= notes.sh_offset && at < notes.sh_offset + notes.sh_size);

		if (!hot)
			continue;
		for (j = 0; j < sizeof(junk) / sizeof(junk[0]); j++) {
			memcpy(bad + at, &junk[j], 8);
			if (!elf_usdt_probe(&f, "ptbpf", "early", &pc, &sem))
				assert_true(pc < lib_len && sem < lib_len);
			read_dynamic(&f);
			memcpy(bad + at, lib + at, 8);
		}
	}
	free(bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_finds_probe), cmocka_unit_test(test_dynamic),
		cmocka_unit_test(test_needed),	    cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_corrupted),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
