// SPDX-License-Identifier: GPL-2.0-only
/*
 * Userspace harness for the cost of the three refcount_t implementations
 * (scripts/bench/refcount builds and runs it).
 *
 * Each operation is a noinline (noipa) function whose body is the kernel's
 * code, copied from the 6.12 headers with the series applied:
 *
 *   plain    atomic_t, arch/x86/include/asm/atomic.h: lock incl;
 *            lock decl + sete; the try_cmpxchg loop of atomic_inc_not_zero()
 *   generic  include/linux/refcount.h: lock xadd, then C checks of the old
 *            value; refcount_warn_saturate() on misuse
 *   fast     arch/x86/include/asm/refcount.h as GCC builds it: lock incl;
 *            js (asm goto), lock decl; jz; jl, lock decl; jle;
 *            inc_not_zero is generic's
 *   full     include/linux/refcount_full.h: try_cmpxchg loops that check
 *            before they write; refcount_report() on misuse
 *
 * compiled with the kernel's code generation flags.  The file is compiled
 * twice: with -DREFCOUNT_OPS and the kernel's flags (-O2 -mno-red-zone
 * -mpreferred-stack-boundary=3 -fno-strict-overflow ..., see the script)
 * for the operations and the timed loops, and without it, with ordinary
 * userspace flags, for main(), which calls printf() and needs the ABI's
 * 16-byte stack alignment.  The functions are named like the KUnit kernel's wrappers in
 * lib/refcount_kunit.c (VARIANT_op_inc, VARIANT_op_dec_and_test,
 * VARIANT_op_inc_not_zero, VARIANT_op_dec), so that scripts/bench/refcount
 * --check can compare their objdump -d with the kernel's op_*().  The misuse
 * paths call userspace stand-ins for refcount_warn_saturate() and
 * refcount_report() that record the report instead of warning.
 *
 * Usage:
 *   refcount semantics               behaviour on misuse, one line per case
 *   refcount run BOUND ROUNDS        the two timed workloads
 *
 * Workload "single": LKDTM's REFCOUNT_TIMING loop (drivers/misc/lkdtm/
 * refcount.c) with INT_MAX replaced by BOUND: from 1, BOUND - 1 increments,
 * then dec_and_test until it returns true; 2 * BOUND - 1 operations.
 * Workload "contended": two threads pinned to CPUs 0 and 1 run the same
 * up/down loop on one shared counter that starts at 2 * BOUND, so that it
 * never reaches zero (each thread's net change is -1); ns/op is the wall time from the common start until
 * the later thread finishes, divided by one thread's operation count.
 * The variants alternate within each round (plain, generic, fast, full);
 * min and median over ROUNDS are printed, with the ratio to plain atomic_t.
 * No timing is asserted; only the counts (the loop must end exactly at
 * zero, no misuse reported) are checked.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- the kernel's definitions, as the x86_64 SMP build sees them ---- */

typedef struct { int counter; } atomic_t;
typedef struct { atomic_t refs; } refcount_t;

#undef __always_inline
#define __always_inline	inline __attribute__((__always_inline__))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define barrier()	__asm__ __volatile__("" : : : "memory")
#define smp_acquire__after_ctrl_dep()	barrier()	/* x86 smp_rmb() */
#define _THIS_IP_  ({ __label__ __here; __here: (unsigned long)&&__here; })
#define _RET_IP_	(unsigned long)__builtin_return_address(0)
/* The kernel's op_*() wrappers are static noinline; noipa also keeps GCC
 * from specialising them or their callees (the kernel's callees are in
 * other files). */
#define OP		__attribute__((noipa, used))
#define LOCK_PREFIX	"\n\tlock "

#define REFCOUNT_MAX		INT_MAX
#define REFCOUNT_SATURATED	(INT_MIN / 2)

