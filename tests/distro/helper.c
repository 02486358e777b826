// SPDX-License-Identifier: GPL-2.0
/*
 * x86h-helper: the steps of the distribution-configuration workload that
 * busybox cannot do (tests/distro/init runs it).  Built static with the
 * host's gcc by scripts/distro.  Each subcommand checks its own result and
 * exits 0 only when every check held; it prints one line saying why not.
 *
 *   tcp ROUNDS BYTES   a child sends BYTES of a pattern over loopback TCP,
 *                      the parent reads them back and compares a checksum
 *   udp COUNT          COUNT datagrams to a loopback socket, each received
 *                      and compared before the next is sent
 *   iouring ROUNDS     io_uring_setup(), one IORING_OP_NOP submitted and
 *                      its completion checked, the ring torn down
 *   perf               a software event enabled by PERF_EVENT_IOC_REFRESH
 *                      counts, and stops after its overflow limit
 *   perf-limit-max     PERF_EVENT_IOC_REFRESH with INT_MAX twice on one's
 *                      own event (what an unprivileged user can do)
 *   spawn COUNT        COUNT fork()+execve() of "x86h-helper noop", each
 *                      exit status checked
 *   noop               exit 0
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/io_uring.h>
#include <linux/perf_event.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int fail(const char *what)
{
	printf("x86h-helper: %s: %s\n", what, errno ? strerror(errno) : "check failed");
	return 1;
}

static uint32_t fnv(uint32_t h, const unsigned char *p, size_t n)
{
	while (n--)
		h = (h ^ *p++) * 16777619u;
	return h;
}

static unsigned char pattern(size_t i)
{
	return (unsigned char)(i * 2654435761u >> 13);
}

static int tcp_round(size_t bytes)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	unsigned char buf[65536];
	uint32_t want = 2166136261u, got = 2166136261u;
	size_t i, total = 0;
	int ls, cs, st;
	pid_t pid;
	ssize_t n;

	for (i = 0; i < bytes; i++) {
		unsigned char c = pattern(i);

		want = fnv(want, &c, 1);
	}
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ls = socket(AF_INET, SOCK_STREAM, 0);
	if (ls < 0 || bind(ls, (void *)&a, sizeof(a)) || listen(ls, 1) ||
	    getsockname(ls, (void *)&a, &len))
		return fail("tcp: listen");
	pid = fork();
	if (pid < 0)
		return fail("tcp: fork");
	if (!pid) {
		int s = socket(AF_INET, SOCK_STREAM, 0);
		size_t off = 0;

		if (s < 0 || connect(s, (void *)&a, sizeof(a)))
			_exit(fail("tcp: connect"));
		while (off < bytes) {
			size_t k = bytes - off < sizeof(buf) ? bytes - off : sizeof(buf);

			for (i = 0; i < k; i++)
				buf[i] = pattern(off + i);
			for (i = 0; i < k; i += n) {
				n = write(s, buf + i, k - i);
				if (n <= 0)
					_exit(fail("tcp: write"));
			}
			off += k;
		}
		close(s);
		_exit(0);
	}
	cs = accept(ls, NULL, NULL);
	if (cs < 0)
		return fail("tcp: accept");
	while ((n = read(cs, buf, sizeof(buf))) > 0) {
		got = fnv(got, buf, n);
		total += n;
	}
	close(cs);
	close(ls);
	if (n < 0)
		return fail("tcp: read");
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return fail("tcp: sender failed");
	if (total != bytes || got != want) {
		printf("x86h-helper: tcp: received %zu bytes, checksum %08x, sent %zu, %08x\n",
		       total, got, bytes, want);
		return 1;
	}
	return 0;
}

static int udp(long count)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	unsigned char out[1024], in[2048];
	struct timeval tv = { .tv_sec = 5 };
	int rs, ss;
	long k;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	rs = socket(AF_INET, SOCK_DGRAM, 0);
	ss = socket(AF_INET, SOCK_DGRAM, 0);
	if (rs < 0 || ss < 0 || bind(rs, (void *)&a, sizeof(a)) ||
	    getsockname(rs, (void *)&a, &len) ||
	    setsockopt(rs, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
		return fail("udp: socket");
	for (k = 0; k < count; k++) {
		size_t n = 1 + k % sizeof(out), i;
		ssize_t r;

		for (i = 0; i < n; i++)
			out[i] = pattern(k + i);
		if (sendto(ss, out, n, 0, (void *)&a, sizeof(a)) != (ssize_t)n)
			return fail("udp: sendto");
		r = recv(rs, in, sizeof(in), 0);
		if (r < 0)
			return fail("udp: recv");
		if ((size_t)r != n || memcmp(in, out, n)) {
			printf("x86h-helper: udp: datagram %ld came back as %zd bytes, different\n", k, r);
			return 1;
		}
	}
	return 0;
}

static int iouring(long rounds)
{
	long k;

	for (k = 0; k < rounds; k++) {
		struct io_uring_params p;
		struct io_uring_sqe *sqes;
		struct io_uring_cqe *cqe;
		unsigned int *sq_tail, *sq_array, *cq_head, *cq_tail, *cq_mask;
		size_t sq_len, cq_len;
		void *sq, *cq;
		int fd;

		memset(&p, 0, sizeof(p));
		fd = syscall(__NR_io_uring_setup, 4, &p);
		if (fd < 0)
			return fail("iouring: io_uring_setup");
		sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
		cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
		sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
			  fd, IORING_OFF_SQ_RING);
		cq = mmap(NULL, cq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
			  fd, IORING_OFF_CQ_RING);
		sqes = mmap(NULL, p.sq_entries * sizeof(*sqes), PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQES);
		if (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED)
			return fail("iouring: mmap");
		sq_tail = (unsigned int *)((char *)sq + p.sq_off.tail);
		sq_array = (unsigned int *)((char *)sq + p.sq_off.array);
		cq_head = (unsigned int *)((char *)cq + p.cq_off.head);
		cq_tail = (unsigned int *)((char *)cq + p.cq_off.tail);
		cq_mask = (unsigned int *)((char *)cq + p.cq_off.ring_mask);
		memset(&sqes[0], 0, sizeof(sqes[0]));
		sqes[0].opcode = IORING_OP_NOP;
		sqes[0].user_data = 0x5eed0000 + k;
		sq_array[*sq_tail & (p.sq_entries - 1)] = 0;
		__atomic_store_n(sq_tail, *sq_tail + 1, __ATOMIC_RELEASE);
		if (syscall(__NR_io_uring_enter, fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) != 1)
			return fail("iouring: io_uring_enter");
		if (__atomic_load_n(cq_tail, __ATOMIC_ACQUIRE) == *cq_head) {
			errno = 0;
			return fail("iouring: no completion");
		}
		cqe = (struct io_uring_cqe *)((char *)cq + p.cq_off.cqes) + (*cq_head & *cq_mask);
		if (cqe->user_data != 0x5eed0000 + (unsigned long)k || cqe->res != 0) {
			printf("x86h-helper: iouring: completion %llx res %d, wanted %lx res 0\n",
			       (unsigned long long)cqe->user_data, cqe->res, 0x5eed0000 + k);
			return 1;
		}
		__atomic_store_n(cq_head, *cq_head + 1, __ATOMIC_RELEASE);
		munmap(sqes, p.sq_entries * sizeof(*sqes));
		munmap(cq, cq_len);
		munmap(sq, sq_len);
		close(fd);
	}
	return 0;
}

static int perf_open(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_TASK_CLOCK,
		.sample_period = 1000000,	/* 1 ms of task time */
		.disabled = 1,
		.exclude_kernel = 1,
	};

	return syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
}

