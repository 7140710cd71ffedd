/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf: struct stat, struct statx, struct statfs and getdents64's records
 * as strace 6.1 prints them (src/print_struct_stat.c, statx.c,
 * print_statfs.c, xgetdents.c): struct stat by the events' ABI (abi.h), the
 * others the same on x86_64 and arm64.
 */
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "decode/struct.h"
#include "decode/abi.h"

/* struct statx */
enum {
	STX_MASK = 0,
	STX_BLKSIZE = 4,
	STX_ATTRIBUTES = 8,
	STX_NLINK = 16,
	STX_UID = 20,
	STX_GID = 24,
	STX_MODE = 28,
	STX_INO = 32,
	STX_SIZE = 40,
	STX_BLOCKS = 48,
	STX_ATTRIBUTES_MASK = 56,
	STX_ATIME = 64, /* each time {s64 sec, u32 nsec, s32 pad}: atime, btime, ctime, mtime */
	STX_BTIME = 80,
	STX_CTIME = 96,
	STX_MTIME = 112,
	STX_RDEV_MAJOR = 128,
	STX_MNT_ID = 144,
	STX_DIO_MEM_ALIGN = 152,
	STX_END = 160,
	STX_ABBREV_END = 48,
};

void fmt_mode(struct sbuf *b, unsigned mode)
{
	const char *ifmt = mode & S_IFMT ? xlat_name(&xlat_modetypes, mode & S_IFMT) : "";
	size_t at = b->len;

	if (!ifmt) {
		sb_printf(b, "%#03o", mode);
		return;
	}
	sb_printf(b, "%s%s%s%s%s%#03o", ifmt, ifmt[0] ? "|" : "", mode & S_ISUID ? "S_ISUID|" : "",
		  mode & S_ISGID ? "S_ISGID|" : "", mode & S_ISVTX ? "S_ISVTX|" : "",
		  mode & ~(unsigned)(S_IFMT | S_ISUID | S_ISGID | S_ISVTX));
	xlat_restyle(b, at, mode, XLAT_OCT); /* -X: 0100644 */
}

static void fmt_dev(struct sbuf *b, uint64_t dev)
{
	size_t at = b->len;

	sb_printf(b, "makedev(%#x, %#x)", major(dev), minor(dev));
	xlat_restyle(b, at, dev, XLAT_HEX); /* -X: 0x103 */
}

int fmt_stat(struct sbuf *b, const void *p, size_t len, const struct decode_opts *o)
{
	const struct dec_abi *a = decode_abi();
	/* the fields up to st_ctime's nsec, or up to st_size */
	size_t end = a->f_st_ctime.off + 16u, need = a->f_st_size.off + 8u;
	unsigned mode;

	if (len < (o->verbose ? end : need))
		return -1;
	mode = (unsigned)dec_ld(p, a->f_st_mode);
	sb_putc(b, '{');
	if (o->verbose) {
		sb_puts(b, "st_dev=");
		fmt_dev(b, dec_ld(p, a->f_st_dev));
		sb_printf(b, ", st_ino=%llu, st_mode=", (unsigned long long)dec_ld(p, a->f_st_ino));
		fmt_mode(b, mode);
		sb_printf(b,
			  ", st_nlink=%llu, st_uid=%u, st_gid=%u, st_blksize=%llu, st_blocks=%llu",
			  (unsigned long long)dec_ld(p, a->f_st_nlink),
			  (unsigned)dec_ld(p, a->f_st_uid), (unsigned)dec_ld(p, a->f_st_gid),
			  (unsigned long long)dec_ld(p, a->f_st_blksize),
			  (unsigned long long)dec_ld(p, a->f_st_blocks));
	} else {
		sb_puts(b, "st_mode=");
		fmt_mode(b, mode);
	}
	if ((mode & S_IFMT) == S_IFCHR || (mode & S_IFMT) == S_IFBLK) {
		sb_puts(b, ", st_rdev=");
		fmt_dev(b, dec_ld(p, a->f_st_rdev));
	} else {
		sb_printf(b, ", st_size=%llu", (unsigned long long)dec_ld(p, a->f_st_size));
	}
	if (!o->verbose) {
		sb_puts(b, ", ...}");
		return 0;
	}
	for (int i = 0; i < 3; i++) {
		static const char *const names[] = { "st_atime", "st_mtime", "st_ctime" };
		const struct dec_field t[] = { a->f_st_atime, a->f_st_mtime, a->f_st_ctime };
		int64_t sec = (int64_t)dec_ld(p, t[i]);
		uint64_t nsec = ld64(p, t[i].off + 8u);

		sb_printf(b, ", %s=%lld", names[i], (long long)sec);
		fmt_time_comment(b, sec, nsec);
		sb_printf(b, ", %s_nsec=%llu", names[i], (unsigned long long)nsec);
	}
	sb_putc(b, '}');
	return 0;
}