enum refcount_saturation_type {
	REFCOUNT_ADD_NOT_ZERO_OVF,
	REFCOUNT_ADD_OVF,
	REFCOUNT_ADD_UAF,
	REFCOUNT_SUB_UAF,
	REFCOUNT_DEC_LEAK,
	NR_TYPES
};


typedef int (*op_fn)(refcount_t *);

#define VARIANT_DECLS(v)						\
	int v##_op_inc(refcount_t *r);					\
	int v##_op_dec_and_test(refcount_t *r);				\
	int v##_op_inc_not_zero(refcount_t *r);				\
	int v##_op_dec(refcount_t *r);					\
	long v##_updown(refcount_t *r, unsigned int bound);
VARIANT_DECLS(plain)
VARIANT_DECLS(generic)
VARIANT_DECLS(fast)
VARIANT_DECLS(full)

extern int reports[NR_TYPES];
extern int last_report;
void refcount_report(refcount_t *r, enum refcount_saturation_type t, unsigned long caller);
void refcount_warn_saturate(refcount_t *r, enum refcount_saturation_type t);

static __always_inline int atomic_read(const atomic_t *v)
{
	return *(const volatile int *)&v->counter;
}

static __always_inline void atomic_set(atomic_t *v, int i)
{
	*(volatile int *)&v->counter = i;
}

static __always_inline int refcount_read(const refcount_t *r)
{
	return atomic_read(&r->refs);
}

#ifdef REFCOUNT_OPS

/* lib/refcount.c stand-ins: record the report, do not warn */
int reports[NR_TYPES];
int last_report = -1;

__attribute__((noipa)) void refcount_report(refcount_t *r, enum refcount_saturation_type t,
					     unsigned long caller)
{
	(void)r;
	(void)caller;
	if ((unsigned int)t < NR_TYPES)
		__atomic_fetch_add(&reports[t], 1, __ATOMIC_RELAXED);
	last_report = t;
}

__attribute__((noipa)) void refcount_warn_saturate(refcount_t *r, enum refcount_saturation_type t)
{
	__atomic_store_n(&r->refs.counter, REFCOUNT_SATURATED, __ATOMIC_RELAXED);
	refcount_report(r, t, _RET_IP_);
}

/* arch/x86/include/asm/atomic.h, cmpxchg.h */
static __always_inline void atomic_inc(atomic_t *v)
{
	asm volatile(LOCK_PREFIX "incl %0"
		     : "+m" (v->counter) :: "memory");
}

static __always_inline void atomic_dec(atomic_t *v)
{
	asm volatile(LOCK_PREFIX "decl %0"
		     : "+m" (v->counter) :: "memory");
}

static __always_inline bool atomic_dec_and_test(atomic_t *v)
{
	bool c;

	/* GEN_UNARY_RMWcc(LOCK_PREFIX "decl", v->counter, e) */
	asm volatile(LOCK_PREFIX "decl %[var]"
		     : "=@cce" (c), [var] "+m" (v->counter) : : "memory");
	return c;
}

static __always_inline int xadd(int *p, int i)
{
	asm volatile(LOCK_PREFIX "xaddl %0, %1"
		     : "+r" (i), "+m" (*p) : : "memory", "cc");
	return i;
}

#define atomic_fetch_add_relaxed(i, v)	xadd(&(v)->counter, (i))
#define atomic_fetch_sub_release(i, v)	xadd(&(v)->counter, -(i))

static __always_inline bool atomic_try_cmpxchg(atomic_t *v, int *_old, int _new)
{
	bool success;
	int __old = *_old;
	volatile int *__ptr = (volatile int *)&v->counter;

	asm volatile(LOCK_PREFIX "cmpxchgl %[new], %[ptr]"
		     : "=@ccz" (success), [ptr] "+m" (*__ptr), [old] "+a" (__old)
		     : [new] "r" (_new)
		     : "memory");
	if (unlikely(!success))
		*_old = __old;
	return likely(success);
}

