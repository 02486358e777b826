// SPDX-License-Identifier: GPL-2.0-only
/*
 * NOP padding microbenchmark, the method of the May 2015 LKML thread on
 * the kernel's NOPs (Borislav Petkov's run of H. Peter Anvin's benchmark):
 * a block of 1000 pads of one length is executed many times after a
 * warm-up and the minimum time per block is kept; an empty block measured
 * the same way is subtracted.
 *
 * Pads, per length L:
 *   p6     the kernel's x86_nops[L] (arch/x86/include/asm/nops.h), one
 *          instruction, L = 1..11
 *   k8     0x66-prefixed 0x90, at most three prefixes per instruction,
 *          ceil(L / 4) instructions as the kernel's x86_nops=k8 writes
 *          them (x86_nops_pad=nops beyond 11 bytes), L = 1..15
 *   nops   the kernel's x86_nops_pad=nops with P6 NOPs, L = 12..32: the
 *          fewest NOPs, crossing the fewest 16-byte lines, each pad split
 *          for the address it sits at
 *   jmp    x86_nops_pad=jmp (today's add_nop()), L = 12..32: JMP8 over
 *          INT3s
 *
 * Time is CPU cycles from perf_event_open() (user mode only) where the
 * PMU is available, TSC ticks otherwise; the output says which.  A block
 * holds at most 8 KiB of pads (1000 pads up to 8 bytes, fewer beyond,
 * scaled to 1000) so that long pads measure decoding, not L1I misses.
 * The blocks of one length are timed in turn, CHUNK readings of one then
 * CHUNK of the next: a row shares one clock.  The whole run is repeated
 * ROUNDS times at other placements and the median kept.
 * Usage: nops [READINGS]   (default 1000 per block and round, minimum kept)
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cpuid.h>
#include <x86intrin.h>

#define PADS	1000
#define MAXLEN	32
#define ROUNDS	5	/* whole runs, each at another placement; median kept */
#define CALLS	8	/* calls of a block per reading of the clock */
#define CHUNK	25	/* readings of one block in a row, then the next block */
#define STRIDE	12288	/* a block: at most 8192 bytes of pads and a RET */

/*
 * x86_nops[] of the tree, from its arch/x86/include/asm/nops.h (the wrapper
 * passes -include build/bench/nops-bytes.h), else 6.12's bytes.
 */
#ifndef BYTES_NOP11
#define BYTES_NOP1	0x90
#define BYTES_NOP2	0x66, BYTES_NOP1
#define BYTES_NOP3	0x0f, 0x1f, 0x00
#define BYTES_NOP4	0x0f, 0x1f, 0x40, 0x00
#define BYTES_NOP5	0x0f, 0x1f, 0x44, 0x00, 0x00
#define BYTES_NOP6	0x66, BYTES_NOP5
#define BYTES_NOP7	0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00
#define BYTES_NOP8	0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00
#define BYTES_NOP9	0x2e, BYTES_NOP8
#define BYTES_NOP10	0x66, BYTES_NOP9
#define BYTES_NOP11	0x66, BYTES_NOP10
#endif

static const uint8_t p6[12][11] = {
	{ 0 }, { BYTES_NOP1 }, { BYTES_NOP2 }, { BYTES_NOP3 }, { BYTES_NOP4 },
	{ BYTES_NOP5 }, { BYTES_NOP6 }, { BYTES_NOP7 }, { BYTES_NOP8 },
	{ BYTES_NOP9 }, { BYTES_NOP10 }, { BYTES_NOP11 },
};

enum kind { P6, K8, NOPS, JMP, NKINDS };
static const char *const kname[NKINDS] = { "p6", "k8", "nops", "jmp" };

/* whether a NOP of @len bytes at @addr crosses a 16-byte line */
static int crosses(uintptr_t addr, int len)
{
	return (addr & 15) + len > 16;
}

/*
 * The kernel's nop_run() (arch/x86/kernel/alternative.c, patch "x86/
 * alternatives: Choose the NOPs that pad alternatives at boot"), the same
 * rule written again: the fewest NOPs of at most @max bytes (4 for K8, 11
 * for P6), crossing the fewest 16-byte lines, longest first on a tie, 12 to
 * 15 bytes of P6 as 4 + 8..11 where that is as good.  Returns the count.
 */