void fmt_statx_mask(struct sbuf *b, unsigned v)
{
	xlat_flags(b, &xlat_statx_masks, v);
}

/* PRINT_FIELD_ID: (uid_t) -1 as -1 */
static void fmt_id(struct sbuf *b, const char *name, uint32_t id)
{
	if (id == UINT32_MAX)
		sb_printf(b, ", %s=-1", name);
	else
		sb_printf(b, ", %s=%u", name, id);
}

static void fmt_statx_time(struct sbuf *b, const char *name, const void *p, size_t off)
{
	int64_t sec = (int64_t)ld64(p, off);
	uint32_t nsec = ld32(p, off + 8);

	sb_printf(b, ", %s={tv_sec=%lld, tv_nsec=%u}", name, (long long)sec, nsec);
	fmt_time_comment(b, sec, nsec);
}

int fmt_statx(struct sbuf *b, const void *p, size_t len, const struct decode_opts *o)
{
	uint32_t mask;

	if (len < (o->verbose ? STX_END : STX_ABBREV_END))
		return -1;
	mask = ld32(p, STX_MASK);
	sb_puts(b, "{stx_mask=");
	fmt_statx_mask(b, mask);
	if (o->verbose)
		sb_printf(b, ", stx_blksize=%u", ld32(p, STX_BLKSIZE));
	sb_puts(b, ", stx_attributes=");
	xlat_flags(b, &xlat_statx_attrs, ld64(p, STX_ATTRIBUTES));
	if (o->verbose) {
		if (mask & STATX_NLINK)
			sb_printf(b, ", stx_nlink=%u", ld32(p, STX_NLINK));
		if (mask & STATX_UID)
			fmt_id(b, "stx_uid", ld32(p, STX_UID));
		if (mask & STATX_GID)
			fmt_id(b, "stx_gid", ld32(p, STX_GID));
	}
	if (mask & (STATX_TYPE | STATX_MODE)) {
		sb_puts(b, ", stx_mode=");
		fmt_mode(b, ld16(p, STX_MODE));
	}
	if (o->verbose && (mask & STATX_INO))
		sb_printf(b, ", stx_ino=%llu", (unsigned long long)ld64(p, STX_INO));
	if (mask & STATX_SIZE)
		sb_printf(b, ", stx_size=%llu", (unsigned long long)ld64(p, STX_SIZE));
	if (!o->verbose) {
		sb_puts(b, ", ...}");
		return 0;
	}
	if (mask & STATX_BLOCKS)
		sb_printf(b, ", stx_blocks=%llu", (unsigned long long)ld64(p, STX_BLOCKS));
	sb_puts(b, ", stx_attributes_mask=");
	xlat_flags(b, &xlat_statx_attrs, ld64(p, STX_ATTRIBUTES_MASK));
	if (mask & STATX_ATIME)
		fmt_statx_time(b, "stx_atime", p, STX_ATIME);
	if (mask & STATX_BTIME)
		fmt_statx_time(b, "stx_btime", p, STX_BTIME);
	if (mask & STATX_CTIME)
		fmt_statx_time(b, "stx_ctime", p, STX_CTIME);
	if (mask & STATX_MTIME)
		fmt_statx_time(b, "stx_mtime", p, STX_MTIME);
	sb_printf(b, ", stx_rdev_major=%u, stx_rdev_minor=%u, stx_dev_major=%u, stx_dev_minor=%u",
		  ld32(p, STX_RDEV_MAJOR), ld32(p, STX_RDEV_MAJOR + 4), ld32(p, STX_RDEV_MAJOR + 8),
		  ld32(p, STX_RDEV_MAJOR + 12));
	if (mask & 0x1000)
		sb_printf(b, ", stx_mnt_id=%#llx", (unsigned long long)ld64(p, STX_MNT_ID));
	if (mask & 0x2000)
		sb_printf(b, ", stx_dio_mem_align=%u, stx_dio_offset_align=%u",
			  ld32(p, STX_DIO_MEM_ALIGN), ld32(p, STX_DIO_MEM_ALIGN + 4));
	sb_putc(b, '}');
	return 0;
}