/* Burn ms of CPU time, nearly all of it in user mode (the event excludes
 * the kernel): the clock, a system call, is read every 100000 rounds. */
static void spin_ms(long ms)
{
	struct timespec a, b;
	volatile unsigned long x = 0;
	long i;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do {
		for (i = 0; i < 100000; i++)
			x += i;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < ms);
}

static int perf(void)
{
	uint64_t c0, c1, c2;
	int fd = perf_open();

	if (fd < 0)
		return fail("perf: perf_event_open");
	if (read(fd, &c0, sizeof(c0)) != sizeof(c0))
		return fail("perf: read");
	/* enabled for two overflows (2 ms of task time), then disabled */
	if (ioctl(fd, PERF_EVENT_IOC_REFRESH, 2))
		return fail("perf: PERF_EVENT_IOC_REFRESH");
	spin_ms(200);
	if (read(fd, &c1, sizeof(c1)) != sizeof(c1))
		return fail("perf: read");
	spin_ms(100);
	if (read(fd, &c2, sizeof(c2)) != sizeof(c2))
		return fail("perf: read");
	close(fd);
	if (c0 != 0 || c1 < 2000000 || c1 >= 200000000 || c2 != c1) {
		printf("x86h-helper: perf: counts %llu, %llu, %llu: wanted 0, 2..200 ms, unchanged\n",
		       (unsigned long long)c0, (unsigned long long)c1, (unsigned long long)c2);
		return 1;
	}
	return 0;
}

static int perf_limit_max(void)
{
	int fd = perf_open();

	if (fd < 0)
		return fail("perf-limit-max: perf_event_open");
	if (ioctl(fd, PERF_EVENT_IOC_REFRESH, INT_MAX) ||
	    ioctl(fd, PERF_EVENT_IOC_REFRESH, INT_MAX))
		return fail("perf-limit-max: PERF_EVENT_IOC_REFRESH");
	spin_ms(5);
	close(fd);
	return 0;
}

static int spawn(const char *self, long count)
{
	long k;

	for (k = 0; k < count; k++) {
		int st;
		pid_t pid = fork();

		if (pid < 0)
			return fail("spawn: fork");
		if (!pid) {
			execl(self, self, "noop", (char *)NULL);
			_exit(127);
		}
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
			printf("x86h-helper: spawn: child %ld exited with status %#x\n", k, st);
			return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	long n = argc > 2 ? atol(argv[2]) : 1;
	long k;

	errno = 0;
	if (!strcmp(cmd, "noop"))
		return 0;
	if (!strcmp(cmd, "tcp")) {
		for (k = 0; k < n; k++)
			if (tcp_round(argc > 3 ? atol(argv[3]) : 1 << 20))
				return 1;
		return 0;
	}
	if (!strcmp(cmd, "udp"))
		return udp(n);
	if (!strcmp(cmd, "iouring"))
		return iouring(n);
	if (!strcmp(cmd, "perf"))
		return perf();
	if (!strcmp(cmd, "perf-limit-max"))
		return perf_limit_max();
	if (!strcmp(cmd, "spawn"))
		return spawn(argv[0], n);
	fprintf(stderr, "x86h-helper: unknown subcommand '%s'\n", cmd);
	return 2;
}
