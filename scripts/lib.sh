# shellcheck shell=bash
# Helpers shared by the scripts in this folder.  Sourced, never run.

# Debian's python3 first: kernel tools (checkpatch's spdxcheck.py) need
# python3-ply and python3-git, which a pyenv or venv python3 lacks.
unset CDPATH
[ ! -x /usr/bin/python3 ] || PATH=/usr/bin:$PATH

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PROG=${PROG:-$(basename "$0")}
# shellcheck source=../base.conf
. "$REPO/base.conf"

# Where the default tree, its base commit and the ccache live: outside the
# repository, so that every clone (and CI's fresh one) shares them.
: "${HOME:=$(getent passwd "$(id -u)" | cut -d: -f6)}"
export HOME
X86H_CACHE=${X86H_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/x86-hardening}
# Build folders (one per configuration), logs and test results.
BUILD=$(realpath -m "${X86H_BUILD:-$REPO/build}")
BASE_TAG=x86h-base
SERIES_BRANCH=x86-hardening

die() {
	printf '%s: %s\n' "$PROG" "$*" >&2
	exit 1
}

warn() { printf '%s: warning: %s\n' "$PROG" "$*" >&2; }
info() { printf '%s: %s\n' "$PROG" "$*"; }

# The tree scripts/setup prepared (a git repo with one base commit, tagged
# $BASE_TAG).  setup writes its path when the package it found differs from
# base.conf.
default_tree() {
	if [ -s "$X86H_CACHE/default-tree" ]; then
		cat "$X86H_CACHE/default-tree"
	else
		echo "$X86H_CACHE/linux-$BASE_KERNELVERSION"
	fi
}

# The tree a script works on: --tree, then $KERNEL_SRC, then the default.
resolve_tree() {
	local t=${1:-${KERNEL_SRC:-}}

	if [ -z "$t" ]; then
		t=$(default_tree)
		[ -d "$t/.git" ] || die "$t: default tree missing; run scripts/setup first"
	fi
	[ -e "$t" ] || die "$t: no such directory"
	[ -d "$t" ] || die "$t: not a directory"
	(cd "$t" && pwd -P)
}

is_default_tree() {
	local d
	d=$(default_tree)
	[ -d "$d" ] && [ "$(cd "$d" && pwd -P)" = "$1" ]
}

# Refuse anything that is not the top of a 6.12 kernel git work tree.
check_kernel_tree() {
	local t=$1 v p top

	[ -f "$t/Makefile" ] && [ -f "$t/arch/x86/Kconfig" ] &&
		[ -f "$t/scripts/checkpatch.pl" ] ||
		die "$t: not a Linux kernel tree (no Makefile, arch/x86/Kconfig or scripts/checkpatch.pl)"
	v=$(sed -n 's/^VERSION = //p' "$t/Makefile" | head -n 1)
	p=$(sed -n 's/^PATCHLEVEL = //p' "$t/Makefile" | head -n 1)
	[ "$v.$p" = 6.12 ] || die "$t: Linux $v.$p; this series is for 6.12"
	top=$(git -C "$t" rev-parse --show-toplevel 2>/dev/null) ||
		die "$t: not a git work tree; the series is applied on a new git branch (git init; git add -f .; git commit)"
	[ "$(cd "$top" && pwd -P)" = "$t" ] || die "$t: not the top of its git work tree ($top is)"
	git -C "$t" rev-parse -q --verify HEAD >/dev/null || die "$t: git repository has no commit"
}

# Print why a tree is not clean, or nothing.  Debian's top-level .gitignore
# hides every untracked file, so quilt's .pc is looked for by name.
dirty_reason() {
	local t=$1 g s

	g=$(git -C "$t" rev-parse --absolute-git-dir)
	if [ -d "$g/rebase-apply" ] || [ -d "$g/rebase-merge" ]; then
		echo "a git am or rebase is in progress"
	elif [ -f "$g/MERGE_HEAD" ] || [ -f "$g/CHERRY_PICK_HEAD" ] || [ -f "$g/REVERT_HEAD" ] ||
		[ -d "$g/sequencer" ]; then
		echo "a merge, cherry-pick or revert is in progress"
	elif [ -f "$g/BISECT_LOG" ]; then
		echo "a git bisect is in progress"
	elif [ -e "$t/.pc" ]; then
		echo "quilt patches are applied (.pc exists)"
	else
		s=$(git -C "$t" status --porcelain --untracked-files=normal | head -n 3 | tr '\n' ' ')
		[ -z "$s" ] || echo "uncommitted changes: ${s% }"
	fi
}