#define atomic_try_cmpxchg_relaxed	atomic_try_cmpxchg
#define atomic_try_cmpxchg_acquire	atomic_try_cmpxchg
#define atomic_try_cmpxchg_release	atomic_try_cmpxchg

/* ---- plain atomic_t (what LKDTM's ATOMIC_TIMING uses) ---- */

/* include/linux/atomic/atomic-arch-fallback.h: raw_atomic_fetch_add_unless() */
static __always_inline int atomic_fetch_add_unless(atomic_t *v, int a, int u)
{
	int c = atomic_read(v);

	do {
		if (unlikely(c == u))
			break;
	} while (!atomic_try_cmpxchg(v, &c, c + a));

	return c;
}

OP int plain_op_inc(refcount_t *r)
{
	atomic_inc(&r->refs);
	return 0;
}

OP int plain_op_dec_and_test(refcount_t *r)
{
	return atomic_dec_and_test(&r->refs);
}

OP int plain_op_inc_not_zero(refcount_t *r)
{
	return atomic_fetch_add_unless(&r->refs, 1, 0) != 0;
}

OP int plain_op_dec(refcount_t *r)
{
	atomic_dec(&r->refs);
	return 0;
}

/* ---- generic: include/linux/refcount.h ---- */

static __always_inline bool generic_add_not_zero(int i, refcount_t *r, int *oldp)
{
	int old = refcount_read(r);

	do {
		if (!old)
			break;
	} while (!atomic_try_cmpxchg_relaxed(&r->refs, &old, old + i));

	if (oldp)
		*oldp = old;

	if (unlikely(old < 0 || old + i < 0))
		refcount_warn_saturate(r, REFCOUNT_ADD_NOT_ZERO_OVF);

	return old;
}

static __always_inline void generic_add(int i, refcount_t *r, int *oldp)
{
	int old = atomic_fetch_add_relaxed(i, &r->refs);

	if (oldp)
		*oldp = old;

	if (unlikely(!old))
		refcount_warn_saturate(r, REFCOUNT_ADD_UAF);
	else if (unlikely(old < 0 || old + i < 0))
		refcount_warn_saturate(r, REFCOUNT_ADD_OVF);
}

static __always_inline bool generic_sub_and_test(int i, refcount_t *r, int *oldp)
{
	int old = atomic_fetch_sub_release(i, &r->refs);

	if (oldp)
		*oldp = old;

	if (old > 0 && old == i) {
		smp_acquire__after_ctrl_dep();
		return true;
	}

	if (unlikely(old <= 0 || old - i < 0))
		refcount_warn_saturate(r, REFCOUNT_SUB_UAF);

	return false;
}

static __always_inline void generic_dec(refcount_t *r, int *oldp)
{
	int old = atomic_fetch_sub_release(1, &r->refs);

	if (oldp)
		*oldp = old;

	if (unlikely(old <= 1))
		refcount_warn_saturate(r, REFCOUNT_DEC_LEAK);
}

OP int generic_op_inc(refcount_t *r)
{
	generic_add(1, r, NULL);
	return 0;
}

OP int generic_op_dec_and_test(refcount_t *r)
{
	return generic_sub_and_test(1, r, NULL);
}

OP int generic_op_inc_not_zero(refcount_t *r)
{
	return generic_add_not_zero(1, r, NULL);
}

OP int generic_op_dec(refcount_t *r)
{
	generic_dec(r, NULL);
	return 0;
}

/* ---- fast: arch/x86/include/asm/refcount.h (the oldp == NULL paths) ---- */

