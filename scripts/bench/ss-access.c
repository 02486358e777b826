// SPDX-License-Identifier: GPL-2.0-only
/*
 * Userspace harness for the cost of the SYSRET SS attributes fixup.
 *
 * __switch_to() runs, on CPUs with X86_BUG_SYSRET_SS_ATTRS (objdump -d):
 *	mov %ss,%ax ; cmp $0x18,%ax ; je 1f       (every switch)
 *	mov $0x18,%eax ; mov %eax,%ss ; 1:        (when SS was not __KERNEL_DS)
 * Both moves are legal in user mode, so the same instructions are timed
 * here with the user data selector __USER_DS (0x2b) standing in for
 * __KERNEL_DS (0x18).  Each
 * variant runs ITERS times per round, ROUNDS rounds, in random order per
 * round; the minimum TSC ticks per iteration of each is reported together
 * with its ratio to the empty loop and the cost above it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#define ITERS	2000000UL

static unsigned short user_ss(void)
{
	unsigned short ss;

	asm volatile("mov %%ss,%0" : "=r"(ss));
	return ss;
}

static uint64_t loop_empty(unsigned long n, unsigned short ss)
{
	uint64_t t = __rdtsc();

	for (; n; n--)
		asm volatile("" : : "r"(ss) : "memory");
	return __rdtsc() - t;
}

/*
 * The kernel's sequence: savesegment(ss, ...), compare with an immediate,
 * and loadsegment() when they differ.  CMP is the immediate compared with.
 */
#define SS_CHECK(v, CMP)					\
	asm volatile("mov %%ss,%w0\n\t"				\
		     "cmp $" #CMP ",%w0\n\t"				\
		     "je 1f\n\t"					\
		     "mov $0x2b,%k0\n\t"				\
		     "mov %k0,%%ss\n"					\
		     "1:"						\
		     : "=&r"(v) : : "cc", "memory")

/* Every context switch: SS already holds the selector, no write. */
static uint64_t loop_read(unsigned long n, unsigned short ss)
{
	uint64_t t = __rdtsc();
	unsigned int v;

	for (; n; n--)
		SS_CHECK(v, 0x2b);		/* __USER_DS: equal, skip */
	return __rdtsc() - t;
}

/* The switch after an interrupt from user mode: compare fails, SS written. */
static uint64_t loop_write(unsigned long n, unsigned short ss)
{
	uint64_t t = __rdtsc();
	unsigned int v;

	for (; n; n--)
		SS_CHECK(v, 0x18);		/* __KERNEL_DS: differs, write */
	return __rdtsc() - t;
}

struct variant {
	const char *name;
	uint64_t (*fn)(unsigned long, unsigned short);
	double best;
};

int main(int argc, char **argv)
{
	struct variant v[] = {
		{ "empty loop", loop_empty, 1e300 },
		{ "SS read+cmp (every switch)", loop_read, 1e300 },
		{ "SS read+cmp+write (after user irq)", loop_write, 1e300 },
	};
	int rounds = argc > 1 ? atoi(argv[1]) : 15;
	unsigned short ss = user_ss();
	int r, i;

	if (ss != 0x2b) {
		fprintf(stderr, "ss-access: user SS is %#x, expected __USER_DS 0x2b\n", ss);
		return 1;
	}

	srand(1);
	for (r = 0; r < rounds; r++) {
		int order[3] = { 0, 1, 2 };

		for (i = 2; i > 0; i--) {
			int j = rand() % (i + 1), t = order[i];

			order[i] = order[j];
			order[j] = t;
		}
		for (i = 0; i < 3; i++) {
			struct variant *x = &v[order[i]];
			double per = (double)x->fn(ITERS, ss) / ITERS;

			if (per < x->best)
				x->best = per;
		}
	}
	printf("method: %lu iterations x %d rounds, random order per round, min TSC ticks/iteration; user SS %#x stands in for __KERNEL_DS\n",
	       ITERS, rounds, ss);
	for (i = 0; i < 3; i++)
		printf("  %-36s %7.2f ticks  %5.2fx empty  +%.2f ticks\n", v[i].name,
		       v[i].best, v[i].best / v[0].best, v[i].best - v[0].best);
	printf("ratio write/read path: %.2fx\n",
	       (v[2].best - v[0].best) / (v[1].best - v[0].best));
	return 0;
}