# The patches named in series, in order, one path a line.
series_patches() {
	local p rest

	[ -f "$REPO/series" ] || die "$REPO/series: missing"
	while read -r p rest || [ -n "$p" ]; do
		case "$p" in '' | '#'*) continue ;; esac
		[ -f "$REPO/patches/$p" ] || die "series lists $p but patches/$p does not exist"
		echo "$REPO/patches/$p"
	done <"$REPO/series"
}

# git format-patch exactly as patches/ is written, whatever the user's git
# configuration says (prefixes, context, subject prefix, sign-off, suffix,
# attachments, hunk headers, mailmap): the global and system configuration
# are not read at all, and the options that matter are set here.
format_patch() {
	GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 git \
		-c diff.noprefix=false -c diff.mnemonicPrefix=false -c diff.suppressBlankEmpty=true \
		-c diff.relative=false -c diff.algorithm=myers -c diff.renames=true \
		-c diff.indentHeuristic=true -c mailmap.file=/dev/null \
		-c format.signOff=false -c format.from=false -c format.useAutoBase=false \
		-c format.coverFromDescription=none -c format.thread=false \
		format-patch --numbered --zero-commit --no-signature --abbrev=12 --no-notes --no-attach -O/dev/null \
		--src-prefix=a/ --dst-prefix=b/ -U3 --inter-hunk-context=0 \
		--subject-prefix="PATCH $(series_version)" \
		--no-signoff --no-from --no-add-header --suffix=.patch --filename-max-length=64 "$@"
}

# series_version: the version of the series, the first word of VERSION
# ("v1 on 6.12.117"); export puts it in every subject ([PATCH v1 01/20]).
series_version() {
	local v
	[ -f "$REPO/VERSION" ] || die "$REPO/VERSION: missing"
	read -r v _ <"$REPO/VERSION"
	[[ "$v" =~ ^v[1-9][0-9]*$ ]] || die "$REPO/VERSION: '$v' is not a version (v1, v2, ...)"
	echo "$v"
}

# series_id: a hash of what the patches of `series` change (git patch-id
# --verbatim of each, in order: whitespace counts): commit messages, headers and line numbers do
# not move it, any change to a diff does.  CHANGELOG.md records it per
# version, scripts/check-patches compares.
series_id() {
	local list p
	list=$(series_patches) || return 1
	while read -r p; do
		git patch-id --verbatim <"$p" | cut -d' ' -f1
	done <<<"$list" | sha1sum | cut -c1-12
}

# version_problem: nothing when VERSION ("vN on KERNELVERSION", the base of
# base.conf) and the newest "## vN on KERNELVERSION (series ID)" section of
# CHANGELOG.md agree with each other and with series_id; else the reason.
version_problem() {
	local id ver top
	id=$(series_id 2>/dev/null) || { echo "series or patches/ unreadable: see scripts/check-patches"; return; }
	ver=$(head -n 1 "$REPO/VERSION" 2>/dev/null | tr -d '\r' || true)
	top=$(grep -m1 -E '^## v[0-9]+ on ' "$REPO/CHANGELOG.md" 2>/dev/null | tr -d '\r' || true)
	if ! [[ "$ver" =~ ^v[1-9][0-9]*\ on\ (.*)$ ]] || [ "${BASH_REMATCH[1]}" != "$BASE_KERNELVERSION" ]; then
		echo "VERSION says '$ver', not 'vN on $BASE_KERNELVERSION' (base.conf)"
	elif [ -z "$top" ]; then
		echo "CHANGELOG.md has no '## vN on KERNELVERSION (series ID)' section"
	elif [ "${top% (series *}" != "## $ver" ]; then
		echo "VERSION says '$ver' but CHANGELOG.md's newest section is '${top#\#\# }': add a section for it"
	elif ! [[ "$top" =~ \(series\ ([0-9a-f]{12})\)$ ]]; then
		echo "CHANGELOG.md's newest section '${top#\#\# }' does not end in '(series ID)': the patches are series $id"
	elif [ "${BASH_REMATCH[1]}" != "$id" ]; then
		echo "the patches changed since ${ver% on *} (CHANGELOG.md names series ${BASH_REMATCH[1]}, they are series $id now): give them a new version in VERSION and a CHANGELOG.md section"
	fi
}