/* struct statfs (x86_64): eleven 8-byte words, f_fsid two ints in the eighth */
int fmt_statfs(struct sbuf *b, const void *p, size_t len, const struct decode_opts *o)
{
	static const char *const names[] = { "f_bsize",	 "f_blocks", "f_bfree",
					     "f_bavail", "f_files",  "f_ffree" };
	uint64_t flags;

	(void)o; /* strace prints every field, -v or not */
	if (len < 88)
		return -1;
	sb_puts(b, "{f_type=");
	xlat_val(b, &xlat_fsmagic, ld64(p, 0));
	for (size_t i = 0; i < DS_NELEM(names); i++)
		sb_printf(b, ", %s=%llu", names[i], (unsigned long long)ld64(p, 8 + 8 * i));
	sb_puts(b, ", f_fsid={val=[");
	sb_xhex(b, ld32(p, 56));
	sb_puts(b, ", ");
	sb_xhex(b, ld32(p, 60));
	sb_printf(b, "]}, f_namelen=%llu, f_frsize=%llu", (unsigned long long)ld64(p, 64),
		  (unsigned long long)ld64(p, 72));
	flags = ld64(p, 80);
	if (flags & 0x20) {
		sb_puts(b, ", f_flags=");
		xlat_flags(b, &xlat_statfs_flags, flags);
	}
	sb_putc(b, '}');
	return 0;
}

#define DIRENT64_HEAD 19 /* d_ino, d_off, d_reclen, d_type */

/* one record's fields after d_reclen (-v) */
static void fmt_dirent_tail(struct sbuf *b, const unsigned char *d, size_t name_len, int xflag)
{
	sb_puts(b, ", d_type=");
	xlat_val(b, &xlat_dirent_types, d[18]);
	if (name_len) {
		/* printpathn: the name's bytes before its last, `...` when no NUL is in all */
		if (name_len > 256)
			name_len = 256;
		sb_puts(b, ", d_name=");
		fmt_quote(b, d + DIRENT64_HEAD, name_len - 1, 1, xflag);
		if (!memchr(d + DIRENT64_HEAD, '\0', name_len))
			sb_puts(b, "...");
	}
	sb_putc(b, '}');
}

int fmt_dirents_count(struct sbuf *b, const void *p, size_t len, size_t ret,
		      const struct decode_opts *o)
{
	const unsigned char *d = p;
	unsigned count = 0;
	size_t left = ret;

	/* counting needs every record's header: all that the call returned */
	if (len < ret)
		return -1;
	for (;;) {
		size_t reclen, next = 0;
		int more = 0;

		if (left < DIRENT64_HEAD) {
			if (o->verbose && !left) {
				sb_putc(b, '[');
				count++;
			} else if (o->verbose) {
				size_t shown = left < o->strsize ? left : o->strsize;

				fmt_quote(b, d, shown, 0, 2);
				if (left > shown)
					sb_puts(b, "...");
			}
			break;
		}
		if (o->verbose && !count)
			sb_putc(b, '[');
		count++;
		reclen = ld16(d, 16);
		if (o->verbose)
			sb_printf(b, "{d_ino=%llu, d_off=%llu, d_reclen=%zu",
				  (unsigned long long)ld64(d, 0), (unsigned long long)ld64(d, 8),
				  reclen);
		if (reclen > left) {
			sb_printf(b, " /* %s%zu bytes overflow */", o->verbose ? "" : "d_reclen ",
				  reclen - left);
			reclen = left;
		} else if (reclen < DIRENT64_HEAD) {
			sb_printf(b, " /* %s%zu bytes underflow */", o->verbose ? "" : "d_reclen ",
				  DIRENT64_HEAD - reclen);
			reclen = DIRENT64_HEAD;
			next = left - DIRENT64_HEAD;
		} else {
			next = left - reclen;
			more = next != 0;
		}
		if (o->verbose) {
			fmt_dirent_tail(b, d, reclen - DIRENT64_HEAD, o->xflag);
			if (more)
				sb_puts(b, ", ");
		}
		left = next;
		if (!more)
			break;
		d += reclen;
	}
	if (o->verbose) {
		if (count)
			sb_putc(b, ']');
	} else {
		sb_printf(b, " /* %u%s entries */", count, left ? "+" : "");
	}
	return 0;
}