static __always_inline void fast_add(int i, refcount_t *r)
{
	if (__builtin_constant_p(i) && i == 1)
		asm goto(LOCK_PREFIX "incl %[counter]\n\t"
			 "js %l[saturate]"
			 : : [counter] "m" (r->refs.counter)
			 : "memory", "cc" : saturate);
	else
		asm goto(LOCK_PREFIX "addl %[i], %[counter]\n\t"
			 "js %l[saturate]"
			 : : [counter] "m" (r->refs.counter), [i] "ir" (i)
			 : "memory", "cc" : saturate);
	return;
saturate:
	refcount_warn_saturate(r, REFCOUNT_ADD_OVF);
}

static __always_inline bool fast_sub_and_test(int i, refcount_t *r)
{
	if (__builtin_constant_p(i) && i == 1)
		asm goto(LOCK_PREFIX "decl %[counter]\n\t"
			 "jz %l[zero]\n\t"
			 "jl %l[underflow]"
			 : : [counter] "m" (r->refs.counter)
			 : "memory", "cc" : zero, underflow);
	else
		asm goto(LOCK_PREFIX "subl %[i], %[counter]\n\t"
			 "jz %l[zero]\n\t"
			 "jl %l[underflow]"
			 : : [counter] "m" (r->refs.counter), [i] "ir" (i)
			 : "memory", "cc" : zero, underflow);
	return false;
zero:
	smp_acquire__after_ctrl_dep();
	return true;
underflow:
	refcount_warn_saturate(r, REFCOUNT_SUB_UAF);
	return false;
}

static __always_inline void fast_dec(refcount_t *r)
{
	asm goto(LOCK_PREFIX "decl %[counter]\n\t"
		 "jle %l[leak]"
		 : : [counter] "m" (r->refs.counter)
		 : "memory", "cc" : leak);
	return;
leak:
	refcount_warn_saturate(r, REFCOUNT_DEC_LEAK);
}

OP int fast_op_inc(refcount_t *r)
{
	fast_add(1, r);
	return 0;
}

OP int fast_op_dec_and_test(refcount_t *r)
{
	return fast_sub_and_test(1, r);
}

OP int fast_op_inc_not_zero(refcount_t *r)
{
	return generic_add_not_zero(1, r, NULL);	/* not provided by fast */
}

OP int fast_op_dec(refcount_t *r)
{
	fast_dec(r);
	return 0;
}

/* ---- full: include/linux/refcount_full.h ---- */

static __always_inline int full_sum(int old, int i)
{
	if (unlikely(old < 0 || i < 0 || old > REFCOUNT_MAX - i))
		return REFCOUNT_SATURATED;
	return old + i;
}

static __always_inline bool full_add_not_zero(int i, refcount_t *r, int *oldp, bool acquire)
{
	int old = refcount_read(r);
	int new = 0;

	do {
		if (!old)
			break;
		new = full_sum(old, i);
	} while (acquire ?
		 !atomic_try_cmpxchg_acquire(&r->refs, &old, new) :
		 !atomic_try_cmpxchg_relaxed(&r->refs, &old, new));

	if (oldp)
		*oldp = old;

	if (unlikely(old && new == REFCOUNT_SATURATED))
		refcount_report(r, REFCOUNT_ADD_NOT_ZERO_OVF, _THIS_IP_);

	return old;
}

static __always_inline void full_add(int i, refcount_t *r, int *oldp)
{
	int old = refcount_read(r);
	int new = 0;

	do {
		if (unlikely(!old))
			break;
		new = full_sum(old, i);
	} while (!atomic_try_cmpxchg_relaxed(&r->refs, &old, new));

	if (oldp)
		*oldp = old;

	if (unlikely(!old))
		refcount_report(r, REFCOUNT_ADD_UAF, _THIS_IP_);
	else if (unlikely(new == REFCOUNT_SATURATED))
		refcount_report(r, REFCOUNT_ADD_OVF, _THIS_IP_);
}

