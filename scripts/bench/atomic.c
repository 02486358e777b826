// SPDX-License-Identifier: GPL-2.0-only
/*
 * Userspace harness for the cost of CONFIG_HARDENED_ATOMIC on x86-64
 * (scripts/bench/atomic builds and runs it): Jann Horn's experiment ("[RFC PATCH 12/13] x86: x86 implementation for HARDENED_ATOMIC", October 2016), an
 * atomic_t incremented in a loop by one thread, then by two threads on one
 * shared counter, with three bodies:
 *
 *   plain  arch/x86/include/asm/atomic.h without the option: lock incl
 *   fast   arch/x86/include/asm/hardened_atomic.h, HARDENED_ATOMIC_FAST:
 *          lock incl; jo to an out-of-line call of
 *          hardened_atomic_overflowed(), passing _THIS_IP_
 *   exact  the same header, HARDENED_ATOMIC_EXACT: a read, an overflow
 *          check, lock cmpxchgl in a loop; hardened_atomic_overflow() on
 *          overflow
 *
 * Each is a noinline (noipa) function compiled with the kernel's code
 * generation flags (-DATOMIC_OPS, see the script), named like the KUnit
 * kernel's ha_op_inc() (lib/hardened_atomic_kunit.c) so that
 * scripts/bench/atomic --check can compare their objdump -d.  main() is
 * compiled apart with ordinary flags.  The out-of-line functions are
 * userspace stand-ins that count the overflow and refuse it (protect mode).
 *
 * Usage:
 *   atomic semantics          INT_MAX behaviour of each body, one line each
 *   atomic run OPS ROUNDS     the timed loops, OPS increments per thread
 */
#define _GNU_SOURCE
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct { int counter; } atomic_t;

/* protect mode saturates, as HARDENED_ATOMIC_SATURATED */
#define SATURATED	(INT_MIN / 2)

extern long reports;
bool hardened_atomic_overflowed(atomic_t *v, int event, unsigned long ip);
bool hardened_atomic_overflow(const void *counter, int event);
void plain_op_inc(atomic_t *v);
void fast_op_inc(atomic_t *v);
void exact_op_inc(atomic_t *v);

#ifdef ATOMIC_OPS
#define noinline	__attribute__((noinline, noipa))
#define unlikely(x)	__builtin_expect(!!(x), 0)
/* as arch/x86/include/asm/linkage.h's */
#define _THIS_IP_	({ unsigned long __here; asm ("lea 0(%%rip), %0" : "=r" (__here)); __here; })

long reports;

noinline __attribute__((cold)) bool
hardened_atomic_overflowed(atomic_t *v, int event, unsigned long ip)
{
	(void)event;
	(void)ip;
	__atomic_fetch_add(&reports, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&v->counter, SATURATED, __ATOMIC_RELAXED);
	return true;
}

noinline __attribute__((cold)) bool
hardened_atomic_overflow(const void *counter, int event)
{
	(void)counter;
	(void)event;
	__atomic_fetch_add(&reports, 1, __ATOMIC_RELAXED);
	return true;
}

noinline void plain_op_inc(atomic_t *v)
{
	asm volatile("lock incl %0" : "+m" (v->counter) : : "memory");
}

noinline void fast_op_inc(atomic_t *v)
{
	bool o;

	asm volatile("lock incl %[cnt]"
		     : [cnt] "+m" (v->counter), "=@cco" (o) : : "memory");
	if (unlikely(o))
		hardened_atomic_overflowed(v, 0, _THIS_IP_);
}

/* as <asm/hardened_atomic.h>'s __arch_atomic_fetch_add_checked() */
static inline __attribute__((always_inline)) int
exact_fetch_add_checked(int i, atomic_t *v, bool *refused)
{
	int new, old = *(volatile int *)&v->counter;

	*refused = false;
	do {
		if (unlikely(__builtin_add_overflow(old, i, &new)) &&
		    hardened_atomic_overflow(v, 0)) {
			/* refused: saturated, whatever the counter became */
			*refused = true;
			return __atomic_exchange_n(&v->counter, SATURATED,
						   __ATOMIC_SEQ_CST);
		}
	} while (!__atomic_compare_exchange_n(&v->counter, &old, new, false,
					      __ATOMIC_SEQ_CST,
					      __ATOMIC_RELAXED));
	return old;
}

