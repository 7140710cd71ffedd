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
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

#ifdef LOG_CRC_X86
static int crc_hw;

/*
 * The crc32 instruction takes 3 cycles and depends on the previous one:
 * three independent streams over CRC_BLOCK bytes each go 3 times as fast,
 * then combine: crc(s, A.B) = shift_|B|(crc(s, A)) ^ crc(0, B), where
 * shift_n is the (linear) effect of n zero bytes on the register, applied
 * by crc_shift_tab, one table per byte of the register.
 */
#define CRC_BLOCK 1024
static uint32_t crc_shift_tab[4][256];

/* mat (32 columns) times vec, over GF(2) */
static uint32_t gf2_times(const uint32_t *mat, uint32_t vec)
{
	uint32_t sum = 0;

	for (; vec; vec >>= 1, mat++)
		if (vec & 1)
			sum ^= *mat;
	return sum;
}

/* The register after CRC_BLOCK zero bytes more */
static inline uint32_t crc_shift(uint32_t r)
{
	return crc_shift_tab[0][r & 0xff] ^ crc_shift_tab[1][(r >> 8) & 0xff] ^
	       crc_shift_tab[2][(r >> 16) & 0xff] ^ crc_shift_tab[3][r >> 24];
}

static void crc_shift_init(void)
{
	uint32_t a[32], b[32], *op = a, *sq = b, *t;
	unsigned int bits;

	/* one zero bit: shift right, xor the polynomial if the bit was set */
	a[0] = 0x82F63B78u;
	for (int n = 1; n < 32; n++)
		a[n] = 1u << (n - 1);
	/* square it up to CRC_BLOCK bytes (a power of two of bits) */
	for (bits = 1; bits < 8 * CRC_BLOCK; bits *= 2) {
		for (int n = 0; n < 32; n++)
			sq[n] = gf2_times(op, op[n]);
		t = op;
		op = sq;
		sq = t;
	}
	for (int k = 0; k < 4; k++)
		for (uint32_t v = 0; v < 256; v++)
			crc_shift_tab[k][v] = gf2_times(op, v << (8 * k));
}
#endif

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
	crc_shift_init();
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
	while (len >= 3 * CRC_BLOCK) {
		uint64_t c1 = 0, c2 = 0, a, b, d;

		for (size_t i = 0; i < CRC_BLOCK; i += 8) {
			memcpy(&a, p + i, 8);
			memcpy(&b, p + CRC_BLOCK + i, 8);
			memcpy(&d, p + 2 * CRC_BLOCK + i, 8);
			c64 = _mm_crc32_u64(c64, a);
			c1 = _mm_crc32_u64(c1, b);
			c2 = _mm_crc32_u64(c2, d);
		}
		c64 = crc_shift(crc_shift((uint32_t)c64) ^ (uint32_t)c1) ^ (uint32_t)c2;
		p += 3 * CRC_BLOCK;
		len -= 3 * CRC_BLOCK;
	}
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
#else
	(void)on;
#endif
}
