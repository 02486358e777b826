// SPDX-License-Identifier: GPL-2.0-only
/*
 * init for the initramfs that scripts/selftests boots: runs each test
 * named in /tests, one at a time, each in its own process group with its
 * own time budget, prints one line before and one after each, and powers
 * the machine off.  Static, no libc beyond what glibc links statically.
 *
 * /tests holds one "NAME SECONDS" per line; the binary is /bin/NAME.
 * Lines on the console, for scripts/selftests to parse:
 *   selftests: kernel RELEASE, cpu0 bugs: BUGS
 *   selftests: begin NAME budget SECONDS
 *   selftests: end NAME exit STATUS after MS ms
 *   selftests: end NAME signal SIGNAL after MS ms
 *   selftests: end NAME timeout after MS ms     (killed at the budget)
 *   selftests: done
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/*
 * The console is a serial tty: what init writes waits in its buffer while
 * the kernel's own messages (an oops, "reboot: Restarting system") go out
 * at once, and can land inside one of our lines.  Each line of ours is
 * written out to the wire before anything else happens.
 */
static void drain(void)
{
	fflush(stdout);
	tcdrain(STDOUT_FILENO);
}

static void reap_orphans(void)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

static void print_facts(void)
{
	struct utsname u;
	char line[1024], bugs[1024] = "?";
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "bugs", 4)) {
			char *p = strchr(line, ':');

			snprintf(bugs, sizeof(bugs), "%s", p ? p + 2 : line);
			bugs[strcspn(bugs, "\n")] = 0;
			break;
		}
	}
	if (f)
		fclose(f);
	uname(&u);
	printf("selftests: kernel %s, cpu0 bugs: %s\n", u.release, bugs);
}

static void run(const char *name, int budget)
{
	char path[256];
	long start = now_ms(), deadline = start + budget * 1000L;
	int status;
	pid_t pid;

	snprintf(path, sizeof(path), "/bin/%s", name);
	printf("selftests: begin %s budget %d\n", name, budget);
	drain();
	pid = fork();
	if (pid < 0) {
		printf("selftests: end %s exit 127 after 0 ms (fork: %s)\n",
		       name, strerror(errno));
		drain();
		return;
	}
	if (pid == 0) {
		char *argv[] = { path, NULL };

		setpgid(0, 0);
		execv(path, argv);
		printf("exec %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			break;
		if (now_ms() >= deadline) {
			long grace = now_ms() + 5000;

			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			/*
			 * A test that oopsed holding a lock its exit needs
			 * stays in D state and is never reaped: give it five
			 * seconds, then go on with the next test instead of
			 * waiting for ever.
			 */
			while (waitpid(pid, &status, WNOHANG) != pid &&
			       now_ms() < grace)
				usleep(20000);
			fflush(stdout);
			printf("\nselftests: end %s timeout after %ld ms\n",
			       name, now_ms() - start);
			drain();
			reap_orphans();
			return;
		}
		usleep(20000);
	}
	/* a test's children outlive it only by mistake: stop them too */
	kill(-pid, SIGKILL);
	reap_orphans();
	fflush(stdout);
	if (WIFEXITED(status))
		printf("\nselftests: end %s exit %d after %ld ms\n", name,
		       WEXITSTATUS(status), now_ms() - start);
	else
		printf("\nselftests: end %s signal %d after %ld ms\n", name,
		       WTERMSIG(status), now_ms() - start);
	drain();
}

int main(void)
{
	char name[128];
	int budget;
	FILE *list;

	setvbuf(stdout, NULL, _IOLBF, 0);
	mount("proc", "/proc", "proc", 0, NULL);
	mount("tmpfs", "/tmp", "tmpfs", 0, NULL);
	print_facts();
	list = fopen("/tests", "r");
	while (list && fscanf(list, "%127s %d", name, &budget) == 2)
		run(name, budget);
	printf("selftests: done\n");
	drain();
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