noinline void exact_op_inc(atomic_t *v)
{
	bool r;

	exact_fetch_add_checked(1, v, &r);
}

#else /* main, with ordinary userspace flags */

static void (*const ops[])(atomic_t *) = { plain_op_inc, fast_op_inc, exact_op_inc };
static const char *const names[] = { "plain", "fast", "exact" };
#define NR_OPS 3

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

struct worker {
	pthread_t t;
	int cpu;
	long n;
	void (*op)(atomic_t *);
	atomic_t *v;
	pthread_barrier_t *bar;
};

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void *work(void *p)
{
	struct worker *w = p;
	long i;

	pin(w->cpu);
	pthread_barrier_wait(w->bar);
	for (i = 0; i < w->n; i++)
		w->op(w->v);
	return NULL;
}

/* ns per increment: wall time until the last thread is done / per-thread n */
static double timed(int op, int threads, long n)
{
	static atomic_t v __attribute__((aligned(64)));
	pthread_barrier_t bar;
	struct worker w[2];
	double t0;
	int i;

	v.counter = 0;
	pthread_barrier_init(&bar, NULL, threads + 1);
	for (i = 0; i < threads; i++) {
		w[i] = (struct worker){ .cpu = i, .n = n, .op = ops[op], .v = &v, .bar = &bar };
		pthread_create(&w[i].t, NULL, work, &w[i]);
	}
	pthread_barrier_wait(&bar);
	t0 = now_ns();
	for (i = 0; i < threads; i++)
		pthread_join(w[i].t, NULL);
	t0 = now_ns() - t0;
	pthread_barrier_destroy(&bar);
	if (v.counter != threads * n) {
		fprintf(stderr, "%s: counter %d after %d x %ld increments\n",
			names[op], v.counter, threads, n);
		exit(1);
	}
	return t0 / n;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int semantics(void)
{
	int op, bad = 0;

	for (op = 0; op < NR_OPS; op++) {
		atomic_t v = { INT_MAX };
		long before = reports;

		ops[op](&v);
		printf("%-5s INT_MAX + 1 -> %d, %ld report(s)\n", names[op],
		       v.counter, reports - before);
		if (op == 0 ? v.counter != INT_MIN || reports != before :
			      v.counter != SATURATED || reports != before + 1)
			bad = 1;
	}
	return bad;
}

int main(int argc, char **argv)
{
	long n;
	int rounds, r, op, th;

	if (argc == 2 && !strcmp(argv[1], "semantics"))
		return semantics();
	if (argc != 4 || strcmp(argv[1], "run")) {
		fprintf(stderr, "usage: %s semantics | run OPS ROUNDS\n", argv[0]);
		return 2;
	}
	n = atol(argv[2]);
	rounds = atoi(argv[3]);
	if (n < 1 || rounds < 1 || rounds > 999)
		return 2;
	for (th = 1; th <= 2; th++) {
		double t[NR_OPS][999], med[NR_OPS];

		for (r = 0; r < rounds; r++)
			for (op = 0; op < NR_OPS; op++)	/* alternate */
				t[op][r] = timed(op, th, n);
		for (op = 0; op < NR_OPS; op++) {
			qsort(t[op], rounds, sizeof(double), cmp);
			med[op] = t[op][rounds / 2];
		}
		for (op = 0; op < NR_OPS; op++)
			printf("%s %s min %.2f median %.2f ns/op ratio-min %.3f ratio-median %.3f\n",
			       th == 1 ? "single" : "contended", names[op],
			       t[op][0], med[op], t[op][0] / t[0][0], med[op] / med[0]);
	}
	return 0;
}
#endif