static int nop_run(uint8_t *p, int len, uintptr_t addr, int k8)
{
	int max = k8 ? 4 : 11, n = (len + max - 1) / max, slack = n * max - len;
	int w = slack + 1, k, u, d;
	unsigned char cost[300];

	for (u = 0; u <= slack; u++)
		cost[n * w + u] = u == slack ? 0 : 255;
	for (k = n - 1; k >= 0; k--) {
		for (u = 0; u <= slack; u++) {
			int best = 255;

			for (d = 0; u + d <= slack; d++) {
				int c = cost[(k + 1) * w + u + d];

				if (c == 255)
					continue;
				c += crosses(addr + k * max - u, max - d);
				if (c < best)
					best = c;
			}
			cost[k * w + u] = best;
		}
	}
	for (k = 0, u = 0; k < n; k++) {
		uintptr_t at = addr + k * max - u;
		int want = cost[k * w + u], pick = slack + 1, l;

		if (!k8 && n == 2 && k == 0 && len >= 12 && len <= 15 &&
		    max - 4 <= slack && cost[w + max - 4] != 255 &&
		    crosses(at, 4) + cost[w + max - 4] == want)
			pick = max - 4;
		for (d = 0; pick > slack && u + d <= slack; d++) {
			int c = cost[(k + 1) * w + u + d];

			if (c != 255 && c + crosses(at, max - d) == want)
				pick = d;
		}
		l = max - pick;
		if (k8) {
			memset(p, 0x66, l - 1);
			p[l - 1] = 0x90;
		} else {
			memcpy(p, p6[l], l);
		}
		p += l;
		u += pick;
	}
	return n;
}

static int jmp_pad(uint8_t *p, int len)
{
	p[0] = 0xeb;
	p[1] = len - 2;
	memset(p + 2, 0xcc, len - 2);
	return 1;
}

static int pad(enum kind k, uint8_t *p, int len, uintptr_t addr)
{
	switch (k) {
	case P6:
		if (len > 11)
			return 0;
		memcpy(p, p6[len], len);
		return 1;
	case K8:
		return len > 15 ? 0 : nop_run(p, len, addr, 1);
	case NOPS:
		return len < 12 ? 0 : nop_run(p, len, addr, 0);
	case JMP:
		return len < 12 ? 0 : jmp_pad(p, len);
	default:
		return 0;
	}
}

static int perf_fd = -1;