# ccache_counts: "HITS MISSES" of the ccache use_ccache selects (direct and
# preprocessed hits together), for the timing record of scripts/test-all.
ccache_counts() {
	CCACHE_DIR=${CCACHE_DIR:-$X86H_CACHE/ccache} ccache --print-stats 2>/dev/null |
		awk '$1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { h += $2 }
		     $1 == "cache_miss" { m += $2 } END { print h + 0, m + 0 }'
}

# The CPU words are the files of tests/qemu_configs (kunit.py --qemu_config
# format, one per word, each saying what it is); scripts/boot reads them.
cpu_model() { "$REPO/scripts/boot" cpu "$1"; }
cpu_words() { "$REPO/scripts/boot" cpus; }

# The KUnit configurations: tests/kunit/configs.
KUNIT_CONFIGS=$REPO/tests/kunit/configs
kunit_config_names() { awk '!/^#/ && NF { printf "%s ", $1 }' "$KUNIT_CONFIGS"; }
# distro_kernel NAME: for "distro-LINE", LINE a boot line of
# tests/distro/lines, the build folder scripts/distro builds it in
# (build/distro/LINE); status 1 for any other NAME.  scripts/lkdtm and
# scripts/selftests boot it like a KUnit kernel.
distro_kernel() {
	[[ "$1" =~ ^distro-([a-z0-9-]+)$ ]] || return 1
	awk -v l="${BASH_REMATCH[1]}" '!/^#/ && $1 == l && $7 == "boot" { f = 1 } END { exit !f }' \
		"$REPO/tests/distro/lines" || return 1
	echo "$BUILD/distro/${BASH_REMATCH[1]}"
}

# code_of CONFIG FUNCTION: the file in which objdump -d finds FUNCTION as
# the configuration CONFIG (a line of tests/kunit/configs) compiles it:
# the object scripts/check-patches compiled with that configuration at
# the tip (build/check/obj-CONFIG: make test builds no refcount-fast or
# refcount-fast-clang kernel), or build/kunit/CONFIG/vmlinux when
# scripts/kunit built that kernel after the object or the object lacks
# FUNCTION.  Nothing when neither has it.
code_of() {
	local v=$BUILD/kunit/$1/vmlinux o
	if [ -d "$BUILD/check/obj-$1" ]; then
		while IFS= read -r o; do
			# grep reads all of nm's output: with -q, nm could die of
			# SIGPIPE and pipefail make the match a failure
			if nm --defined-only "$o" 2>/dev/null | grep -E " [tT] $2\$" >/dev/null; then
				# the newer of the two: a kernel that make test no
				# longer builds may be older than the series
				if [ -f "$v" ] && [ "$v" -nt "$o" ]; then echo "$v"; else echo "$o"; fi
				return 0
			fi
		done < <(find "$BUILD/check/obj-$1" -name '*.o' ! -name '*.mod.o' ! -name 'built-in*' | LC_ALL=C sort)
	fi
	[ ! -f "$v" ] || echo "$v"
}

# kunit_config_files NAME: the files kunit.py --kunitconfig merges for a
# line of tests/kunit/configs, one path a line (the shared
# qemu-x86_64.kunitconfig first), or a one-line reason and status 1.
# kunit_config_cc CONFIG: the compiler column of a line of
# tests/kunit/configs (gcc when the line has none).
kunit_config_cc() {
	awk -v c="$1" '!/^#/ && $1 == c { print (NF >= 5 ? $5 : "gcc") }' "$KUNIT_CONFIGS"
}

kunit_config_files() {
	local line kc frags f
	line=$(awk -v c="$1" '!/^#/ && $1 == c' "$KUNIT_CONFIGS")
	[ -n "$line" ] || { echo "unknown configuration '$1'; known: $(kunit_config_names)" >&2; return 1; }
	read -r _ kc frags _ <<<"$line"
	echo "$REPO/tests/kunit/qemu-x86_64.kunitconfig"
	echo "$REPO/tests/kunit/$kc"
	for f in ${frags//,/ }; do
		case "$f" in
		-) ;;
		*.kunitconfig) echo "$REPO/tests/kunit/$f" ;;
		*) echo "$REPO/kconfig-fragments/$f" ;;
		esac
	done
}