static __always_inline bool full_sub_and_test(int i, refcount_t *r, int *oldp)
{
	int old = refcount_read(r);
	int new;

	do {
		if (unlikely(old <= 0 || i < 0 || old < i))
			new = REFCOUNT_SATURATED;
		else
			new = old - i;
	} while (!atomic_try_cmpxchg_release(&r->refs, &old, new));

	if (oldp)
		*oldp = old;

	if (!new) {
		smp_acquire__after_ctrl_dep();
		return true;
	}

	if (unlikely(new == REFCOUNT_SATURATED))
		refcount_report(r, REFCOUNT_SUB_UAF, _THIS_IP_);

	return false;
}

static __always_inline void full_dec(refcount_t *r, int *oldp)
{
	int old = refcount_read(r);
	int new;

	do {
		if (unlikely(old <= 1))
			new = REFCOUNT_SATURATED;
		else
			new = old - 1;
	} while (!atomic_try_cmpxchg_release(&r->refs, &old, new));

	if (oldp)
		*oldp = old;

	if (unlikely(new == REFCOUNT_SATURATED))
		refcount_report(r, REFCOUNT_DEC_LEAK, _THIS_IP_);
}

OP int full_op_inc(refcount_t *r)
{
	full_add(1, r, NULL);
	return 0;
}

OP int full_op_dec_and_test(refcount_t *r)
{
	return full_sub_and_test(1, r, NULL);
}

OP int full_op_inc_not_zero(refcount_t *r)
{
	return full_add_not_zero(1, r, NULL, false);
}

OP int full_op_dec(refcount_t *r)
{
	full_dec(r, NULL);
	return 0;
}

/*
 * LKDTM's REFCOUNT_TIMING with INT_MAX replaced by @bound.  Returns the
 * "i" the down loop stopped at: 1 when the count reached zero exactly at
 * the end, as LKDTM checks; 0 when it never did (the contended workload).
 */
#define UPDOWN(v)							\
__attribute__((noipa)) long v##_updown(refcount_t *r, unsigned int bound) \
{									\
	unsigned int i;							\
									\
	for (i = 0; i < bound - 1; i++)					\
		v##_op_inc(r);						\
	for (i = bound; i > 0; i--)					\
		if (v##_op_dec_and_test(r))				\
			break;						\
	return i;							\
}
UPDOWN(plain)
UPDOWN(generic)
UPDOWN(fast)
UPDOWN(full)

#else /* !REFCOUNT_OPS: main(), ordinary userspace code */

static const char *const type_name[NR_TYPES] = {
	"ADD_NOT_ZERO_OVF", "ADD_OVF", "ADD_UAF", "SUB_UAF", "DEC_LEAK",
};

/* ---- the variants ---- */

struct variant {
	const char *name;
	op_fn inc, dec_and_test, inc_not_zero, dec;
	/* up/down loop with direct calls to this variant's functions */
	long (*updown)(refcount_t *r, unsigned int bound);
};

#define VARIANT(v) { #v, v##_op_inc, v##_op_dec_and_test, v##_op_inc_not_zero, v##_op_dec, v##_updown }
static const struct variant variants[] = {
	VARIANT(plain), VARIANT(generic), VARIANT(fast), VARIANT(full),
};
#define NR_VARIANTS	(int)(sizeof(variants) / sizeof(variants[0]))

/* ---- semantics: what each variant does on misuse ---- */

static void reset_reports(void)
{
	memset(reports, 0, sizeof(reports));
	last_report = -1;
}

static void show(const struct variant *v, const char *what, int start, int ret, refcount_t *r)
{
	int i, n = 0;

	printf("semantics %s %s start=%d ret=%d count=%d (%#x) report=", v->name, what, start, ret,
	       refcount_read(r), (unsigned int)refcount_read(r));
	for (i = 0; i < NR_TYPES; i++)
		if (reports[i])
			printf("%s%s", n++ ? "," : "", type_name[i]);
	printf("%s\n", n ? "" : "none");
}

static int semantics(void)
{
	static const struct {
		const char *what;
		int start;
		int op;		/* 0 inc, 1 dec_and_test, 2 inc_not_zero, 3 dec */
	} cases[] = {
		{ "overflow",		INT_MAX,	0 },
		{ "underflow",		0,		1 },
		{ "inc_from_zero",	0,		0 },
		{ "dec_to_zero",	1,		3 },
		{ "inc_not_zero_from_zero", 0,		2 },
		{ "dec_and_test_to_zero", 1,		1 },
	};
	int vi, ci;

	for (vi = 0; vi < NR_VARIANTS; vi++) {
		const struct variant *v = &variants[vi];

		for (ci = 0; ci < (int)(sizeof(cases) / sizeof(cases[0])); ci++) {
			op_fn f[] = { v->inc, v->dec_and_test, v->inc_not_zero, v->dec };
			refcount_t r;
			int ret;

			atomic_set(&r.refs, cases[ci].start);
			reset_reports();
			ret = f[cases[ci].op](&r);
			show(v, cases[ci].what, cases[ci].start, ret, &r);
		}
	}
	return 0;
}

/* ---- timing ---- */

#define CLOCK	CLOCK_MONOTONIC_RAW

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set)) {
		fprintf(stderr, "refcount: cannot pin a thread to CPU %d\n", cpu);
		exit(1);
	}
}