static uint64_t now(void)
{
	if (perf_fd >= 0) {
		uint64_t v;

		if (read(perf_fd, &v, sizeof(v)) == sizeof(v))
			return v;
	}
	_mm_lfence();
	return __rdtsc();
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* what x86_nops=auto picks for this CPU: the kernel's x86_nop_auto[] */
static const char *auto_table(char *vendor, unsigned int *family, unsigned int *model)
{
	unsigned int a, b, c, d;

	__cpuid(0, a, b, c, d);
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = 0;
	__cpuid(1, a, b, c, d);
	*family = (a >> 8) & 0xf;
	*model = (a >> 4) & 0xf;
	if (*family == 0xf)
		*family += (a >> 20) & 0xff;
	if (*family == 0x6 || *family >= 0xf)
		*model += ((a >> 16) & 0xf) << 4;
	if (!strcmp(vendor, "AuthenticAMD") && *family == 0xf)
		return "k8";
	if (!strcmp(vendor, "GenuineIntel") && *family == 6 &&
	    ((*model >= 0x0f && *model <= 0x1b) || (*model >= 0x1d && *model <= 0x25) ||
	     (*model >= 0x28 && *model <= 0x2f)))
		return "k8";
	return "p6";
}

/* a block of pads of @len bytes of kind @k at @code, then RET; pads or 0 */
static int fill(uint8_t *code, int len, enum kind k, int *insns)
{
	int pads = 8192 / len < PADS ? 8192 / len : PADS;
	uint8_t *p = code;

	for (int i = 0; i < pads; i++, p += len)
		if (!pad(k, p, len, (uintptr_t)p))
			return 0;
	*insns = pad(k, code, len, (uintptr_t)code);
	*p = 0xc3;
	__builtin___clear_cache((char *)code, (char *)p + 1);
	return pads;
}

/* @fn run CALLS times back to back: the clock's steps matter less */
static uint64_t time_once(void (*fn)(void))
{
	uint64_t t0 = now();

	for (int i = 0; i < CALLS; i++)
		fn();
	return now() - t0;
}

int main(int argc, char **argv)
{
	long repeats = argc > 1 ? atol(argv[1]) : 1000;
	size_t size = (NKINDS + 1) * STRIDE;
	struct perf_event_attr pe = {
		.type = PERF_TYPE_HARDWARE, .size = sizeof(pe),
		.config = PERF_COUNT_HW_CPU_CYCLES, .exclude_kernel = 1,
		.exclude_hv = 1,
	};
	static double res[ROUNDS][MAXLEN + 1][NKINDS];
	int insns[MAXLEN + 1][NKINDS];
	const char *autot;
	unsigned int family, model;
	char vendor[13];
	int disagree = 0;
	uint64_t empty = 0;

	perf_fd = syscall(SYS_perf_event_open, &pe, 0, -1, -1, 0);

	/*
	 * ROUNDS rounds over every length, each with its blocks at a new
	 * mapping (another placement).  Per length, every kind's block and an
	 * empty block (a lone RET) sit side by side and are timed in turn,
	 * CHUNK readings of one block then CHUNK of the next, so that all of
	 * a row sees the same clock while each block stays in the caches for
	 * its readings; the minimum per block and round is kept.
	 */
	for (int round = 0; round < ROUNDS; round++) {
		uint8_t *code = mmap(NULL, size + round * 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
				     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (code == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		code += round * 4096 + round * 64;
		for (int len = 1; len <= MAXLEN; len++) {
			uint8_t *blk[NKINDS + 1];
			int pads[NKINDS + 1] = { 0 };
			uint64_t best[NKINDS + 1];

			for (int k = 0; k <= NKINDS; k++) {
				blk[k] = code + k * STRIDE;
				best[k] = UINT64_MAX;
				if (k < NKINDS)
					insns[len][k] = 0;
				if (k == NKINDS) {
					blk[k][0] = 0xc3;
					pads[k] = 1;
				} else if (!((k == P6 && len > 11) || (k == K8 && len > 15) ||
					     (k >= NOPS && len < 12))) {
					pads[k] = fill(blk[k], len, k, &insns[len][k]);
				}
			}
			for (long r = 0; r < repeats + repeats / 4; r += CHUNK) {
				for (int k = 0; k <= NKINDS; k++) {
					if (!pads[k])
						continue;
					for (long i = r; i < r + CHUNK &&
					     i < repeats + repeats / 4; i++) {
						uint64_t t = time_once((void (*)(void))blk[k]);

						/* the first fifth of the readings warms up */
						if (i >= repeats / 4 && t < best[k])
							best[k] = t;
					}
				}
			}
			for (int k = 0; k < NKINDS; k++) {
				uint64_t e = best[NKINDS], t = best[k];

				res[round][len][k] = pads[k] ?
					(double)(t > e ? t - e : 0) * PADS / pads[k] / CALLS : -1;
			}
			if (len == 1 && round == 0)
				empty = best[NKINDS];
		}
	}

	autot = auto_table(vendor, &family, &model);
	printf("NOP padding benchmark: %d pads per block, the blocks of a row timed in turn,\n",
	       PADS);
	printf("rounds: %d, each: %d calls per clock reading, minimum of %ld readings after\n",
	       ROUNDS, CALLS, repeats);
	printf("a warm-up of %ld, ", repeats / 4);
	printf("minus an empty block (%.1f per call);\n", (double)empty / CALLS);
	printf("unit: %s per 1000 pads\n",
	       perf_fd >= 0 ? "CPU cycles (perf, user mode)" : "TSC ticks (no PMU: perf_event_open failed)");
	printf("value: the median of the rounds; noise: the largest spread of a cell's rounds in\n");
	printf("the row, the highest and lowest dropped, relative (at least 1%%); a tie: within it\n");
	printf("%-4s %10s %10s %10s %10s %6s  %s\n", "len", "p6/insns", "k8/insns",
	       "nops/insns", "jmp/insns", "noise", "winner");
	for (int len = 1; len <= MAXLEN; len++) {
		double best = -1, noise = 0.01, v[NKINDS];
		int w = -1;

		for (int k = 0; k < NKINDS; k++) {
			double r[ROUNDS];

			for (int i = 0; i < ROUNDS; i++)
				r[i] = res[i][len][k];
			qsort(r, ROUNDS, sizeof(r[0]), cmp_double);
			v[k] = r[ROUNDS / 2];
			if (v[k] < 0)
				continue;
			if (v[k] > 0 && (r[ROUNDS - 2] - r[1]) / v[k] > noise)
				noise = (r[ROUNDS - 2] - r[1]) / v[k];
			if (w < 0 || v[k] < best) {
				best = v[k];
				w = k;
			}
		}
		printf("%-4d", len);
		for (int k = 0; k < NKINDS; k++) {
			char cell[32];

			if (v[k] < 0)
				snprintf(cell, sizeof(cell), "-");
			else
				snprintf(cell, sizeof(cell), "%.0f/%d", v[k], insns[len][k]);
			printf(" %10s", cell);
		}
		printf(" %5.1f%%  %s", noise * 100, w >= 0 ? kname[w] : "-");
		for (int k = 0; k < NKINDS; k++)
			if (k != w && v[k] >= 0 && v[k] <= best * (1 + noise))
				printf("=%s", kname[k]);
		printf("\n");
		/* x86_nops=auto decides 1..11 bytes: its table must win or tie */
		if (len <= 11) {
			int ai = !strcmp(autot, "k8") ? K8 : P6;

			if (v[ai] > best * (1 + noise))
				disagree++;
		}
	}
	printf("x86_nops=auto on this CPU (%s family %#x model %#x): %s; %s\n",
	       vendor, family, model, autot,
	       disagree ? "another table wins at some length of 1..11 bytes: the auto table needs an entry for this CPU"
			: "it wins or ties at every length of 1..11 bytes");
	return 0;
}
