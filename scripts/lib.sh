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
BUILD=${X86H_BUILD:-$REPO/build}
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
# configuration says (prefixes, context, subject prefix, sign-off, suffix).
format_patch() {
	git -c diff.noprefix=false -c diff.mnemonicPrefix=false -c diff.suppressBlankEmpty=true \
		-c diff.relative=false -c diff.algorithm=myers -c diff.renames=true \
		-c format.signOff=false -c format.from=false \
		format-patch --no-numbered --zero-commit --no-signature --abbrev=12 \
		--src-prefix=a/ --dst-prefix=b/ -U3 --inter-hunk-context=0 --subject-prefix=PATCH \
		--no-signoff --no-from --no-add-header --suffix=.patch --filename-max-length=64 "$@"
}

# ccache for every kernel build: absolute paths are rewritten relative to
# the build folder, so clones in other folders hit the same cache.
# QEMU CPU model for a vendor word.  Under a hypervisor CPUID names the
# model the VM was configured with, so the kernel trusts the vendor only on
# what looks like bare metal: no hypervisor bit (CPUID.1:ECX[31]) and
# nothing at CPUID leaf 0x40000000.  TCG answers that leaf
# ("TCGTCGTCGTCG") even without the hypervisor bit unless tcg-cpuid=off,
# so the bare-metal words switch off both:
#   amd         EPYC as bare metal (X86_BUG_SYSRET_CANON_RCX clear)
#   amd-guest   EPYC as QEMU shows it by default, a guest
#   amd-hidden  EPYC with the hypervisor bit hidden but TCG's leaf left:
#               still a guest to the SYSRET decision
#   amd-guest-noleaf  EPYC as a guest without TCG's leaf (the hypervisor
#               bit is then the only sign; make test boots it with
#               clearcpuid=hypervisor, which must not make it bare metal)
#   intel       Skylake-Client (a guest); intel-la57: with 5-level paging
#   amd-k8      AMD family 0xf Opteron_G2 as bare metal (x86_nops=auto
#               picks K8 NOPs); amd-k8-guest: the same model as a guest
#   intel-k8    Intel family 6 model 0x2a SandyBridge as bare metal (K8
#               NOPs); intel-k8-guest: the same model as a guest
# Anything else is passed to qemu -cpu as is.
cpu_model() {
	case "$1" in
	amd) echo EPYC,-hypervisor,tcg-cpuid=off ;;
	amd-guest) echo EPYC ;;
	amd-hidden) echo EPYC,-hypervisor ;;
	amd-guest-noleaf) echo EPYC,tcg-cpuid=off ;;
	intel) echo Skylake-Client ;;
	intel-la57) echo Skylake-Client,+la57 ;;
	amd-k8) echo Opteron_G2,-hypervisor,tcg-cpuid=off ;;
	amd-k8-guest) echo Opteron_G2 ;;
	intel-k8) echo SandyBridge,-hypervisor,tcg-cpuid=off ;;
	intel-k8-guest) echo SandyBridge ;;
	*) echo "$1" ;;
	esac
}

use_ccache() {
	command -v ccache >/dev/null || die "ccache not installed; run scripts/setup"
	export CCACHE_DIR=${CCACHE_DIR:-$X86H_CACHE/ccache}
	export CCACHE_BASEDIR=/
	export CCACHE_NOHASHDIR=true
	export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-10G}
	export CCACHE_COMPILERCHECK=content
}

# Print a script's usage (the comment block after the shebang) and exit.
usage() {
	sed -n '2,${/^#/!q;s/^# \{0,1\}//;p}' "$0"
	exit "${1:-0}"
}