# ha_choice DOTCONFIG: "IMPL MODE" of a CONFIG_HARDENED_ATOMIC kernel (fast
# or exact, protect or report), nothing for a kernel without it.
ha_choice() {
	grep -q '^CONFIG_HARDENED_ATOMIC=y' "$1" || return 0
	local impl=fast mode=protect
	! grep -q '^CONFIG_HARDENED_ATOMIC_EXACT=y' "$1" || impl=exact
	! grep -q '^CONFIG_HARDENED_ATOMIC_REPORT=y' "$1" || mode=report
	echo "$impl $mode"
}

# tap_ok FILE DESCRIPTION / tap_notok FILE DESCRIPTION: one result line;
# scripts/boot tap turns a file of them into TAP version 13 when it is done.
tap_ok() { echo "ok - $2" | tee -a "$1"; }
tap_notok() { echo "not ok - $2" | tee -a "$1"; }
tap_finish() { "$REPO/scripts/boot" tap "$@"; }

# splat_result FILE WHAT CONFIG LOG... [--excuse BEGIN END SPLAT]...
# [--allow FILE]...: the crash detector (scripts/boot splats) on a boot's
# consoles, as one result line: ok when every splat in them is allowed by
# tests/splats (or the --allow FILEs) for CONFIG.  The
# first console of a boot that was tried twice (LOG.first) is checked too:
# the retry is for a kernel that died before it ran anything, not for
# hiding why it died.
splat_result() {
	local file=$1 what=$2 cfg=$3 out rc=0 args=() err
	shift 3
	while [ $# -gt 0 ]; do
		case "$1" in
		--excuse) args+=("$1" "$2" "$3" "$4"); shift 4 ;;
		--allow) args+=("$1" "$2"); shift 2 ;;
		*) args+=("$1"); [ ! -f "$1.first" ] || args+=("$1.first"); shift ;;
		esac
	done
	err=$(mktemp)
	out=$("$REPO/scripts/boot" splats --config "$cfg" "${args[@]}" 2>"$err") || rc=$?
	grep -v '^provoked: ' <<<"$out" | sed 's/^/  splat: /' || true
	local na np
	na=$(grep -c '^allowed: ' <<<"$out" || true)
	np=$(grep -c '^provoked: ' <<<"$out" || true)
	case $rc in
	0) tap_ok "$file" "$what: no unexpected splat$([ "$na$np" = 00 ] || echo " ($na allowed, $np provoked by the test)")" >/dev/null ;;
	1) tap_notok "$file" "$what: unexpected splat: $(grep -m1 '^unexpected: ' <<<"$out" | cut -c13-)" ;;
	*) tap_notok "$file" "$what: the crash detector failed: $(head -n 1 "$err")" ;;
	esac
	rm -f "$err"
	[ $rc -eq 0 ]
}

# CCACHE_CC: what every kernel build puts before its compiler, ccache
# behind a wrapper that leaves sources with .incbin uncached (see
# scripts/ccache-cc for why depend mode needs it)
CCACHE_CC=$REPO/scripts/ccache-cc

# kernel_cc: the compiler variables of every kernel build, one make
# argument a line (mapfile -t ARR < <(kernel_cc)).  The environment decides,
# as with make itself: LLVM set (LLVM=1, LLVM=-19, LLVM=/path/) builds with
# that Clang (LLVM=$LLVM, CC=$CCACHE_CC <its clang>); else CC (default
# gcc), behind $CCACHE_CC; a CC that starts with ccache gets the wrapper
# in its place, since plain ccache in depend mode caches .incbin sources.
kernel_cc() {
	local cc first rest
	case "$REPO" in
	*[[:space:]]*) die "$REPO: a path with white space cannot be part of make's CC" ;;
	esac
	if [ -n "${LLVM:-}" ]; then
		case "$LLVM" in
		1) cc=clang ;;
		-*) cc=clang$LLVM ;;
		*/) cc=${LLVM}clang ;;
		*) die "LLVM=$LLVM: the kernel takes LLVM=1, LLVM=-VERSION or LLVM=/path/to/llvm/bin/" ;;
		esac
		printf '%s\n' "LLVM=$LLVM" "CC=$CCACHE_CC $cc"
	else
		cc=${CC:-gcc}
		read -r first rest <<<"$cc"
		case "$(basename "$first")" in
		ccache | ccache-cc)
			[ -n "$rest" ] || die "CC=$cc names no compiler after ccache"
			cc=$rest
			;;
		esac
		echo "CC=$CCACHE_CC $cc"
	fi
}