static struct {
	refcount_t r __attribute__((aligned(64)));
	int go __attribute__((aligned(64)));
	int ready;
	const struct variant *v;
	unsigned int bound;
} shared;

struct worker {
	pthread_t tid;
	int cpu;
	double start, end;
	long stop;
};

static void *worker(void *arg)
{
	struct worker *w = arg;

	pin(w->cpu);
	__atomic_fetch_add(&shared.ready, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&shared.go, __ATOMIC_ACQUIRE))
		;
	w->start = now_ns();
	w->stop = shared.v->updown(&shared.r, shared.bound);
	w->end = now_ns();
	return NULL;
}

/* ns per operation of one thread, both threads on one counter */
static double contended(const struct variant *v, unsigned int bound, int cpu0, int cpu1)
{
	struct worker w[2] = { { .cpu = cpu0 }, { .cpu = cpu1 } };
	double start, end;
	int i;

	shared.v = v;
	shared.bound = bound;
	shared.ready = 0;
	shared.go = 0;
	atomic_set(&shared.r.refs, 2 * (int)bound);
	for (i = 0; i < 2; i++)
		if (pthread_create(&w[i].tid, NULL, worker, &w[i])) {
			fprintf(stderr, "refcount: pthread_create failed\n");
			exit(1);
		}
	while (__atomic_load_n(&shared.ready, __ATOMIC_ACQUIRE) < 2)
		;
	__atomic_store_n(&shared.go, 1, __ATOMIC_RELEASE);
	for (i = 0; i < 2; i++)
		pthread_join(w[i].tid, NULL);
	start = w[0].start < w[1].start ? w[0].start : w[1].start;
	end = w[0].end > w[1].end ? w[0].end : w[1].end;
	/* each thread: bound - 1 increments, bound decrements */
	if (w[0].stop != 0 || w[1].stop != 0 || refcount_read(&shared.r) != 2 * (int)bound - 2) {
		fprintf(stderr, "refcount: %s contended: count %d at the end, expected %d\n",
			v->name, refcount_read(&shared.r), 2 * (int)bound - 2);
		exit(1);
	}
	return (end - start) / (2.0 * bound - 1);
}

static double single(const struct variant *v, unsigned int bound)
{
	refcount_t r;
	double t;
	long i;

	atomic_set(&r.refs, 1);
	t = now_ns();
	i = v->updown(&r, bound);
	t = now_ns() - t;
	if (i != 1 || refcount_read(&r) != 0) {
		fprintf(stderr, "refcount: %s: out of sync up/down cycle: %ld, count %d\n",
			v->name, i - 1, refcount_read(&r));
		exit(1);
	}
	return t / (2.0 * bound - 1);
}

