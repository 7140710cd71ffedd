// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), as used by iSCSI,
 * ext4 and btrfs. SSE4.2 crc32 instructions when the CPU has them (checked
 * at run time), otherwise slicing-by-8 tables.
 */
#include <pthread.h>
#include <string.h>

#include "log/log_format.h"

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define LOG_CRC_X86 1
#include <nmmintrin.h>
#endif

static uint32_t crc_tab[8][256];
static int crc_hw;
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1)));
		crc_tab[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int t = 1; t < 8; t++)
			crc_tab[t][i] =
				(crc_tab[t - 1][i] >> 8) ^ crc_tab[0][crc_tab[t - 1][i] & 0xff];
#ifdef LOG_CRC_X86
	__builtin_cpu_init();
	crc_hw = __builtin_cpu_supports("sse4.2");
#endif
}

static uint32_t crc_sw(uint32_t c, const unsigned char *p, size_t len)
{
	while (len && ((uintptr_t)p & 7)) {
		c = (c >> 8) ^ crc_tab[0][(c ^ *p++) & 0xff];
		len--;
	}
	while (len >= 8) {
		uint64_t v;

		memcpy(&v, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		v = __builtin_bswap64(v);
#endif
		v ^= c;
		c = crc_tab[7][v & 0xff] ^ crc_tab[6][(v >> 8) & 0xff] ^
		    crc_tab[5][(v >> 16) & 0xff] ^ crc_tab[4][(v >> 24) & 0xff] ^
		    crc_tab[3][(v >> 32) & 0xff] ^ crc_tab[2][(v >> 40) & 0xff] ^
		    crc_tab[1][(v >> 48) & 0xff] ^ crc_tab[0][v >> 56];
		p += 8;
		len -= 8;
	}
	while (len--)
		c = (c >> 8) ^ crc_tab[0][(c ^ *p++) & 0xff];
	return c;
}

#ifdef LOG_CRC_X86
__attribute__((target("sse4.2"))) static uint32_t crc_sse42(uint32_t c, const unsigned char *p,
							    size_t len)
{
	uint64_t c64 = c;

	/* unaligned 8-byte loads are cheap on x86-64: no alignment prologue */
	while (len >= 32) {
		uint64_t a, b, d, e;

		memcpy(&a, p, 8);
		memcpy(&b, p + 8, 8);
		memcpy(&d, p + 16, 8);
		memcpy(&e, p + 24, 8);
		c64 = _mm_crc32_u64(c64, a);
		c64 = _mm_crc32_u64(c64, b);
		c64 = _mm_crc32_u64(c64, d);
		c64 = _mm_crc32_u64(c64, e);
		p += 32;
		len -= 32;
	}
	while (len >= 8) {
		uint64_t a;

		memcpy(&a, p, 8);
		c64 = _mm_crc32_u64(c64, a);
		p += 8;
		len -= 8;
	}
	c = (uint32_t)c64;
	if (len >= 4) {
		uint32_t a;

		memcpy(&a, p, 4);
		c = _mm_crc32_u32(c, a);
		p += 4;
		len -= 4;
	}
	while (len--)
		c = _mm_crc32_u8(c, *p++);
	return c;
}
#endif

uint32_t log_crc32c(uint32_t crc, const void *buf, size_t len)
{
	uint32_t c = ~crc;

	pthread_once(&crc_once, crc_init);
#ifdef LOG_CRC_X86
	if (crc_hw)
		return ~crc_sse42(c, buf, len);
#endif
	return ~crc_sw(c, buf, len);
}

/* for the tests: force the table implementation (0) or the default (1) */
void log_crc32c__set_hw(int on)
{
	pthread_once(&crc_once, crc_init);
#ifdef LOG_CRC_X86
	crc_hw = on ? __builtin_cpu_supports("sse4.2") : 0;
#endif
}
