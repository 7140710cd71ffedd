/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The user ABI of the architecture that recorded the events being read
 * (x86_64 or arm64, whatever the host): the column of schema/syscalls.def
 * its syscall numbers are in, and the layouts the decoders read where the
 * two differ. The layouts are data (DEC_ABI_* below), which
 * tests/unit/abi_layouts.c checks against each architecture's kernel
 * headers (ctest unit.abi_layouts); clone's order is the kernel's
 * CONFIG_CLONE_BACKWARDS (arm64) or not (x86_64), in no header.
 */
#ifndef PTBPF_CLI_DECODE_ABI_H
#define PTBPF_CLI_DECODE_ABI_H

#include <stdint.h>

#include "syscall_types.h"

/* struct stat's fields: name, x86_64 offset and size, arm64 offset and size
 * (st_atime, st_mtime, st_ctime each followed by its 8-byte nsec) */
#define DEC_ABI_STAT(F)                                                                            \
	F(st_dev, 0, 8, 0, 8)                                                                      \
	F(st_ino, 8, 8, 8, 8)                                                                      \
	F(st_nlink, 16, 8, 20, 4)                                                                  \
	F(st_mode, 24, 4, 16, 4)                                                                   \
	F(st_uid, 28, 4, 24, 4)                                                                    \
	F(st_gid, 32, 4, 28, 4)                                                                    \
	F(st_rdev, 40, 8, 32, 8)                                                                   \
	F(st_size, 48, 8, 48, 8)                                                                   \
	F(st_blksize, 56, 8, 56, 4)                                                                \
	F(st_blocks, 64, 8, 64, 8)                                                                 \
	F(st_atime, 72, 8, 72, 8)                                                                  \
	F(st_mtime, 88, 8, 88, 8)                                                                  \
	F(st_ctime, 104, 8, 104, 8)

/* sizes: struct stat, struct epoll_event (packed on x86_64) */
#define DEC_ABI_SIZES(F)                                                                           \
	F(stat, 144, 128)                                                                          \
	F(epoll_event, 12, 16)

/* other structs' fields: struct, field, x86_64 offset, arm64 offset */
#define DEC_ABI_OFFSETS(F) F(epoll_event, data, 4, 8)

/* open flags whose bits differ (arm64's <asm/fcntl.h>) */
#define DEC_ABI_OFLAGS(F)                                                                          \
	F(O_DIRECT, 040000, 0200000)                                                               \
	F(O_LARGEFILE, 0100000, 0400000)                                                           \
	F(O_DIRECTORY, 0200000, 040000)                                                            \
	F(O_NOFOLLOW, 0400000, 0100000)

struct dec_field {
	uint8_t off, size;
};

struct dec_abi {
	enum sc_arch arch;
	const char *name; /* "x86_64", "aarch64" */
	/* struct stat's (f_ and the kernel's name: glibc's st_atime is a macro) */
	struct dec_field f_st_dev, f_st_ino, f_st_nlink, f_st_mode, f_st_uid, f_st_gid, f_st_rdev,
		f_st_size, f_st_blksize, f_st_blocks, f_st_atime, f_st_mtime, f_st_ctime;
	uint16_t stat_size, epoll_event_size;
	uint8_t epoll_event_data_off;
	/* clone's arguments: x86_64 flags, stack, parent_tid, child_tid, tls;
	 * arm64 (CONFIG_CLONE_BACKWARDS) flags, stack, parent_tid, tls, child_tid */
	uint8_t clone_child_tid, clone_tls;
};

/* The number of syscall name on arch (schema/syscalls.def), -1: none there. */
int dec_sys_nr(int arch, const char *name);

/* The ABI of arch (an SC_ARCH_*; anything else: the build's). */
const struct dec_abi *dec_abi(int arch);
/* The SC_ARCH_* of an ELF machine (PTBPF_ARCH_*), -1: neither. */
int dec_abi_arch_of(unsigned int machine);
/* The ABI the decoders use now (the build's until set: cli_ev_name sets
 * the one of the trace it reads). */
const struct dec_abi *decode_abi(void);
void decode_set_abi(const struct dec_abi *abi);
/* A field of struct stat (4 or 8 bytes) at p, bounded by the caller's length check. */
uint64_t dec_ld(const void *p, struct dec_field f);
/* open flags of abi as the build's bits (the xlat tables' values come from its headers) */
unsigned long dec_oflags_native(const struct dec_abi *abi, unsigned long v);

#endif