static void summary(const char *workload, double res[][NR_VARIANTS], int rounds)
{
	double col[rounds], min[NR_VARIANTS], med[NR_VARIANTS];
	int vi, k;

	for (vi = 0; vi < NR_VARIANTS; vi++) {
		for (k = 0; k < rounds; k++)
			col[k] = res[k][vi];
		qsort(col, rounds, sizeof(col[0]), cmp_double);
		min[vi] = col[0];
		med[vi] = rounds % 2 ? col[rounds / 2] : (col[rounds / 2 - 1] + col[rounds / 2]) / 2;
	}
	for (vi = 0; vi < NR_VARIANTS; vi++)
		printf("result %-9s %-8s min %8.3f ns/op  median %8.3f ns/op  ratio-min %5.2f  ratio-median %5.2f\n",
		       workload, variants[vi].name, min[vi], med[vi], min[vi] / min[0],
		       med[vi] / med[0]);
}

static int run(unsigned int bound, int rounds)
{
	double (*s)[NR_VARIANTS] = calloc(rounds, sizeof(*s));
	double (*c)[NR_VARIANTS] = calloc(rounds, sizeof(*c));
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int k, vi, n;

	if (!s || !c)
		return 1;
	printf("method: clock CLOCK_MONOTONIC_RAW; %d rounds, variants alternating in each round (", rounds);
	for (vi = 0; vi < NR_VARIANTS; vi++)
		printf("%s%s", vi ? ", " : "", variants[vi].name);
	printf("); bound %u (%.0f ops per up/down cycle); each op a call to the noinline function --check compares with the kernel's\n",
	       bound, 2.0 * bound - 1);
	printf("method: single = one thread pinned to CPU 0, LKDTM REFCOUNT_TIMING loop from 1 to the bound and back to 0\n");
	printf("method: contended = two threads pinned to CPUs 0 and 1, same loop on one shared counter starting at 2*bound (never 0); ns/op = wall time / one thread's ops\n");

	pin(0);
	for (k = 0; k < rounds; k++)
		for (vi = 0; vi < NR_VARIANTS; vi++) {
			s[k][vi] = single(&variants[vi], bound);
			printf("raw single round %d %s %.4f\n", k, variants[vi].name, s[k][vi]);
		}
	summary("single", s, rounds);
	n = 0;
	for (vi = 0; vi < NR_TYPES; vi++)
		n += reports[vi];
	if (n) {
		fprintf(stderr, "refcount: %d misuse reports during the single workload\n", n);
		return 1;
	}

	if (ncpu < 2) {
		printf("result contended not measured: %ld CPU online, needs 2\n", ncpu);
		return 0;
	}
	for (k = 0; k < rounds; k++)
		for (vi = 0; vi < NR_VARIANTS; vi++) {
			c[k][vi] = contended(&variants[vi], bound, 0, 1);
			printf("raw contended round %d %s %.4f\n", k, variants[vi].name, c[k][vi]);
		}
	summary("contended", c, rounds);
	for (vi = 0; vi < NR_TYPES; vi++)
		n += reports[vi];
	if (n) {
		fprintf(stderr, "refcount: %d misuse reports during the contended workload\n", n);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "semantics"))
		return semantics();
	if (argc == 4 && !strcmp(argv[1], "run")) {
		long bound = atol(argv[2]);
		int rounds = atoi(argv[3]);

		if (bound < 2 || bound > INT_MAX / 2 || rounds < 1 || rounds > 1000) {
			fprintf(stderr, "refcount: bound must be 2..%d, rounds 1..1000\n", INT_MAX / 2);
			return 2;
		}
		return run((unsigned int)bound, rounds);
	}
	fprintf(stderr, "usage: %s semantics | run BOUND ROUNDS\n", argv[0]);
	return 2;
}

#endif /* REFCOUNT_OPS */