# kunit_make_options: kernel_cc as kunit.py arguments (--make_options once
# per make variable).
kunit_make_options() {
	local v
	kernel_cc | while read -r v; do printf '%s\n' --make_options "$v"; done
}

# ccache for every kernel build, shared by every clone.  Paths inside the
# build folder (object folders, check-patches' worktree) are rewritten
# relative to the compiler's working folder, and the trees under
# $X86H_CACHE stay absolute: both are then the same in any clone, wherever
# it is and however deep.  (CCACHE_BASEDIR=/ made hits depend on the
# clone's depth below /: a kernel tree in $X86H_CACHE seen from
# /check/work/main/build/kunit/all is another relative path than from
# /work/main/build/kunit/all.)
use_ccache() {
	command -v ccache >/dev/null || die "ccache not installed; run scripts/setup"
	export CCACHE_DIR=${CCACHE_DIR:-$X86H_CACHE/ccache}
	mkdir -p "$BUILD"
	CCACHE_BASEDIR=$(cd "$BUILD" && pwd -P)
	export CCACHE_BASEDIR
	export CCACHE_NOHASHDIR=true
	export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-10G}
	export CCACHE_COMPILERCHECK=content
	# Depend mode: on a miss, no preprocessor run to compute a second key
	# (the preprocessed mode's); the key is the source, the command line
	# and the files the compiler's -MMD output names.  A miss cost 1.03
	# times the build without ccache, against 1.36 in the default mode
	# (scripts/bench/ccache, idle machine, README), and most compiles of
	# a cold make test are misses.  What it gives up: an object whose
	# preprocessed source is unchanged while an included file changed (a
	# header comment, another configuration's autoconf.h) is a miss, not
	# a preprocessed hit; and -MMD leaves out system headers, which no
	# kernel object includes (-nostdinc), but a host program compiled
	# through a ccache masquerade link first in PATH does.  Sources with
	# .incbin go to the default mode, which does not cache them
	# (scripts/ccache-cc).
	export CCACHE_DEPEND=true
	unset CCACHE_NODEPEND
	kernel_cc >/dev/null
	mapfile -t KCC < <(kernel_cc)
	mapfile -t KUNIT_MK < <(kunit_make_options)
}

# Every process of a kernel build may use X86H_CPU_LIMIT CPU seconds
# (default 1200, RLIMIT_CPU): a compiler that never finishes a file
# (Clang 19 on mm/oom_kill.c with REFCOUNT_FAST, issue 19) fails its build
# in minutes, naming the object, instead of holding make test or make
# matrix for hours.  No process of a healthy build comes near it (the
# vmlinux link and objtool take about a minute).  The soft limit sends
# SIGXCPU, which the compiler driver reports ("CPU time limit exceeded");
# the hard one, a minute later, SIGKILL.
# cpu_limit: the limit, or die naming a bad X86H_CPU_LIMIT
cpu_limit() {
	local l=${X86H_CPU_LIMIT:-1200}
	[[ "$l" =~ ^[1-9][0-9]*$ ]] || die "X86H_CPU_LIMIT=$l: not a number of seconds"
	echo "$l"
}
# cpu_limited LIMIT CMD...: CMD with every process it starts under LIMIT
cpu_limited() {
	local l=$1
	shift
	(ulimit -S -t "$l" && ulimit -H -t "$((l + 60))" && exec "$@")
}
# cpu_limit_hit LOG: whether a build in LOG ran out of its CPU seconds
cpu_limit_hit() { grep -qiE 'CPU time limit exceeded|signal 24|SIGXCPU|\] Killed$' "$1"; }

# Print a script's usage (the comment block after the shebang) and exit.
usage() {
	sed -n '2,${/^#/!q;s/^# \{0,1\}//;p}' "$0"
	exit "${1:-0}"
}
