#!/usr/bin/env bats
# Tests of the project's own scripts: bad input gets a one-line reason and
# a non-zero exit and leaves the tree exactly as it was; good input gives
# the same tree with git am and with quilt.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	T=$BATS_TEST_TMPDIR/linux
	make_tree "$T"
}

# --- every script documents itself -----------------------------------------

@test "every script answers --help with its usage and exit 0" {
	for s in setup apply apply-versions export kunit check-patches maintainers selftests test-all timings boot boots lkdtm objdump-check bench/sysret-canon bench/nops bench/atomic bench/funcmeta bench/kcfi-sizes bench/ccache; do
		run "$REPO/scripts/$s" --help
		[ "$status" -eq 0 ] || { echo "$s --help: exit $status" >&2; return 1; }
		[[ "${lines[0]}" == Usage:* ]] || { echo "$s: ${lines[0]}" >&2; return 1; }
		[[ "$output" != *"set -euo"* && "$output" != *"lib.sh"* ]] || { echo "$s: code in --help" >&2; return 1; }
	done
}

@test "unknown options are refused with one line" {
	for s in setup apply apply-versions export kunit check-patches maintainers selftests timings boot boots lkdtm objdump-check bench/sysret-canon bench/nops bench/atomic bench/funcmeta bench/kcfi-sizes bench/ccache; do
		run --separate-stderr "$REPO/scripts/$s" --bogus
		[ "$status" -ne 0 ]
		[ "${#stderr_lines[@]}" -eq 1 ] || { echo "$s: ${stderr_lines[*]}" >&2; return 1; }
	done
}

# --- apply: trees that must be refused --------------------------------------

@test "apply: a missing tree is refused" {
	run --separate-stderr "$REPO/scripts/apply" --tree "$BATS_TEST_TMPDIR/nope"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"no such directory"* ]]
}

@test "apply: KERNEL_SRC pointing nowhere is refused" {
	KERNEL_SRC=$BATS_TEST_TMPDIR/nope run --separate-stderr "$REPO/scripts/apply"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"$BATS_TEST_TMPDIR/nope: no such directory"* ]]
}

@test "apply: a folder that is not a kernel tree is refused and untouched" {
	d=$BATS_TEST_TMPDIR/other
	mkdir -p "$d" && echo hello >"$d/README" && git -C "$d" init -q &&
		git -C "$d" add -A && git -C "$d" -c user.name=t -c user.email=t@t commit -q -m x
	before=$(tree_state "$d")
	for m in git-am quilt; do
		run --separate-stderr "$REPO/scripts/apply" --method "$m" --tree "$d"
		[ "$status" -eq 1 ]
		[ "${#stderr_lines[@]}" -eq 1 ]
		[[ "$stderr" == *"not a Linux kernel tree"* ]]
	done
	[ "$(tree_state "$d")" = "$before" ]
}

@test "apply: a kernel tree that is not a git work tree is refused and untouched" {
	rm -rf "$T/.git"
	before=$(find "$T" -type f -print0 | sort -z | xargs -0 sha1sum)
	run --separate-stderr "$REPO/scripts/apply" --tree "$T"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"not a git work tree"* ]]
	[ "$(find "$T" -type f -print0 | sort -z | xargs -0 sha1sum)" = "$before" ]
}

@test "apply: a tree of another kernel version is refused" {
	sed -i 's/^PATCHLEVEL = 12$/PATCHLEVEL = 6/' "$T/Makefile"
	git -C "$T" commit -q -am 6.6
	before=$(tree_state "$T")
	run --separate-stderr "$REPO/scripts/apply" --tree "$T"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"Linux 6.6; this series is for 6.12"* ]]
	[ "$(tree_state "$T")" = "$before" ]
}

@test "apply: a dirty tree is refused and untouched, both methods" {
	echo "/* edit */" >>"$T/arch/x86/kernel/process_64.c"
	before=$(tree_state "$T")
	for m in git-am quilt; do
		run --separate-stderr "$REPO/scripts/apply" --method "$m" --tree "$T"
		[ "$status" -eq 1 ]
		[ "${#stderr_lines[@]}" -eq 1 ]
		[[ "$stderr" == *"refusing a dirty tree: uncommitted changes"* ]]
		[ "$(tree_state "$T")" = "$before" ]
	done
}

@test "apply: an untracked file or quilt state counts as dirty" {
	touch "$T/stray.c"
	run --separate-stderr "$REPO/scripts/apply" --tree "$T"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"dirty tree"*"stray.c"* ]]
	rm "$T/stray.c"
	mkdir "$T/.pc"
	run --separate-stderr "$REPO/scripts/apply" --method quilt --tree "$T"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"quilt patches are applied"* ]]
}

@test "apply: an unknown method is refused" {
	before=$(tree_state "$T")
	run --separate-stderr "$REPO/scripts/apply" --method stgit --tree "$T"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"unknown method 'stgit'"* ]]
	[ "$(tree_state "$T")" = "$before" ]
}

# --- apply: a patch that does not apply -------------------------------------

@test "apply: first patch fails with git am: file and hunk named, tree restored" {
	break_tree "$T" arch/x86/kernel/process_64.c 'if (static_cpu_has_bug(X86_BUG_SYSRET_SS_ATTRS)) {'
	before=$(tree_state "$T")
	run --separate-stderr "$REPO/scripts/apply" --method git-am --tree "$T"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"patches/0001-"*".patch does not apply"* ]]
	[[ "$stderr" == *"arch/x86/kernel/process_64.c hunk @@ -"* ]]
	[ "$(tree_state "$T")" = "$before" ]
}

@test "apply: first patch fails with quilt: file and hunk named, tree restored" {
	break_tree "$T" arch/x86/kernel/process_64.c 'if (static_cpu_has_bug(X86_BUG_SYSRET_SS_ATTRS)) {'
	before=$(tree_state "$T")
	run --separate-stderr "$REPO/scripts/apply" --method quilt --tree "$T"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"patches/0001-"*".patch does not apply"* ]]
	[[ "$stderr" == *"arch/x86/kernel/process_64.c hunk #1 @@ -"* ]]
	[ "$(tree_state "$T")" = "$before" ]
}

@test "apply: a later patch fails after earlier ones applied: tree restored, both methods" {
	break_tree "$T" arch/x86/kernel/Makefile 'obj-$(CONFIG_DEBUG_NMI_SELFTEST) += nmi_selftest.o'
	before=$(tree_state "$T")
	for m in git-am quilt; do
		run --separate-stderr "$REPO/scripts/apply" --method "$m" --tree "$T"
		[ "$status" -eq 1 ]
		[ "${#stderr_lines[@]}" -eq 1 ]
		[[ "$stderr" == *"patches/0002-"*"arch/x86/kernel/Makefile hunk"* ]]
		[ "$(tree_state "$T")" = "$before" ] || { echo "$m left the tree changed" >&2; return 1; }
	done
}

@test "apply: series naming a missing patch is refused before touching the tree" {
	r=$BATS_TEST_TMPDIR/repo
	mkdir -p "$r" && cp -r "$REPO/scripts" "$REPO/patches" "$REPO/series" "$REPO/base.conf" "$r/"
	echo 9999-missing.patch >>"$r/series"
	before=$(tree_state "$T")
	run --separate-stderr "$r/scripts/apply" --tree "$T"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"series lists 9999-missing.patch but patches/9999-missing.patch does not exist"* ]]
	[ "$(tree_state "$T")" = "$before" ]
}

# --- apply: success ---------------------------------------------------------

@test "apply: git am puts the series on a new branch, the user's branch untouched" {
	main=$(git -C "$T" rev-parse main)
	run "$REPO/scripts/apply" --tree "$T" --branch series
	[ "$status" -eq 0 ]
	[ "$(git -C "$T" rev-parse main)" = "$main" ]
	[ "$(git -C "$T" symbolic-ref HEAD)" = refs/heads/series ]
	n=$(grep -vc '^#' "$REPO/series")
	[ "$(git -C "$T" rev-list --count main..series)" -eq "$n" ]
	[ -z "$(git -C "$T" status --porcelain)" ]
	# The commits carry the patches' subjects and sign-offs.
	git -C "$T" log --format=%s main..series | grep -q '^x86/process: '
	[ "$(git -C "$T" log --format=%b main..series | grep -c '^Signed-off-by: ')" -eq "$n" ]
}

@test "apply: a tree already carrying the series is left alone" {
	run "$REPO/scripts/apply" --tree "$T" --branch series
	[ "$status" -eq 0 ]
	before=$(tree_state "$T")
	run "$REPO/scripts/apply" --tree "$T"
	[ "$status" -eq 0 ]
	[[ "$output" == *"series already carries the"*"nothing to do"* ]]
	[ "$(tree_state "$T")" = "$before" ]
}

@test "apply: an existing branch name is refused" {
	git -C "$T" branch series
	before=$(tree_state "$T")
	run --separate-stderr "$REPO/scripts/apply" --tree "$T" --branch series
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"branch series already exists"* ]]
	[ "$(tree_state "$T")" = "$before" ]
}

@test "apply: quilt push -a gives the same files as git am" {
	q=$BATS_TEST_TMPDIR/quilt
	make_tree "$q"
	run "$REPO/scripts/apply" --tree "$T" --branch series
	[ "$status" -eq 0 ]
	run "$REPO/scripts/apply" --method quilt --tree "$q" --branch series
	[ "$status" -eq 0 ]
	[ -d "$q/.pc" ]
	diff -r -x .git -x .pc "$T" "$q"
	# quilt pop -a takes it all back.
	(cd "$q" && QUILT_PATCHES="$REPO/patches" QUILT_SERIES="$REPO/series" quilt --quiltrc /dev/null pop -a -q)
	git -C "$q" add -A -f .
	[ -z "$(git -C "$q" diff --cached --stat main -- . ':!.pc')" ]
}

@test "apply: default tree, a failed re-apply restores the checked-out series branch" {
	C=$BATS_TEST_TMPDIR/cache
	D=$C/linux-$BASE_KERNELVERSION
	make_tree "$D"
	git -C "$D" tag "$BASE_TAG"
	X86H_CACHE=$C run "$REPO/scripts/apply"
	[ "$status" -eq 0 ]
	[ "$(git -C "$D" symbolic-ref HEAD)" = "refs/heads/$SERIES_BRANCH" ]
	echo "/* work in progress */" >>"$D/arch/x86/kernel/process_64.c"
	git -C "$D" commit -q -am "work in progress"
	# A series whose second patch no longer applies.
	r=$BATS_TEST_TMPDIR/repo
	mkdir -p "$r" && cp -r "$REPO/scripts" "$REPO/patches" "$REPO/series" "$REPO/base.conf" "$r/"
	sed -i 's/^ obj-\$(CONFIG_DEBUG_NMI_SELFTEST) += nmi_selftest.o$/ obj-$(CONFIG_NOPE) += nope.o/' "$r"/patches/0002-*.patch
	before=$(tree_state "$D")
	for m in git-am quilt; do
		X86H_CACHE=$C run --separate-stderr "$r/scripts/apply" --method "$m"
		[ "$status" -eq 1 ]
		[ "${#stderr_lines[@]}" -eq 1 ]
		[[ "$stderr" == *"patches/0002-"*"arch/x86/kernel/Makefile hunk"* ]]
		[ "$(tree_state "$D")" = "$before" ] || { echo "$m changed the tree" >&2; return 1; }
		[ -z "$(git -C "$D" for-each-ref refs/x86h-backup)" ]
	done
}

@test "apply: branch names that git would expand or nest are refused" {
	git -C "$T" checkout -q -b work && git -C "$T" checkout -q main
	before=$(tree_state "$T")
	for b in '@{-1}' '@' 'refs/heads/x' 'a..b' '-x'; do
		run --separate-stderr "$REPO/scripts/apply" --tree "$T" --branch "$b"
		[ "$status" -eq 1 ] || { echo "--branch $b accepted" >&2; return 1; }
		[[ "$stderr" == *"not a valid branch name"* ]]
	done
	[ "$(tree_state "$T")" = "$before" ]
}

@test "apply: quilt on a tree that already carries the series fails cleanly" {
	run "$REPO/scripts/apply" --tree "$T" --branch series
	[ "$status" -eq 0 ]
	before=$(tree_state "$T")
	run --separate-stderr "$REPO/scripts/apply" --method quilt --tree "$T" --branch q
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[ ! -e "$T/.pc" ]
	[ "$(tree_state "$T")" = "$before" ]
}

@test "apply: the last line of series counts without a trailing newline" {
	r=$BATS_TEST_TMPDIR/repo
	mkdir -p "$r" && cp -r "$REPO/scripts" "$REPO/patches" "$REPO/base.conf" "$r/"
	printf '%s' "$(cat "$REPO/series")" >"$r/series"
	n=$(grep -vc '^#' "$REPO/series")
	run "$r/scripts/apply" --tree "$T" --branch series
	[ "$status" -eq 0 ]
	[ "$(git -C "$T" rev-list --count main..series)" -eq "$n" ]
}

@test "export: the patches do not depend on the user's git configuration" {
	run "$REPO/scripts/apply" --tree "$T" --branch series
	[ "$status" -eq 0 ]
	printf '*.h\n' >"$BATS_TEST_TMPDIR/order"
	printf 'Someone Else <else@example.org> %s\n' "$(git -C "$T" log -1 --format='<%ae>')" >"$BATS_TEST_TMPDIR/mailmap"
	printf '[format]\n\theaders = X-Foo: bar\n\tsubjectPrefix = RFC\n\tsignOff = true\n\tsuffix = .diff\n\tattach = true\n\tthread = shallow\n[diff]\n\tnoprefix = true\n\tcontext = 5\n\tindentHeuristic = false\n\torderFile = %s\n[mailmap]\n\tfile = %s\n[diff "cpp"]\n\txfuncname = ^x\n' \
		"$BATS_TEST_TMPDIR/order" "$BATS_TEST_TMPDIR/mailmap" >"$BATS_TEST_TMPDIR/gitconfig"
	git -C "$T" config branch.series.description "a branch description"
	GIT_CONFIG_GLOBAL=$BATS_TEST_TMPDIR/gitconfig GIT_COMMITTER_NAME=Other GIT_COMMITTER_DATE=@0 TZ=Asia/Tokyo \
		run "$REPO/scripts/export" --tree "$T" --base main --out "$BATS_TEST_TMPDIR/out"
	[ "$status" -eq 0 ]
	diff -r -I '^base-commit: ' "$REPO/patches" "$BATS_TEST_TMPDIR/out/patches"
	diff -I '^base-commit: ' "$REPO/docs/cover-letter.patch" "$BATS_TEST_TMPDIR/out/docs/cover-letter.patch"
}

# --- export ---------------------------------------------------------------

@test "export: re-exporting the applied series gives back patches/ byte for byte" {
	run "$REPO/scripts/apply" --tree "$T" --branch series
	[ "$status" -eq 0 ]
	run "$REPO/scripts/export" --tree "$T" --base main --out "$BATS_TEST_TMPDIR/out"
	[ "$status" -eq 0 ]
	diff -r -I '^base-commit: ' "$REPO/patches" "$BATS_TEST_TMPDIR/out/patches"
	diff -I '^base-commit: ' "$REPO/docs/cover-letter.patch" "$BATS_TEST_TMPDIR/out/docs/cover-letter.patch"
	diff "$REPO/series" "$BATS_TEST_TMPDIR/out/series"
}

@test "export: the cover letter is numbered 00, quotes the newest CHANGELOG.md section, and stays out of patches/ and series" {
	run "$REPO/scripts/apply" --tree "$T" --branch series
	[ "$status" -eq 0 ]
	run "$REPO/scripts/export" --tree "$T" --base main --out "$BATS_TEST_TMPDIR/out"
	[ "$status" -eq 0 ]
	cl=$BATS_TEST_TMPDIR/out/docs/cover-letter.patch
	n=$(grep -vc '^#' "$REPO/series")
	grep -qx "Subject: \[PATCH $(series_version) 00/$n\] $(head -n 1 "$REPO/docs/cover-letter.txt")" "$cl"
	grep -qF "$(grep -m1 '^## v' "$REPO/CHANGELOG.md" | cut -c4-)" "$cl"
	grep -q '^base-commit: ' "$cl"
	! grep -q cover-letter "$BATS_TEST_TMPDIR/out/series"
	[ "$(ls "$BATS_TEST_TMPDIR/out/patches")" = "$(grep -v '^#' "$BATS_TEST_TMPDIR/out/series")" ]
	[ -z "$(grep -L '^diff --git ' "$BATS_TEST_TMPDIR/out/patches/"*)" ]
	grep -q "^Subject: \[PATCH $(series_version) 01/$n\] " "$BATS_TEST_TMPDIR/out/patches/0001-"*.patch
}

@test "version: the shipped VERSION, CHANGELOG.md and patches agree; a changed diff or a version without its section does not" {
	[ -z "$(version_problem)" ]
	r=$BATS_TEST_TMPDIR/repo
	mkdir -p "$r" && cp -r "$REPO/scripts" "$REPO/patches" "$REPO/series" "$REPO/base.conf" "$REPO/VERSION" "$REPO/CHANGELOG.md" "$r/"
	[ -z "$(bash -c ". '$r/scripts/lib.sh'; version_problem")" ]
	v=$(series_version)
	next=v$((${v#v} + 1))
	sed -i '0,/^+config X86_SYSRET_SS_ATTRS_FIXUP$/s//+config X86_SYSRET_SS_ATTRS_FIXUP_CHANGED/' "$r"/patches/0001-*.patch
	[[ "$(bash -c ". '$r/scripts/lib.sh'; version_problem")" == "the patches changed since $v (CHANGELOG.md names series "* ]]
	echo "$next on $BASE_KERNELVERSION" >"$r/VERSION"
	[[ "$(bash -c ". '$r/scripts/lib.sh'; version_problem")" == "VERSION says '$next on $BASE_KERNELVERSION' but CHANGELOG.md's newest section is '$v on "* ]]
	echo "$next on 6.12.1" >"$r/VERSION"
	[[ "$(bash -c ". '$r/scripts/lib.sh'; version_problem")" == "VERSION says '$next on 6.12.1', not 'vN on $BASE_KERNELVERSION' (base.conf)" ]]
}

@test "apply-versions: a bad expectation row is refused with its line; the shipped table parses" {
	printf '6.12.117-1~deb12u1 applies\n6.12.1-1 stops\n' >"$BATS_TEST_TMPDIR/t"
	run --separate-stderr "$REPO/scripts/apply-versions" --table "$BATS_TEST_TMPDIR/t" --version 6.12.117-1~deb12u1
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"t:2: outcome 'stops' is neither 'applies' nor a patch number"* ]]
	run --separate-stderr "$REPO/scripts/apply-versions" --table /nonexistent
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"--table: /nonexistent: no such file"* ]]
	grep -vE '^(#|$)' "$REPO/tests/apply-versions/expected" | awk 'NF != 2 || $2 !~ /^(applies|[0-9][0-9][0-9][0-9])$/ { exit 1 }'
	grep -qx "$BASE_PACKAGE_VERSION applies" "$REPO/tests/apply-versions/expected"
}

@test "timings: the README's table is what scripts/timings prints from docs/timings/records" {
	run "$REPO/scripts/timings" readme --check
	[ "$status" -eq 0 ]
}

@test "timings: a log that is not a finished test-all run is refused and nothing is written" {
	printf '##### setup (at 0s)\n##### kunit all (at 5s)\n' >"$BATS_TEST_TMPDIR/cut.log"
	run --separate-stderr "$REPO/scripts/timings" record "$BATS_TEST_TMPDIR/cut.log" --file "$BATS_TEST_TMPDIR/rec"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"the run did not finish"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/rec" ]
	printf 'elapsed: 9 s\ntiming: make test; commit abc; series def; 2026-12-02; 2 CPUs; ccache 1 hits, 9 misses\n3 passed, 1 failed\n' >>"$BATS_TEST_TMPDIR/cut.log"
	run "$REPO/scripts/timings" record "$BATS_TEST_TMPDIR/cut.log" --file "$BATS_TEST_TMPDIR/rec" --note "CI"
	[ "$status" -eq 0 ]
	run "$REPO/scripts/timings" table --help
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == Usage:* ]]
	run "$REPO/scripts/timings" table --file "$BATS_TEST_TMPDIR/rec"
	[[ "${lines[2]}" == '| `make test` | cold (1 hits, 9 misses) | 9 s | 3 passed, 1 failed | setup 5 s, kunit 4 s | 2026-12-02, commit abc, series def, 2 CPUs, CI |' ]]
}

@test "export: a dirty tree or no commit above the base is refused" {
	run --separate-stderr "$REPO/scripts/export" --tree "$T" --base main --out "$BATS_TEST_TMPDIR/out"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"no commit above main"* ]]
	echo x >>"$T/Makefile"
	run --separate-stderr "$REPO/scripts/export" --tree "$T" --base main --out "$BATS_TEST_TMPDIR/out"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"commit or stash first"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/out" ]
}

# --- kunit / check-patches / setup ------------------------------------------

@test "kunit: an unknown configuration is refused with the known ones" {
	run --separate-stderr "$REPO/scripts/kunit" nosuch --tree "$T"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"unknown configuration 'nosuch'; known: all "* ]]
}

@test "kunit: a fragment naming a symbol no Kconfig defines is refused" {
	printf 'CONFIG_AAA_NOT_A_SYMBOL=y\n' >"$BATS_TEST_TMPDIR/bad.config"
	run --separate-stderr "$REPO/scripts/kunit" sysret-ss --fragment "$BATS_TEST_TMPDIR/bad.config" --tree "$DEFAULT_TREE"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"CONFIG_AAA_NOT_A_SYMBOL (in $BATS_TEST_TMPDIR/bad.config) is not defined by any Kconfig"* ]]
}

@test "kunit: every symbol of every shipped fragment exists in the patched Kconfig" {
	run "$REPO/scripts/apply" --tree "$T" --branch series
	[ "$status" -eq 0 ]
	for f in "$REPO"/kconfig-fragments/*.config; do
		for s in $(sed -n 's/^# \(CONFIG_[A-Z0-9_]*\) is not set/\1/p; s/^\(CONFIG_[A-Z0-9_]*\)=.*/\1/p' "$f"); do
			grep -rqE "^(menu)?config ${s#CONFIG_}\$" "$DEFAULT_TREE/arch" "$DEFAULT_TREE/lib" "$DEFAULT_TREE/init" "$DEFAULT_TREE/security" "$T/arch" ||
				{ echo "$f: $s undefined" >&2; return 1; }
		done
	done
}

@test "lkdtm: --help, and an unknown option is refused with one line" {
	run "$REPO/scripts/lkdtm" --help
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == Usage:* ]]
	run --separate-stderr "$REPO/scripts/lkdtm" --bogus
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
}

@test "lkdtm: an unknown configuration is refused with the known ones" {
	run --separate-stderr "$REPO/scripts/lkdtm" nosuch --tree "$DEFAULT_TREE"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"unknown configuration 'nosuch'; known: all "* ]]
}

@test "lkdtm: a kernel that was not built is named, with how to build it" {
	X86H_BUILD=$BATS_TEST_TMPDIR/build run --separate-stderr "$REPO/scripts/lkdtm" refcount-full --tree "$DEFAULT_TREE"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"refcount-full/arch/x86/boot/bzImage: missing; build it first with scripts/kunit refcount-full"* ]]
}

@test "lkdtm: a --type that matches no crash type is refused" {
	run --separate-stderr "$REPO/scripts/lkdtm" --type NO_SUCH_TYPE --tree "$DEFAULT_TREE"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"no REFCOUNT_*, ATOMIC_* or CFI_FORWARD_PROTO* crash type matches 'NO_SUCH_TYPE'"* ]]
}

@test "lkdtm: CFI crash types are refused without CFI_CLANG, with CFI_PERMISSIVE and on distro rows, and nothing boots" {
	local b=$BATS_TEST_TMPDIR/build
	mkdir -p "$b/kunit/all/arch/x86/boot"
	: >"$b/kunit/all/arch/x86/boot/bzImage"
	printf '%s\n' CONFIG_LKDTM=y '# CONFIG_CFI_CLANG is not set' >"$b/kunit/all/.config"
	printf 'all amd - CFI\n' >"$BATS_TEST_TMPDIR/runs"
	X86H_BUILD=$b run --separate-stderr "$REPO/scripts/lkdtm" all --runs "$BATS_TEST_TMPDIR/runs" --tree "$DEFAULT_TREE"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"all has no CONFIG_CFI_CLANG, so no CFI crash types"* ]]
	[ ! -e "$b/lkdtm" ]
	printf '%s\n' CONFIG_LKDTM=y CONFIG_CFI_CLANG=y CONFIG_CFI_PERMISSIVE=y >"$b/kunit/all/.config"
	X86H_BUILD=$b run --separate-stderr "$REPO/scripts/lkdtm" all --runs "$BATS_TEST_TMPDIR/runs" --tree "$DEFAULT_TREE"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"all has CONFIG_CFI_PERMISSIVE=y: a CFI failure does not trap there"* ]]
	printf 'distro-modules amd - CFI\n' >"$BATS_TEST_TMPDIR/runs"
	X86H_BUILD=$b run --separate-stderr "$REPO/scripts/lkdtm" --runs "$BATS_TEST_TMPDIR/runs" --tree "$DEFAULT_TREE"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"runs:1: CFI crash types oops: KUnit kernels only, not distro-modules"* ]]
	[ ! -e "$b/lkdtm" ]
}

@test "lkdtm: every expectation's TEXT, an ERE, matches the line it spells (metacharacters escaped)" {
	# The literal line a row stands for: its TEXT without the
	# backslashes and a closing "$" anchor.  Unescaped parentheses
	# (a group in an ERE) would make it miss that very line.
	local f t lit bad=
	for f in "$REPO"/tests/lkdtm/refcount.expect "$REPO"/tests/lkdtm/hardened-atomic.expect "$REPO"/tests/lkdtm/cfi.expect; do
		while IFS= read -r t; do
			lit=${t%\$}
			lit=${lit//\\/}
			grep -E -qi -- "$t" <<<"$lit" || bad+="$(basename "$f"): $t"$'\n'
		done < <(awk '!/^#/ && NF >= 4 { sub(/^[^ \t]+[ \t]+[^ \t]+[ \t]+[^ \t]+[ \t]+/, ""); print }' "$f")
	done
	[ -z "$bad" ] || { echo "$bad"; false; }
}

@test "lkdtm: every REFCOUNT_* crash type has an expectation for every variant" {
	src=$DEFAULT_TREE/drivers/misc/lkdtm/refcount.c
	for t in $(sed -n 's/^[[:space:]]*CRASHTYPE(\(REFCOUNT_[A-Z_]*\)),.*/\1/p' "$src" | grep -v TIMING); do
		grep -qE "^$t( |\$)" "$DEFAULT_TREE/tools/testing/selftests/lkdtm/tests.txt" && continue
		for v in generic fast full; do
			awk -v t="$t" -v v="$v" '$1 == t && ("," $2 ",") ~ ("," v ",|\\*")' "$REPO/tests/lkdtm/refcount.expect" | grep -q . ||
				{ echo "$t: nothing expected under $v" >&2; return 1; }
		done
	done
}

@test "lkdtm: every CFI_FORWARD_PROTO* crash type has an expectation under kCFI and FineIBT, none under cfi=off" {
	local src=$DEFAULT_TREE/drivers/misc/lkdtm/cfi.c n=0 t v
	for t in $(sed -n 's/^[[:space:]]*CRASHTYPE(\(CFI_FORWARD_PROTO[A-Z0-9_]*\)),.*/\1/p' "$src"); do
		n=$((n + 1))
		for v in kcfi fineibt; do
			awk -v t="$t" -v v="$v" '$1 == t && ("," $2 ",") ~ ("," v ",")' "$REPO/tests/lkdtm/cfi.expect" | grep -q . ||
				{ echo "$t: nothing expected under $v" >&2; return 1; }
		done
		! awk -v t="$t" '$1 == t && ("," $2 ",") ~ /,(off|\*),/' "$REPO/tests/lkdtm/cfi.expect" | grep -q . ||
			{ echo "$t: an expectation under cfi=off would pass a call that went through" >&2; return 1; }
	done
	# 6.12's CFI_FORWARD_PROTO and the series' CFI_FORWARD_PROTO_FUNC_META
	[ "$n" -eq 2 ]
}

# --- selftests -------------------------------------------------------------

@test "selftests: an unknown kernel is refused with one line" {
	run --separate-stderr "$REPO/scripts/selftests" --kernel nosuch --tree "$DEFAULT_TREE"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"unknown kernel 'nosuch'"* ]]
}

@test "selftests: a kernel that was not built is named, with how to build it" {
	X86H_BUILD=$BATS_TEST_TMPDIR/build run --separate-stderr "$REPO/scripts/selftests" --kernel all --tree "$DEFAULT_TREE"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"all/arch/x86/boot/bzImage missing; build it with scripts/kunit all"* ]]
}

@test "selftests: a kernel without 32-bit emulation is refused" {
	b=$BATS_TEST_TMPDIR/build
	mkdir -p "$b/kunit/sysret-off/arch/x86/boot"
	: >"$b/kunit/sysret-off/arch/x86/boot/bzImage"
	printf 'CONFIG_BLK_DEV_INITRD=y\n# CONFIG_IA32_EMULATION is not set\n' >"$b/kunit/sysret-off/.config"
	X86H_BUILD=$b run --separate-stderr "$REPO/scripts/selftests" --kernel sysret-off --tree "$DEFAULT_TREE"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"kernel sysret-off has no CONFIG_IA32_EMULATION"* ]]
}

@test "selftests: a list with a bad line or an unknown result is refused, naming it" {
	printf 'sysret_rip_64 60 - pass\n' >"$BATS_TEST_TMPDIR/l1"
	run --separate-stderr "$REPO/scripts/selftests" --tests "$BATS_TEST_TMPDIR/l1" --tree "$DEFAULT_TREE"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"unknown result ''"* ]]
	printf 'sysret_rip_64 60 - pass crashed\n' >"$BATS_TEST_TMPDIR/l2"
	run --separate-stderr "$REPO/scripts/selftests" --tests "$BATS_TEST_TMPDIR/l2" --tree "$DEFAULT_TREE"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"sysret_rip_64: unknown result 'crashed'"* ]]
	printf 'sysret_rip_64 soon - pass pass\n' >"$BATS_TEST_TMPDIR/l3"
	run --separate-stderr "$REPO/scripts/selftests" --tests "$BATS_TEST_TMPDIR/l3" --tree "$DEFAULT_TREE"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"bad line 'sysret_rip_64 soon"* ]]
}

@test "selftests: a --test that matches nothing is refused" {
	run --separate-stderr "$REPO/scripts/selftests" --test no_such_test --tree "$DEFAULT_TREE"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"no test in "*"matches 'no_such_test'"* ]]
}

@test "selftests: a --kernel-arg that is not one plain argument is refused with one line" {
	for a in "" "a b" "x;reboot" "'q'"; do
		run --separate-stderr "$REPO/scripts/selftests" --kernel-arg "$a" --tree "$DEFAULT_TREE"
		[ "$status" -eq 1 ] || { echo "'$a': exit $status" >&2; return 1; }
		[ "${#stderr_lines[@]}" -eq 1 ]
		[[ "$stderr" == *"--kernel-arg needs one argument"* ]]
	done
}

@test "selftests: a test's result comes from its window; an oops without an end line is an oops" {
	eval "$(sed -n '/^result_of() {/,/^}/p' "$REPO/scripts/selftests")"
	c=$BATS_TEST_TMPDIR/console
	printf '%s\n' "selftests: begin a_64 budget 60" "[OK] fine" "selftests: end a_64 exit 0 after 5 ms" \
		"selftests: begin b_32 budget 20" "[FAIL] bad" "selftests: end b_32 exit 1 after 5 ms" \
		"selftests: begin c_32 budget 20" "selftests: end c_32 signal 9 after 5 ms" \
		"selftests: begin d_64 budget 20" "selftests: end d_64 timeout after 20000 ms" \
		"selftests: begin e_32 budget 20" "BUG: unable to handle page fault for address: 00000000ffadf6cc" \
		"Oops: Oops: 0001 [#2] PREEMPT SMP PTI" "selftests: end e_32 signal 9 after 187 ms" \
		"selftests: begin f_32 budget 20" "BUG: unable to handle page fault for address: 00000000ffadf6cc" \
		"Oops: Oops: 0001 [#3] PREEMPT SMP PTI" >"$c"
	[ "$(result_of "$c" a_64)" = pass ]
	[ "$(result_of "$c" b_32)" = fail ]
	[ "$(result_of "$c" c_32)" = signal:9 ]
	[ "$(result_of "$c" d_64)" = timeout ]
	[ "$(result_of "$c" e_32)" = oops ]
	# the oops kept f_32's end line from coming: still an oops
	[ "$(result_of "$c" f_32)" = oops ]
	# begun, no oops, no end line: no result
	printf '%s\n' "selftests: begin g_64 budget 20" "[OK] half" >"$c"
	[ "$(result_of "$c" g_64)" = no-result ]
	# never begun: nothing
	[ -z "$(result_of "$c" h_64)" ]
}

@test "selftests: every listed test is a target of the x86 selftests Makefile" {
	mk=$DEFAULT_TREE/tools/testing/selftests/x86/Makefile
	for t in $(awk '!/^#/ && NF { print $1 }' "$REPO/tests/selftests/tests" | sort -u); do
		b=${t%_32}
		b=${b%_64}
		[ -f "$DEFAULT_TREE/tools/testing/selftests/x86/$b.c" ] || { echo "no $b.c" >&2; return 1; }
		grep -qw "$b" "$mk" || { echo "$b not in $mk" >&2; return 1; }
	done
}

@test "bench/sysret-canon: missing kernels and base object are named, with how to build them" {
	X86H_BUILD=$BATS_TEST_TMPDIR/build run --separate-stderr "$REPO/scripts/bench/sysret-canon"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"base-obj/arch/x86/entry/common.o missing; run scripts/check-patches first"* ]]
	[[ "$stderr" == *"kunit/all/vmlinux missing; run scripts/kunit all first"* ]]
	[[ "$stderr" == *"kunit/refcount-full/vmlinux missing; run scripts/kunit refcount-full first"* ]]
}

@test "refcount: the implementation choice is offered on x86_64 and on UML for x86_64" {
	for arch in x86_64 um; do
		o=$BATS_TEST_TMPDIR/kconfig-$arch
		mkdir -p "$o"
		make -s -C "$DEFAULT_TREE" O="$o" ARCH=$arch SUBARCH=x86_64 defconfig >/dev/null 2>&1
		cp "$o/.config" "$o/defconfig"
		for v in generic fast full; do
			cp "$o/defconfig" "$o/.config"
			(cd "$DEFAULT_TREE" && ARCH=$arch SUBARCH=x86_64 scripts/kconfig/merge_config.sh -m -O "$o" \
				"$o/.config" "$REPO/kconfig-fragments/refcount-$v.config") >/dev/null 2>&1
			make -s -C "$DEFAULT_TREE" O="$o" ARCH=$arch SUBARCH=x86_64 olddefconfig >/dev/null 2>&1
			grep -qx "CONFIG_REFCOUNT_${v^^}=y" "$o/.config" ||
				{ echo "$arch: CONFIG_REFCOUNT_${v^^} not selectable" >&2; return 1; }
		done
	done
}

@test "check-patches: a patch file missing from series stops the check" {
	r=$BATS_TEST_TMPDIR/repo
	mkdir -p "$r" && cp -r "$REPO/scripts" "$REPO/patches" "$REPO/series" "$REPO/base.conf" "$REPO/tests" "$r/"
	cp "$REPO/patches/0001-"*.patch "$r/patches/0099-stray.patch"
	X86H_BUILD=$BATS_TEST_TMPDIR/build run "$r/scripts/check-patches" --no-build
	[ "$status" -eq 1 ]
	[[ "$output" == *"not ok - check-patches: series and patches/ disagree: not-listed:0099-stray.patch"* ]]
}

@test "check-patches: a bad X86H_CPU_LIMIT is one line and exit 1, before anything is written" {
	X86H_CPU_LIMIT=20m X86H_BUILD=$BATS_TEST_TMPDIR/build run --separate-stderr "$REPO/scripts/check-patches"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == "check-patches: X86H_CPU_LIMIT=20m: not a number of seconds" ]]
	[ ! -e "$BATS_TEST_TMPDIR/build" ]
}

@test "lib.sh: cpu_limited stops a process that spins past its CPU seconds, and cpu_limit_hit names it" {
	run bash -c ". '$REPO/scripts/lib.sh'; cpu_limited 1 bash -c 'while :; do :; done'"
	# killed by SIGXCPU: 128 + 24
	[ "$status" -eq 152 ]
	echo "make: *** [scripts/Makefile.build:244: mm/oom_kill.o] CPU time limit exceeded" >"$BATS_TEST_TMPDIR/build.log"
	run bash -c ". '$REPO/scripts/lib.sh'; cpu_limit_hit '$BATS_TEST_TMPDIR/build.log'"
	[ "$status" -eq 0 ]
	echo "make: *** [scripts/Makefile.build:244: mm/oom_kill.o] Error 1" >"$BATS_TEST_TMPDIR/build.log"
	run bash -c ". '$REPO/scripts/lib.sh'; cpu_limit_hit '$BATS_TEST_TMPDIR/build.log'"
	[ "$status" -eq 1 ]
}

@test "lib.sh: kernel_cc puts scripts/ccache-cc before the compiler, in place of a ccache CC names" {
	run bash -c "unset LLVM CC; . '$REPO/scripts/lib.sh'; kernel_cc"
	[ "$status" -eq 0 ]
	[ "$output" = "CC=$REPO/scripts/ccache-cc gcc" ]
	run env -u LLVM CC="/usr/bin/ccache gcc-12 -m64" bash -c ". '$REPO/scripts/lib.sh'; kernel_cc"
	[ "$output" = "CC=$REPO/scripts/ccache-cc gcc-12 -m64" ]
	run env -u CC LLVM=-19 bash -c ". '$REPO/scripts/lib.sh'; kernel_cc"
	[ "${lines[0]}" = "LLVM=-19" ]
	[ "${lines[1]}" = "CC=$REPO/scripts/ccache-cc clang-19" ]
	run --separate-stderr env -u LLVM CC=ccache bash -c ". '$REPO/scripts/lib.sh'; kernel_cc"
	[ "$status" -eq 1 ]
	[ "$stderr" = "bash: CC=ccache names no compiler after ccache" ]
	# use_ccache puts ccache in depend mode
	run env -u CCACHE_DEPEND bash -c ". '$REPO/scripts/lib.sh'; BUILD='$BATS_TEST_TMPDIR/b'; use_ccache; echo \$CCACHE_DEPEND"
	[ "$output" = true ]
}

# compile SOURCE: compile it in the current folder the way Kbuild does
# (-Wp,-MMD), through scripts/ccache-cc (or CCW), in depend mode, into
# out.o, with the CCACHE_* settings of use_ccache and no others
ccache_cc_compile() {
	rm -f out.o
	env -u CCACHE_DISABLE -u CCACHE_RECACHE -u CCACHE_NODIRECT -u CCACHE_NODEPEND -u CCACHE_READONLY \
		CCACHE_DIR="$BATS_TEST_TMPDIR/cc" CCACHE_DEPEND=true CCACHE_NOHASHDIR=true CCACHE_COMPILERCHECK=content \
		"${CCW[@]}" -Wp,-MMD,out.d -c "$1" -o out.o
}

@test "ccache-cc: an .incbin source is compiled again when only the file it pulls in changed, also behind a ccache link" {
	cd "$BATS_TEST_TMPDIR"
	printf '\t.section .rodata\n\t.incbin "payload.bin"\n' >p.S
	CCW=("$REPO/scripts/ccache-cc" gcc)
	echo AAAA >payload.bin
	ccache_cc_compile p.S
	echo BBBB >payload.bin
	ccache_cc_compile p.S
	objdump -s -j .rodata out.o | grep -q 'BBBB'
	# the compiler a ccache masquerade link (Debian's /usr/lib/ccache,
	# first in PATH): still built again
	mkdir -p bin
	ln -s "$(command -v ccache)" bin/gcc
	PATH=$BATS_TEST_TMPDIR/bin:$PATH ccache_cc_compile p.S
	echo CCCC >payload.bin
	PATH=$BATS_TEST_TMPDIR/bin:$PATH ccache_cc_compile p.S
	objdump -s -j .rodata out.o | grep -q 'CCCC'
	# under bash, which puts an assignment before exec ahead of the
	# environment it inherits (ccache takes the later of two settings)
	CCW=(bash "$REPO/scripts/ccache-cc" gcc)
	echo DDDD >payload.bin
	ccache_cc_compile p.S
	echo EEEE >payload.bin
	ccache_cc_compile p.S
	objdump -s -j .rodata out.o | grep -q 'EEEE'
}

@test "ccache-cc: a source without .incbin is cached in depend mode, and a changed header is a miss" {
	cd "$BATS_TEST_TMPDIR"
	CCW=("$REPO/scripts/ccache-cc" gcc)
	echo 'int v = 1;' >h.h
	printf '#include "h.h"\nint f(void) { return v; }\n' >c.c
	ccache_cc_compile c.c
	ccache_cc_compile c.c
	echo 'int v = 2;' >h.h
	ccache_cc_compile c.c
	run env CCACHE_DIR="$BATS_TEST_TMPDIR/cc" ccache --print-stats
	[[ "$output" == *$'\n'"direct_cache_hit"$'\t'"1"$'\n'* ]]
	[[ "$output" == *$'\n'"cache_miss"$'\t'"2"$'\n'* ]]
	# depend mode: no preprocessor run on a miss (the default mode
	# counts two preprocessed misses here)
	[[ "$output" == *$'\n'"preprocessed_cache_miss"$'\t'"0"$'\n'* ]]
	objdump -s -j .data out.o | grep -q ' 02000000 '
}

@test "setup: with everything installed it only checks (idempotent)" {
	run "$REPO/scripts/setup"
	[ "$status" -eq 0 ]
	[[ "$output" == *"default tree $DEFAULT_TREE ready"* ]]
	[ "$(git -C "$DEFAULT_TREE" ls-tree -r --name-only "$BASE_TAG" | wc -l)" -eq "$BASE_FILES" ] || [ -s "$X86H_CACHE/default-tree" ]
}

@test "maintainers: MAINTAINERS-notes/get_maintainer.txt is current" {
	run "$REPO/scripts/maintainers" --check
	[ "$status" -eq 0 ]
}

# --- NOP selection ---------------------------------------------------------

@test "kunit: --exec without a built kernel is refused, naming how to build it" {
	X86H_BUILD=$BATS_TEST_TMPDIR/build run --separate-stderr "$REPO/scripts/kunit" all --exec --tree "$DEFAULT_TREE"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"--exec: no kernel in $BATS_TEST_TMPDIR/build/kunit/all; run scripts/kunit all first"* ]]
}

@test "kunit: a --kernel-arg that is not one plain word is refused" {
	for a in "x86_nops=k8 quiet" 'x86_nops=$(id)' "a;b"; do
		X86H_BUILD=$BATS_TEST_TMPDIR/build run --separate-stderr "$REPO/scripts/kunit" all --tree "$DEFAULT_TREE" --kernel-arg "$a"
		[ "$status" -eq 1 ]
		[ "${#stderr_lines[@]}" -eq 1 ]
		[[ "$stderr" == *"--kernel-arg '$a': one word"* ]]
	done
	[ ! -e "$BATS_TEST_TMPDIR/build/kunit" ]
}

@test "boots: without the kernels of the table it is refused, naming how to build them" {
	X86H_BUILD=$BATS_TEST_TMPDIR/build run --separate-stderr "$REPO/scripts/boots"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"run scripts/kunit all first"* ]]
	X86H_BUILD=$BATS_TEST_TMPDIR/build run --separate-stderr "$REPO/scripts/boots" --config refcount-full
	[[ "$stderr" == *"run scripts/kunit refcount-full first"* ]]
}

@test "boots: a row with an unknown configuration, CPU or check is refused, naming its line" {
	for row in "nosuch amd - - has:x" "all pentium - - has:x" "all amd - - maybe:x" "all amd -"; do
		printf '# a comment\n%s\n' "$row" >"$BATS_TEST_TMPDIR/table"
		run --separate-stderr "$REPO/scripts/boots" --table "$BATS_TEST_TMPDIR/table"
		[ "$status" -eq 1 ] || { echo "$row: exit $status" >&2; return 1; }
		[ "${#stderr_lines[@]}" -eq 1 ]
		[[ "$stderr" == *"table:2: "* ]] || { echo "$row: $stderr" >&2; return 1; }
	done
}

@test "boots: every NOP row names only x86_nops/x86_nops_pad arguments and one choice line" {
	n=0
	while read -r cfg cpu args suites checks; do
		case "$cfg" in '' | '#'*) continue ;; esac
		[ "$suites" = x86_nops ] || continue
		n=$((n + 1))
		[[ "$args" == - || "$args" =~ ^(x86_nops(_pad)?(=[a-z0-9]+)?,?)+$ ]] || { echo "args $args" >&2; return 1; }
		[[ "$checks" == "once:NOPs: x86_nops= | has:NOPs: x86_nops="* ]] || { echo "checks $checks" >&2; return 1; }
		[[ "$checks" =~ has:NOPs:\ x86_nops=(p6|k8)(\ \(auto\))?\ x86_nops_pad=(jmp|nops)( \||$) ]] || { echo "choice $checks" >&2; return 1; }
	done <"$REPO/tests/boots/table"
	[ "$n" -eq 17 ]
}

@test "objdump-check: a bad row is refused naming its line; a kernel not built fails its rows" {
	for row in "all op_inc" "all op_inc seq x" "nosuch op_inc path ret"; do
		printf '# c\n%s\n' "$row" >"$BATS_TEST_TMPDIR/table"
		run --separate-stderr "$REPO/scripts/objdump-check" --table "$BATS_TEST_TMPDIR/table"
		[ "$status" -eq 1 ]
		[ "${#stderr_lines[@]}" -eq 1 ]
		[[ "$stderr" == *"table:2: "* ]] || { echo "$row: $stderr" >&2; return 1; }
	done
	X86H_BUILD=$BATS_TEST_TMPDIR/build run "$REPO/scripts/objdump-check"
	[ "$status" -eq 1 ]
	[[ "$output" == *"not ok - objdump: all __switch_to has: no __switch_to in build/kunit/all/vmlinux or build/check/obj-all"* ]]
	# refcount-fast has no kernel in make test: its rows read the objects
	# check-patches compiled with its configuration, and fail without them
	[[ "$output" == *"not ok - objdump: refcount-fast op_inc path: no op_inc in build/kunit/refcount-fast/vmlinux or build/check/obj-refcount-fast"* ]]
	[ "$(grep -c '^1\.\.' "$BATS_TEST_TMPDIR/build/results/objdump.tap")" -eq 1 ]
}

# --- the boot driver --------------------------------------------------------

@test "boot: every CPU word is a qemu_config kunit.py loads, with its -cpu model and -smp 2" {
	for w in $("$REPO/scripts/boot" cpus); do
		python3 - "$DEFAULT_TREE/tools/testing/kunit" "$REPO/tests/qemu_configs/$w.py" <<-'EOF' || return 1
		import sys
		sys.path.insert(0, sys.argv[1])
		import kunit_kernel
		arch, ops = kunit_kernel._get_qemu_ops(sys.argv[2], [], None)
		p = ops._extra_qemu_params
		assert arch == 'x86_64', arch
		assert p[p.index('-smp') + 1] == '2', p
		assert p[p.index('-cpu') + 1], p
		EOF
	done
	[ "$("$REPO/scripts/boot" cpu amd)" = EPYC,-hypervisor,tcg-cpuid=off ]
	[ "$("$REPO/scripts/boot" cpu intel)" = Skylake-Client ]
	run --separate-stderr "$REPO/scripts/boot" cpu pentium
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"unknown CPU 'pentium'; known: amd "* ]]
}

# A console with one splat of each kind the crash detector knows.
splat_console() {
	cat <<-'EOF'
	[    0.100000] Linux version 6.12.117
	[    0.200000] RETBleed: WARNING: Spectre v2 mitigation leaves CPU vulnerable to RETBleed attacks, data leaks possible!
	[    1.000000] ------------[ cut here ]------------
	[    1.000001] WARNING: CPU: 1 PID: 1 at init/main.c:1500 kernel_init+0x12/0x140
	[    1.100000] ------------[ cut here ]------------
	[    1.100001] refcount_t: saturated; use-after-free.
	[    1.100002] WARNING: CPU: 0 PID: 7 at lib/refcount.c:25 refcount_warn_saturate+0x9a/0x100
	[    1.200000] kernel BUG at mm/slub.c:100!
	[    1.300000] Oops: general protection fault, probably for non-canonical address 0xdead000000000100: 0000 [#1] PREEMPT SMP
	[    1.400000] WARNING: possible circular locking dependency detected
	[    1.500000] WARNING: suspicious RCU usage
	[    1.600000] BUG: KASAN: slab-use-after-free in refcount_inc+0x1/0x20
	[    1.700000] BUG: KCSAN: data-race in foo / bar
	[    1.800000] UBSAN: array-index-out-of-bounds in lib/x.c:3:5
	[    1.900000] INFO: task kworker/0:1:12 blocked for more than 120 seconds.
	[    2.000000] watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [swapper/0:1]
	[    2.100000] rcu: INFO: rcu_preempt self-detected stall on CPU
	[    2.200000] hardened_atomic: atomic_t overflow at get_next_ino+0x1f/0x40 (reported)
	[    2.200001] WARNING: CPU: 0 PID: 1 at lib/hardened_atomic.c:156 hardened_atomic_report+0x50/0x80
	[    2.300000] lkdtm: Performing direct entry WARNING
	[    2.300001] WARNING: CPU: 0 PID: 1 at drivers/misc/lkdtm/bugs.c:80 lkdtm_WARNING+0x1/0x10
	[    2.300002] lkdtm: Crash point DIRECT of type WARNING registered
	[    2.400000] Kernel panic - not syncing: Fatal exception
	EOF
}

@test "boot splats: every kind of splat is found once, and nothing else" {
	splat_console >"$BATS_TEST_TMPDIR/console"
	: >"$BATS_TEST_TMPDIR/none"
	run "$REPO/scripts/boot" splats --config all --allow "$BATS_TEST_TMPDIR/none" \
		--excuse '^lkdtm: Performing' '^lkdtm: Crash point' 'WARNING: CPU: N PID: N at ' "$BATS_TEST_TMPDIR/console"
	[ "$status" -eq 1 ]
	printf '%s\n' "${lines[@]}"
	[ "${#lines[@]}" -eq 15 ]
	[ "$(grep -c '^unexpected: ' <<<"$output")" -eq 14 ]
	grep -qx 'provoked: lkdtm: Performing direct entry WARNING | WARNING: CPU: N PID: N at drivers/misc/lkdtm/bugs.c:80 lkdtm_WARNING' <<<"$output"
	for want in 'WARNING: CPU: N PID: N at init/main.c:1500 kernel_init' \
		'refcount_t: saturated; use-after-free. | WARNING: CPU: N PID: N at lib/refcount.c:25 refcount_warn_saturate' \
		'kernel BUG at mm/slub.c:100!' 'Oops: general protection fault' 'possible circular locking' \
		'suspicious RCU usage' 'BUG: KASAN: slab-use-after-free in refcount_inc' 'BUG: KCSAN: data-race' \
		'UBSAN: array-index-out-of-bounds' 'blocked for more than N seconds' 'BUG: soft lockup' \
		'self-detected stall' 'hardened_atomic: atomic_t overflow at get_next_ino (reported)' 'Kernel panic - not syncing'; do
		grep -F -- "$want" <<<"$output" | grep -q '^unexpected: ' || { echo "missing: $want" >&2; return 1; }
	done
	! grep -q 'RETBleed\|hardened_atomic_report' <<<"$output"
}

@test "boot splats: an allowlist entry allows its splat for its configurations only" {
	splat_console | sed -n '1,2p;18,19p' >"$BATS_TEST_TMPDIR/console"
	printf '# CONFIGS REGEX REASON\nrefcount-* hardened_atomic:.*flow\\sat\\sget_next_ino\\b wraps on purpose\n' \
		>"$BATS_TEST_TMPDIR/allow"
	run "$REPO/scripts/boot" splats --config refcount-fast --allow "$BATS_TEST_TMPDIR/allow" "$BATS_TEST_TMPDIR/console"
	[ "$status" -eq 0 ]
	[ "$output" = "allowed: hardened_atomic: atomic_t overflow at get_next_ino (reported) (wraps on purpose)" ]
	run "$REPO/scripts/boot" splats --config all --allow "$BATS_TEST_TMPDIR/allow" "$BATS_TEST_TMPDIR/console"
	[ "$status" -eq 1 ]
	printf 'refcount-* no-reason\n' >"$BATS_TEST_TMPDIR/bad"
	run --separate-stderr "$REPO/scripts/boot" splats --config all --allow "$BATS_TEST_TMPDIR/bad" "$BATS_TEST_TMPDIR/console"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"bad:1: needs CONFIGS, a regular expression and a reason"* ]]
}

@test "boot splats: the shipped allowlist parses and allows nothing on a clean console" {
	printf '[    0.1] Linux version 6.12.117\n' >"$BATS_TEST_TMPDIR/console"
	for c in $(awk '!/^#/ && NF { print $1 }' "$REPO/tests/kunit/configs") base; do
		run "$REPO/scripts/boot" splats --config "$c" "$BATS_TEST_TMPDIR/console"
		[ "$status" -eq 0 ] && [ -z "$output" ] || { echo "$c: $output" >&2; return 1; }
	done
}

@test "boot splats: an oops carries its RIP, its fatal panic is part of it; an int3 oops is allowed only when its code dump shows no int3 before RIP" {
	local stale='Code: 0f 1f 44 00 00 eb ae 4c 89 65 18 c6 45 24 00 eb <09> 5b 5d 41 5c e9 21 33 b4 00'
	local real='Code: 0f 1f 44 00 00 eb ae 4c 89 65 18 c6 45 24 00 cc <09> 5b 5d 41 5c e9 21 33 b4 00'
	local case rip code want
	for case in "sched_clock_cpu+0x9/0x190|$stale|allowed" "text_poke_bp_batch+0x9/0x190|$stale|allowed" \
		"hrtimer_start_range_ns+0x1f/0x60|$real|unexpected" "enqueue_timer+0xa5/0x100||unexpected" \
		"enqueue_timer+0xa5/0x100|Code: <09> 5b 5d|unexpected" \
		"enqueue_timer+0xa5/0x100|Code: 5b 5d 41 5c cd 03 <5b> 5d|unexpected" \
		"enqueue_timer+0xa5/0x100|NMI backtrace for cpu 1|unexpected"; do
		IFS='|' read -r rip code want <<<"$case"
		# another CPU's stale code dump after a line that is not the oops' Code:
		local more=()
		[[ "$code" != NMI* ]] || more=("[    3.98] RIP: 0010:default_idle+0x9/0x20" "[    3.98] $stale")
		printf '%s\n' '[    3.9] sched_clock: Marking stable' '[    3.97] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI' \
			'[    3.97] CPU: 0 UID: 0 PID: 0 Comm: swapper/0 Not tainted 6.12.117 #1' \
			"[    3.97] RIP: 0010:$rip" ${code:+"[    3.97] $code"} "${more[@]}" \
			'[    4.02] Kernel panic - not syncing: Fatal exception in interrupt' >"$BATS_TEST_TMPDIR/console"
		run "$REPO/scripts/boot" splats --config all "$BATS_TEST_TMPDIR/console"
		[ "${#lines[@]}" -eq 1 ] || { echo "$rip: $output" >&2; return 1; }
		local sig="Oops: int3: 0000 [#N] PREEMPT SMP NOPTI | RIP: 0010:${rip%%+*}"
		if [ "$want" = allowed ]; then
			[ "$status" -eq 0 ] || { echo "$case: $output" >&2; return 1; }
			[[ "$output" == "allowed: $sig | Code: no int3 at RIP-1 (QEMU TCG"* ]] || { echo "$case: $output" >&2; return 1; }
		else
			[ "$status" -eq 1 ] || { echo "$case: $output" >&2; return 1; }
			[ "$output" = "unexpected: $sig" ] || { echo "$case: $output" >&2; return 1; }
		fi
	done
}

@test "boot splats: expedited stalls, hard lockups, SLUB and lockdep reports, caller-id prefixes; a WARN after a report is its own" {
	printf '%s\n' '[    1.0] rcu: INFO: rcu_preempt detected expedited stalls on CPUs/tasks: { 1-... } 21 jiffies s: 145 root: 0x2/.' \
		'[    1.1] watchdog: Watchdog detected hard LOCKUP on cpu 1' \
		'[    1.2] BUG kmalloc-64 (Not tainted): Redzone overwritten' \
		'[    1.3] INFO: trying to register non-static key.' \
		'[    1.4][    T1] kernel BUG at lib/x.c:1!' \
		'[    2.0] hardened_atomic: atomic_t overflow at foo+0x1/0x20 (reported, rate limited)' \
		'[    2.1] ------------[ cut here ]------------' \
		'[    2.2] WARNING: CPU: 0 PID: 1 at mm/slub.c:9 kfree+0x1/0x2' >"$BATS_TEST_TMPDIR/console"
	run "$REPO/scripts/boot" splats --config all --allow /dev/null "$BATS_TEST_TMPDIR/console"
	[ "$status" -eq 1 ]
	printf '%s\n' "${lines[@]}"
	[ "${#lines[@]}" -eq 7 ]
	grep -q '^unexpected: WARNING: CPU: N PID: N at mm/slub.c:9 kfree$' <<<"$output"
	grep -q '^unexpected: kernel BUG at lib/x.c:1!$' <<<"$output"
	run --separate-stderr "$REPO/scripts/boot" splats --config all --excuse '(' x y "$BATS_TEST_TMPDIR/console"
	[ "$status" -eq 2 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"--excuse '(': "* ]]
}

@test "boot splats: an excuse window excuses only its pattern, opens once, and one crash is one splat" {
	printf '%s\n' 'lkdtm: attempting bad refcount_inc() overflow' '------------[ cut here ]------------' \
		'refcount_t: saturated; use-after-free.' \
		'WARNING: CPU: 0 PID: 1 at ../../../../../root/.cache/x86-hardening/linux-6.12.117/lib/refcount.c:25 refcount_report+0x1/0x2' \
		'BUG: KASAN: slab-use-after-free in refcount_inc+0x1/0x20' \
		'lkdtm: Crash point DIRECT of type REFCOUNT_INC_OVERFLOW registered' \
		'lkdtm: a later line' '------------[ cut here ]------------' \
		'WARNING: CPU: 1 PID: 9 at kernel/sched/core.c:1 foo+0x1/0x2' \
		'kernel BUG at mm/slub.c:100!' 'Oops: invalid opcode: 0000 [#1] PREEMPT SMP NOPTI' \
		'RIP: 0010:kfree+0x1/0x2' 'Kernel panic - not syncing: Attempted to kill init! exitcode=0x0000000b' \
		>"$BATS_TEST_TMPDIR/console"
	run "$REPO/scripts/boot" splats --config all --allow /dev/null \
		--excuse '^lkdtm: ' '^lkdtm: Crash point' 'WARNING: CPU: N PID: N at ' "$BATS_TEST_TMPDIR/console"
	[ "$status" -eq 1 ]
	printf '%s\n' "${lines[@]}"
	[ "${#lines[@]}" -eq 4 ]
	grep -qx 'provoked: refcount_t: saturated; use-after-free. | WARNING: CPU: N PID: N at lib/refcount.c:25 refcount_report' <<<"$output"
	grep -qx 'unexpected: BUG: KASAN: slab-use-after-free in refcount_inc' <<<"$output"
	grep -qx 'unexpected: WARNING: CPU: N PID: N at kernel/sched/core.c:1 foo' <<<"$output"
	grep -qx 'unexpected: kernel BUG at mm/slub.c:100! | RIP: 0010:kfree' <<<"$output"
}

@test "boot splats: lockdep's invalid wait context is a splat; firmware WARNING lines are not" {
	printf '%s\n' "WARNING: 'bootconfig' found on the kernel command line but CONFIG_BOOT_CONFIG is not set." \
		'WARNING: bogus zero IO-APIC address found in MPTABLE, disabling IO/APIC support!' \
		'[ BUG: Invalid wait context ]' >"$BATS_TEST_TMPDIR/console"
	run "$REPO/scripts/boot" splats --config all --allow /dev/null "$BATS_TEST_TMPDIR/console"
	[ "$status" -eq 1 ]
	[ "$output" = 'unexpected: [ BUG: Invalid wait context ]' ]
}

@test "splat_result: the first console of a retried boot is checked too; a detector failure is not a splat" {
	printf '[    1.0] Linux version 6.12.117\n' >"$BATS_TEST_TMPDIR/c.log"
	printf '[    1.0] Oops: general protection fault 0000 [#1] SMP\n' >"$BATS_TEST_TMPDIR/c.log.first"
	run splat_result "$BATS_TEST_TMPDIR/r.tap" "boot x" all "$BATS_TEST_TMPDIR/c.log"
	[ "$status" -eq 1 ]
	grep -q '^not ok - boot x: unexpected splat: Oops: general protection fault' "$BATS_TEST_TMPDIR/r.tap"
	rm "$BATS_TEST_TMPDIR/c.log.first"
	run splat_result "$BATS_TEST_TMPDIR/r2.tap" "boot y" all "$BATS_TEST_TMPDIR/c.log"
	[ "$status" -eq 0 ]
	grep -qx 'ok - boot y: no unexpected splat' "$BATS_TEST_TMPDIR/r2.tap"
	run splat_result "$BATS_TEST_TMPDIR/r3.tap" "boot z" all "$BATS_TEST_TMPDIR/missing.log"
	[ "$status" -eq 1 ]
	grep -q '^not ok - boot z: the crash detector failed: boot splats: .*missing.log' "$BATS_TEST_TMPDIR/r3.tap"
}

@test "boot kunit: a boot with no KTAP is tried once more, as exec without run's build options" {
	t=$BATS_TEST_TMPDIR/tree
	b=$BATS_TEST_TMPDIR/build
	mkdir -p "$t/tools/testing/kunit" "$b"
	: >"$t/tools/testing/kunit/kunit_kernel.py"
	: >"$b/vmlinux"
	cat >"$t/tools/testing/kunit/kunit.py" <<-'EOF'
	import sys
	open(sys.argv[0] + '.calls', 'a').write(' '.join(sys.argv[1:]) + '\n')
	build = [a.split('=', 1)[1] for a in sys.argv if a.startswith('--build_dir=')][0]
	open(build + '/test.log', 'w').write('Oops: int3: 0000 [#1] PREEMPT SMP\n')
	sys.exit(1)
	EOF
	run "$REPO/scripts/boot" kunit --tree "$t" --cpu amd --build-dir "$b" --log "$BATS_TEST_TMPDIR/boot.log" --what kunit-x \
		-- run --kunitconfig=/a.kunitconfig --make_options "CC=ccache gcc" --jobs 2 --build_dir="$b" --json="$b/r.json" x86_nops
	[ "$status" -eq 1 ]
	[[ "$output" == *"kunit-x: the kernel stopped before any test ran (Oops: int3: 0000 [#1] PREEMPT SMP); booting it once more"* ]]
	mapfile -t calls <"$t/tools/testing/kunit/kunit.py.calls"
	[ "${#calls[@]}" -eq 2 ]
	[[ "${calls[0]}" == "run --kunitconfig=/a.kunitconfig --make_options CC=ccache gcc --jobs 2 --build_dir=$b --json=$b/r.json x86_nops --qemu_config $REPO/tests/qemu_configs/amd.py --kernel_args panic=-1 --kernel_args tsc=unstable" ]]
	[[ "${calls[1]}" == "exec --build_dir=$b --json=$b/r.json x86_nops --qemu_config $REPO/tests/qemu_configs/amd.py --kernel_args panic=-1 --kernel_args tsc=unstable" ]]
	[ -f "$BATS_TEST_TMPDIR/boot.log.first" ]
}

@test "boot tap: result lines become TAP 13 that TAP::Parser reads, with plan and numbers" {
	printf 'ok - one\n# a note\nnot ok - two: failed\nnot ok - three # TIMEOUT 60 seconds\n' >"$BATS_TEST_TMPDIR/r.tap"
	run "$REPO/scripts/boot" tap "$BATS_TEST_TMPDIR/r.tap"
	[ "$status" -eq 0 ]
	[ "$(head -n 2 "$BATS_TEST_TMPDIR/r.tap" | paste -sd ' ')" = "TAP version 13 1..3" ]
	grep -qx 'not ok 2 - two: failed' "$BATS_TEST_TMPDIR/r.tap"
	grep -qx 'not ok 3 - three # TIMEOUT 60 seconds' "$BATS_TEST_TMPDIR/r.tap"
	cp "$BATS_TEST_TMPDIR/r.tap" "$BATS_TEST_TMPDIR/again.tap"
	"$REPO/scripts/boot" tap "$BATS_TEST_TMPDIR/again.tap"
	cmp "$BATS_TEST_TMPDIR/r.tap" "$BATS_TEST_TMPDIR/again.tap"
	run perl -MTAP::Parser -e 'my $p = TAP::Parser->new({ source => $ARGV[0] }); 1 while $p->next;
		print join(" ", $p->version, $p->tests_run, scalar $p->passed, scalar $p->failed, scalar $p->parse_errors)' \
		"$BATS_TEST_TMPDIR/r.tap"
	[ "$output" = "13 3 1 2 0" ]
}

@test "selftests, lkdtm: a runs table with a bad row is refused, naming it" {
	printf 'all amd\n' >"$BATS_TEST_TMPDIR/runs"
	run --separate-stderr "$REPO/scripts/selftests" --runs "$BATS_TEST_TMPDIR/runs" --tree "$DEFAULT_TREE"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"runs:1: needs KERNEL CPU KERNEL-ARGS"* ]]
	printf 'all pentium -\n' >"$BATS_TEST_TMPDIR/runs"
	run --separate-stderr "$REPO/scripts/selftests" --runs "$BATS_TEST_TMPDIR/runs" --tree "$DEFAULT_TREE"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"unknown CPU 'pentium'"* ]]
	printf 'all amd - REFCOUNTS\n' >"$BATS_TEST_TMPDIR/runs"
	run --separate-stderr "$REPO/scripts/lkdtm" --runs "$BATS_TEST_TMPDIR/runs" --tree "$DEFAULT_TREE"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"runs:1: CRASH-TYPES must be REFCOUNT, ATOMIC, CFI or a comma-separated list of them"* ]]
}

@test "bench/nops: --repeats must be a positive number" {
	for r in 0 -1 x ""; do
		run --separate-stderr "$REPO/scripts/bench/nops" --repeats "$r"
		[ "$status" -eq 1 ]
		[ "${#stderr_lines[@]}" -eq 1 ]
		[[ "$stderr" == *"--repeats needs a positive number"* ]]
	done
}

@test "check-patches: every off-identical line names a Kconfig option and an object of a file the series touches" {
	while read -r opt o; do
		case "$opt" in '' | '#'*) continue ;; esac
		grep -q "^+config $opt\$" "$REPO"/patches/*.patch || { echo "no patch adds $opt" >&2; return 1; }
		grep -q "^+++ b/${o%.o}.c\$" "$REPO"/patches/*.patch || { echo "no patch touches ${o%.o}.c" >&2; return 1; }
	done <"$REPO/tests/check-patches/off-identical"
}
@test "bench/atomic: --ops and --rounds must be positive numbers" {
	for a in "--ops 0" "--ops x" "--rounds 0" "--rounds 1000"; do
		# shellcheck disable=SC2086 # two words on purpose
		run --separate-stderr "$REPO/scripts/bench/atomic" $a
		[ "$status" -eq 1 ] || { echo "$a: exit $status" >&2; return 1; }
		[ "${#stderr_lines[@]}" -eq 1 ]
	done
}
@test "bench/atomic: --table without results is refused with one line and writes nothing" {
	before=$(cksum <"$REPO/docs/atomic-variants.md" 2>/dev/null || echo none)
	X86H_BUILD=$BATS_TEST_TMPDIR/build run --separate-stderr "$REPO/scripts/bench/atomic" --table
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"no results in "* ]]
	[ "$(cksum <"$REPO/docs/atomic-variants.md" 2>/dev/null || echo none)" = "$before" ]
}
@test "bench/atomic: --size-distro refuses missing builds and lines that differ in more than HARDENED_ATOMIC, with one line" {
	local b=$BATS_TEST_TMPDIR/build l
	X86H_BUILD=$b run --separate-stderr "$REPO/scripts/bench/atomic" --size-distro
	[ "$status" -eq 1 ] && [ "${#stderr_lines[@]}" -eq 1 ] || { echo "$status: $stderr" >&2; return 1; }
	[[ "$stderr" == *"no build/distro/defaults/vmlinux: run make matrix"* ]]
	for l in defaults ha-fast-protect ha-exact-report; do
		mkdir -p "$b/distro/$l"
		: >"$b/distro/$l/vmlinux"
		printf 'CONFIG_X86_64=y\nCONFIG_LKDTM=y\n' >"$b/distro/$l/.config"
	done
	printf 'CONFIG_HARDENED_ATOMIC=y\nCONFIG_HARDENED_ATOMIC_FAST=y\n' >>"$b/distro/ha-fast-protect/.config"
	printf 'CONFIG_HARDENED_ATOMIC=y\nCONFIG_HARDENED_ATOMIC_EXACT=y\n' >>"$b/distro/ha-exact-report/.config"
	sed -i 's/CONFIG_LKDTM=y/CONFIG_LKDTM=m/' "$b/distro/ha-exact-report/.config"
	X86H_BUILD=$b run --separate-stderr "$REPO/scripts/bench/atomic" --size-distro
	[ "$status" -eq 1 ] && [ "${#stderr_lines[@]}" -eq 1 ] || { echo "$status: $stderr" >&2; return 1; }
	[[ "$stderr" == *"build/distro/ha-exact-report/.config differs from defaults' in more than HARDENED_ATOMIC: "*"LKDTM y -> m"* ]]
	[ ! -e "$b/results/bench-atomic-size-distro.txt" ]
}
@test "bench/atomic: --size-distro names the sections that differ and says when .text is the same size in all three" {
	local b=$BATS_TEST_TMPDIR/build l n=0 out
	# Three objects standing in for the vmlinuxes: .text the same (as
	# the linker's padding makes it), .init.text and .rodata growing.
	for l in defaults ha-fast-protect ha-exact-report; do
		mkdir -p "$b/distro/$l"
		printf 'CONFIG_X86_64=y\n' >"$b/distro/$l/.config"
		printf '%s\n' '.text' '.globl f' '.type f,@function' 'f: .fill 64,1,0x90' '.size f, 64' \
			'.section .init.text,"ax"' '.globl g' '.type g,@function' "g: .fill $((32 + 16 * n)),1,0x90" \
			".size g, $((32 + 16 * n))" '.section .rodata' ".fill $((8 + 8 * n)),1,0" \
			'.section __ksymtab,"a"' ".fill $((4 + 4 * n)),1,0" |
			as -o "$b/distro/$l/vmlinux" -
		n=$((n + 1))
	done
	printf 'CONFIG_HARDENED_ATOMIC=y\nCONFIG_HARDENED_ATOMIC_FAST=y\n' >>"$b/distro/ha-fast-protect/.config"
	printf 'CONFIG_HARDENED_ATOMIC=y\nCONFIG_HARDENED_ATOMIC_EXACT=y\n' >>"$b/distro/ha-exact-report/.config"
	X86H_BUILD=$b run "$REPO/scripts/bench/atomic" --size-distro
	[ "$status" -eq 0 ] || { echo "$status: $output" >&2; return 1; }
	out=$b/results/bench-atomic-size-distro.txt
	grep -Eq '^  \.text +64 +\+0 +\+0 \(the same in all three\)$' "$out"
	grep -Eq '^  \.init\.text +32 +\+16 +\+32$' "$out"
	grep -Eq '^  \.rodata +8 +\+8 +\+16$' "$out"
	grep -q '^add/remove: 0/0 grow/shrink: 1/0 up/down: 16/0 (16)$' "$out"
	grep -q '^add/remove: 0/0 grow/shrink: 1/0 up/down: 32/0 (32)$' "$out"
	# sections not named with a dot (the ksymtabs) are listed too, and
	# bloat-o-meter -c gives the functions alone
	grep -Eq '^  __ksymtab +4 +\+4 +\+8$' "$out"
	grep -q '^functions only (bloat-o-meter -c): add/remove: 0/0 grow/shrink: 1/0 up/down: 16/0 (16)$' "$out"
	grep -q '^functions only (bloat-o-meter -c): add/remove: 0/0 grow/shrink: 1/0 up/down: 32/0 (32)$' "$out"
	# A .text that grows is listed with its change, without the remark.
	printf '%s\n' '.text' '.fill 80,1,0x90' | as -o "$b/distro/ha-exact-report/vmlinux" -
	X86H_BUILD=$b run "$REPO/scripts/bench/atomic" --size-distro
	[ "$status" -eq 0 ] || { echo "$status: $output" >&2; return 1; }
	grep -Eq '^  \.text +64 +\+0 +\+16$' "$out"
	! grep -q 'the same in all three' "$out"
}
@test "hardened-atomic: each fragment names one implementation and one mode, the other ones unset" {
	for impl in fast exact; do
		for mode in report protect; do
			f=$REPO/kconfig-fragments/hardened-atomic-$impl-$mode.config
			grep -qx 'CONFIG_HARDENED_ATOMIC=y' "$f"
			grep -qx "CONFIG_HARDENED_ATOMIC_${impl^^}=y" "$f"
			grep -qx "CONFIG_HARDENED_ATOMIC_${mode^^}=y" "$f"
			[ "$(grep -c '=y$' "$f")" -eq 3 ]
			[ "$(grep -c 'is not set$' "$f")" -eq 2 ]
		done
	done
}
@test "lkdtm: hardened-atomic.expect names only ATOMIC_* types and the modes protect, report or *" {
	while read -r t modes how text; do
		case "$t" in '' | '#'*) continue ;; esac
		[[ "$t" == ATOMIC* ]] || { echo "type $t" >&2; return 1; }
		[[ "$modes" =~ ^(\*|protect|report)$ ]] || { echo "modes $modes" >&2; return 1; }
		[[ "$how" =~ ^(also|instead)$ ]] || { echo "$how" >&2; return 1; }
		[ -n "$text" ]
	done <"$REPO/tests/lkdtm/hardened-atomic.expect"
}

@test "bench/funcmeta: without the all kernel each action says how to build it" {
	for a in --size --lookup; do
		X86H_BUILD=$BATS_TEST_TMPDIR/build run --separate-stderr "$REPO/scripts/bench/funcmeta" $a
		[ "$status" -eq 1 ] || { echo "$a: exit $status" >&2; return 1; }
		[ "${#stderr_lines[@]}" -eq 1 ]
		[[ "$stderr" == *"run scripts/kunit all first"* ]]
	done
	X86H_BUILD=$BATS_TEST_TMPDIR/build run --separate-stderr "$REPO/scripts/bench/funcmeta" --check
	[ "$status" -eq 1 ]
	[[ "$output" == "not ok - objdump: func_meta_lookup: "*"(scripts/kunit all builds it)" ]]
}

@test "bench/ccache: a folder that is no gcc kernel build, or a --dirs outside the tree or not built, is refused with one line, nothing copied" {
	b=$BATS_TEST_TMPDIR/build
	X86H_BUILD=$b run --separate-stderr "$REPO/scripts/bench/ccache"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"$b/kunit/all: not a kernel build folder (no .config; build one with scripts/kunit all)" ]]
	# a build folder of the fake tree, with an object that must survive
	o=$BATS_TEST_TMPDIR/o
	mkdir -p "$o/arch" "$T/fs"
	: >"$o/arch/keep.o"
	echo CONFIG_CC_IS_GCC=y >"$o/.config"
	echo "include $T/Makefile" >"$o/Makefile"
	refused() {
		X86H_BUILD=$b run --separate-stderr "$REPO/scripts/bench/ccache" --build "$o" "$@"
		[ "$status" -eq 1 ] || { echo "$*: exit $status" >&2; return 1; }
		[ "${#stderr_lines[@]}" -eq 1 ] || { echo "$*: $stderr" >&2; return 1; }
	}
	for d in ../ ./arch arch/../arch "$o/arch" "arch/.."; do
		refused --dirs "$d"
		[[ "$stderr" == *"--dirs: $d is not a folder of the kernel tree (a relative path without . or ..)" ]]
	done
	refused --dirs "nosuch/"
	[[ "$stderr" == *"--dirs: $T has no folder nosuch/" ]]
	refused --dirs "fs/"
	[[ "$stderr" == *"--dirs: $o has built nothing in fs/" ]]
	# a link in the build folder that leads out of it
	mkdir -p "$T/lib" "$BATS_TEST_TMPDIR/victim"
	: >"$BATS_TEST_TMPDIR/victim/keep.o"
	ln -s "$BATS_TEST_TMPDIR/victim" "$o/lib"
	refused --dirs "lib/"
	[[ "$stderr" == *"--dirs: $o/lib/ leads out of the build folder (a symbolic link)" ]]
	[ -f "$BATS_TEST_TMPDIR/victim/keep.o" ]
	for r in 0 -1 x; do
		refused --rounds "$r"
		[[ "$stderr" == *"--rounds needs a positive number" ]]
	done
	echo CONFIG_CC_IS_CLANG=y >"$o/.config"
	refused
	[[ "$stderr" == *"$o: not a gcc build (this benchmark compiles with gcc)" ]]
	echo "all:" >"$o/Makefile"
	refused
	[[ "$stderr" == *"$o/Makefile names no kernel tree (a build folder made with O=)" ]]
	[ ! -e "$b/bench" ]
	[ -f "$o/arch/keep.o" ]
}

@test "bench/kcfi-sizes: a bad --layout and a tree without the series are refused, nothing built" {
	X86H_BUILD=$BATS_TEST_TMPDIR/build run --separate-stderr "$REPO/scripts/bench/kcfi-sizes" --layout 64
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"--layout takes 32, 16 or all"* ]]
	X86H_BUILD=$BATS_TEST_TMPDIR/build run --separate-stderr "$REPO/scripts/bench/kcfi-sizes" --tree "$T"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"has no FUNCTION_METADATA: apply the series first"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/build" ]
	[ -z "$(git -C "$T" status --porcelain)" ]
}

@test "function-metadata: the fragment turns the option on, the off fragment off, and the all kernel carries it" {
	grep -qx 'CONFIG_FUNCTION_METADATA=y' "$REPO/kconfig-fragments/function-metadata.config"
	grep -qx '# CONFIG_FUNCTION_METADATA is not set' "$REPO/kconfig-fragments/function-metadata-off.config"
	awk '$1 == "all" && $3 ~ /(^|,)function-metadata\.config(,|$)/ && $3 ~ /function-metadata\.kunitconfig/ && $4 == "test" { ok = 1 } END { exit !ok }' "$REPO/tests/kunit/configs"
	grep -qx 'CONFIG_FUNCTION_METADATA_KUNIT_TEST=y' "$REPO/tests/kunit/function-metadata.kunitconfig"
	grep -qx 'CONFIG_SMP=y' "$REPO/tests/kunit/function-metadata.kunitconfig"
}

# distro_refuses OPTION ROW...: scripts/distro OPTION FILE, FILE holding a
# comment and ROW, exits 1 with one line naming FILE:2
distro_refuses() {
	local opt=$1 row
	shift
	for row in "$@"; do
		printf '# a comment\n%s\n' "$row" >"$BATS_TEST_TMPDIR/table"
		X86H_BUILD=$BATS_TEST_TMPDIR/build run --separate-stderr "$REPO/scripts/distro" "$opt" "$BATS_TEST_TMPDIR/table"
		[ "$status" -eq 1 ] || { echo "$opt $row: exit $status" >&2; return 1; }
		[ "${#stderr_lines[@]}" -eq 1 ] || { echo "$opt $row: $stderr" >&2; return 1; }
		[[ "$stderr" == *"table:2: "* ]] || { echo "$opt $row: $stderr" >&2; return 1; }
	done
}

@test "distro: a bad table row, a bad known row or an unknown line is refused with one line naming it" {
	distro_refuses --lines "a x86_64 gcc defconfig nosuch.config test build" "a sparc gcc defconfig - test build" \
		"a x86_64 icc defconfig - test build" "a x86_64 gcc oldconfig - test build" \
		"a x86_64 gcc defconfig - nightly build" "a x86_64 gcc defconfig - test run" "a x86_64 gcc defconfig -"
	distro_refuses --known "bug distro-boot-report x 18 why" "step distro-boot-protect nosuchstep 18 why" \
		"splat boot-report x 18 why" "splat distro-boot-report x issue18 why" "splat distro-boot-report x 18" \
		"splat distro-report-boot at\s(unclosed 18 why"
	X86H_BUILD=$BATS_TEST_TMPDIR/build run --separate-stderr "$REPO/scripts/distro" --line nosuch
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"unknown line 'nosuch'; known: modules boot "* ]]
	[ ! -e "$BATS_TEST_TMPDIR/build" ]
}

@test "distro: the shipped tables parse; every symbol of its fragments is defined by the base or the series" {
	run "$REPO/scripts/distro" --line nosuch
	[[ "$output" == *"unknown line"* ]]
	syms=$(sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=.*/\1/p; s/^# \(CONFIG_[A-Z0-9_]*\) is not set/\1/p' \
		"$REPO"/tests/distro/*.config | sort -u)
	[ -n "$syms" ]
	# defined by the base's Kconfig or added by a patch of the series
	for s in $syms; do
		git -C "$DEFAULT_TREE" grep -qE "^\s*(menu)?config ${s#CONFIG_}\$" "$BASE_TAG" -- '*Kconfig*' ||
			grep -qE "^\+\s*(menu)?config ${s#CONFIG_}\$" "$REPO"/patches/*.patch ||
			{ echo "$s is defined neither in the base nor by the series" >&2; return 1; }
	done
}

@test "distro: the workload's init is valid busybox sh and names every step it runs" {
	busybox sh -n "$REPO/tests/distro/init"
	steps=$(sed -n 's/^\t*\[ -n "\$STEPS" \] || STEPS="\(.*\)"$/\1/p' "$REPO/tests/distro/init")
	[ -n "$steps" ]
	for s in $steps; do
		grep -q "^step_$(echo "$s" | tr - _)() " "$REPO/tests/distro/init" || { echo "no step_$s" >&2; return 1; }
	done
}

@test "distro: x86h-helper builds and each check passes on this machine" {
	gcc -O2 -Wall -Werror -static -o "$BATS_TEST_TMPDIR/h" "$REPO/tests/distro/helper.c"
	for c in "tcp 2 100000" "udp 300" "iouring 10" "spawn 20" noop; do
		run "$BATS_TEST_TMPDIR/h" $c
		[ "$status" -eq 0 ] || { echo "$c: $output" >&2; return 1; }
	done
	run "$BATS_TEST_TMPDIR/h" nosuch
	[ "$status" -eq 2 ]
}

# bisect_tree DIR: a three-patch "kernel".  Its olddefconfig writes the
# prefix's stamp into O/.config; its make records, per build, the tree's
# stamp, the .config's and how many of the tree's files are newer than the
# last build ("clean" after make clean), and fails while the tree holds a
# file named broken
bisect_tree() {
	local d=$1 i
	mkdir -p "$d/arch/x86" "$d/scripts"
	: >"$d/arch/x86/Kconfig"
	: >"$d/scripts/checkpatch.pl"
	printf '%s\n' 'VERSION = 6' 'PATCHLEVEL = 12' \
		'defconfig:' '	@mkdir -p $(O); cp $(CURDIR)/config $(O)/.config' \
		'olddefconfig:' '	@sed -i /^CONFIG_PREFIX=/d $(O)/.config; echo CONFIG_PREFIX=$$(cat $(CURDIR)/stamp) >>$(O)/.config' \
		'clean:' '	@rm -f $(O)/mark' \
		'all:' '	@: >$(O)/Makefile' \
		'	@echo $$(cat $(CURDIR)/stamp) $$(sed -n s/^CONFIG_PREFIX=//p $(O)/.config) $$(if test -f $(O)/mark; then find $(CURDIR) -newer $(O)/mark -type f | wc -l; else echo clean; fi) >>$(O)/built' \
		'	@touch $(O)/mark' '	@! test -f $(CURDIR)/broken' \
		'	@test -z "$(LOCKCHECK)" || { flock -n $(LOCKCHECK) true && echo free || echo held; } >>$(O)/lock-seen' >"$d/Makefile"
	echo CONFIG_X86_64=y >"$d/config"
	echo base >"$d/stamp"
	git -C "$d" init -q -b main
	git -C "$d" add -A
	git -C "$d" -c user.name=t -c user.email=t@t commit -q -m base
	git -C "$d" tag x86h-base
	for i in 1 2 3; do
		echo "p$i" >"$d/stamp"
		[ "$i" != 2 ] || : >"$d/broken"
		[ "$i" != 3 ] || rm "$d/broken"
		git -C "$d" add -A
		git -C "$d" -c user.name=t -c user.email=t@t commit -q -m "patch $i"
	done
}

@test "distro: the bisect line stops at the first prefix that fails, and a later run builds only the prefixes not built before, incrementally" {
	t=$BATS_TEST_TMPDIR/linux-b
	b=$BATS_TEST_TMPDIR/build
	o=$b/distro/bisect
	bisect_tree "$t"
	printf 'bisect x86_64 gcc defconfig - matrix bisect\n' >"$BATS_TEST_TMPDIR/lines"
	: >"$BATS_TEST_TMPDIR/boots"
	before=$(tree_state "$t")
	# a checkout left by the old bisect line, a worktree, is dropped
	git -C "$t" worktree add -q --detach "$b/distro/bisect-src" x86h-base
	rec=$BATS_TEST_TMPDIR/bisect-passed
	tracked=$(md5sum <"$REPO/docs/bisect-passed" 2>/dev/null || true)
	bisect() {
		X86H_BUILD=$b X86H_MATRIX_DOC=$BATS_TEST_TMPDIR/m.md X86H_BISECT_RECORD=$rec \
			run --separate-stderr "$REPO/scripts/distro" --tier matrix \
			--lines "$BATS_TEST_TMPDIR/lines" --boots "$BATS_TEST_TMPDIR/boots" --line bisect --tree "$t"
	}
	tap=$b/results/distro-bisect.tap
	bisect
	[ "$status" -eq 1 ] || { echo "$output" >&2; return 1; }
	[ "$(cat "$o/built")" = "$(printf 'p1 p1 clean\np2 p2 2')" ]
	grep -q '^ok .* patch 1 (patch 1) builds in [0-9]* s$' "$tap"
	grep -q '^not ok .* patch 2 (patch 2) does not build: ' "$tap"
	! grep -q 'patch 3\|every prefix' "$tap"
	grep -q '^| bisect | .* | FAIL | 2 | 1 | 0 | distro bisect: patch 2 (patch 2) does not build' "$BATS_TEST_TMPDIR/m.md"
	# the record: a header, then patch 1's tree and md5 with a comment;
	# the repository's own record is left alone
	[ "$(md5sum <"$REPO/docs/bisect-passed" 2>/dev/null || true)" = "$tracked" ]
	head -n 1 "$rec" | grep -qx '# Prefixes of the series that the bisect line of make matrix built'
	[ "$(grep -vc '^#' "$rec")" -eq 1 ]
	grep -qE "^$(git -C "$t" rev-parse 'HEAD~2^{tree}') [0-9a-f]{32} # patch 1 of 3 \(patch 1\): built [0-9-]+ [0-9:]+ UTC in [0-9]+ s$" "$rec"
	[ "$(tree_state "$t")" = "$before" ]
	[ "$(git -C "$t" worktree list --porcelain | grep -c '^worktree ')" -eq 1 ]
	[ ! -e "$b/distro/bisect-src/.git" ]
	# patch 2 fixed: patches 2 and 3 get new trees, patch 1 keeps its own
	git -C "$t" checkout -q -b fixed x86h-base
	for i in 1 2 3; do
		echo "p$i" >"$t/stamp"
		git -C "$t" add -A
		git -C "$t" -c user.name=t -c user.email=t@t commit -q -m "patch $i"
	done
	before=$(tree_state "$t"; find "$t/.git" -type f | sort | xargs sha1sum)
	# past X86H_BISECT_UNTIL: patch 1 counts as built, nothing is built
	# or checked out
	X86H_BISECT_UNTIL="2000-01-01" bisect
	[ "$status" -eq 1 ]
	[ "$(wc -l <"$o/built")" -eq 2 ]
	[ -z "$(find "$b/distro/bisect-src" -newer "$o/mark")" ]
	grep -q '^ok .* patch 1 (patch 1) builds (built by an earlier run: the same tree, .config and recipe)$' "$tap"
	grep -q '^not ok .* stopped before patch 2 of 3 at X86H_BISECT_UNTIL (run the line again to go on)$' "$tap"
	grep -q '^| bisect | .* | FAIL | 2 | 1 | 0 | distro bisect: stopped before patch 2 of 3' "$BATS_TEST_TMPDIR/m.md"
	# patch 2 does not descend from the old patch 2 built last: a clean
	# build; patch 3 an incremental one, of the one file it changes
	X86H_BISECT_UNTIL="next year" bisect
	[ "$status" -eq 0 ]
	[ "$(tail -n 2 "$o/built")" = "$(printf 'p2 p2 clean\np3 p3 1')" ]
	grep -q '^ok .* patch 3 (patch 3) builds in [0-9]* s (incremental)$' "$tap"
	grep -q '^ok .* every prefix builds ([0-9]* s: 2 of 3 built by this run)$' "$tap"
	[ "$(grep -c '^ok ' "$tap")" -eq 5 ]
	grep -qE '^\| bisect \| .* \| [0-9]+ s \| pass \| 5 \| 0 \| 0 \|  \|$' "$BATS_TEST_TMPDIR/m.md"
	[ "$(tree_state "$t"; find "$t/.git" -type f | sort | xargs sha1sum)" = "$before" ]
	grep -q ' # patch 3 of 3 (patch 3): built .* s, incremental$' "$rec"
	# a new machine: no build folder, the record alone says what built
	rm -rf "$b"
	bisect
	[ "$status" -eq 0 ]
	[ ! -e "$o/built" ]
	grep -q '^ok .* every prefix builds (0 s: 0 of 3 built by this run)$' "$tap"
	# a clone in another folder: its CC (scripts/ccache-cc) has another
	# path, and the record still holds
	c=$BATS_TEST_TMPDIR/other-clone
	mkdir -p "$c"
	git -C "$REPO" ls-files -z | tar -C "$REPO" --null -T - -cf - | tar -C "$c" -xf -
	X86H_BUILD=$b X86H_MATRIX_DOC=$BATS_TEST_TMPDIR/m.md X86H_BISECT_RECORD=$rec \
		run --separate-stderr "$c/scripts/distro" --tier matrix \
		--lines "$BATS_TEST_TMPDIR/lines" --boots "$BATS_TEST_TMPDIR/boots" --line bisect --tree "$t"
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	grep -q '^ok .* every prefix builds (0 s: 0 of 3 built by this run)$' "$tap"
	# the objects of a build that was killed go
	: >"$o/bisect.building"
	: >"$o/cut-short.o"
	bisect
	[ "$status" -eq 0 ]
	[ ! -e "$o/cut-short.o" ] && [ ! -e "$o/bisect.building" ]
	grep -q '^ok .* every prefix builds (0 s: 0 of 3 built by this run)$' "$tap"
	# another configuration of the whole series: every prefix again, each
	# with it through its own olddefconfig; the record's last line lost its
	# newline (an edit by hand), and each new key still gets a line
	printf '%s' "$(cat "$rec")" >"$rec.new" && mv "$rec.new" "$rec"
	echo CONFIG_X86_X32_ABI=y >>"$t/config"
	git -C "$t" -c user.name=t -c user.email=t@t commit -q -am "patch 4"
	bisect
	[ "$status" -eq 0 ]
	[ "$(tail -n 4 "$o/built")" = "$(printf 'p1 p1 clean\np2 p2 1\np3 p3 1\np3 p3 1')" ]
	grep -qx 'CONFIG_X86_X32_ABI=y' "$o/.config"
	grep -qx 'CONFIG_PREFIX=p3' "$o/.config"
	[ "$(grep -vc '^#' "$rec")" -eq 7 ]
	! grep -vE '^(# |[0-9a-f]{40} [0-9a-f]{32} # patch [0-9] of [34] \(patch [0-9]\): built )' "$rec"
	# a record that cannot be written fails the line before any build
	echo CONFIG_X86_X32_ABI=n >>"$t/config"
	git -C "$t" -c user.name=t -c user.email=t@t commit -q -am "patch 5"
	rec=$BATS_TEST_TMPDIR bisect
	[ "$status" -eq 1 ]
	[ "$(wc -l <"$o/built")" -eq 4 ]
	grep -q "^not ok .* $BATS_TEST_TMPDIR cannot be written (X86H_BISECT_RECORD)$" "$tap"
	git -C "$t" reset -q --hard HEAD~1
	# one run at a time
	exec 8>"$o/bisect.lock"
	flock 8
	bisect
	exec 8>&-
	[ "$status" -eq 1 ]
	grep -q "^not ok .* another run holds $o/bisect.lock" "$tap"
	X86H_BISECT_UNTIL="not a time" bisect
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"X86H_BISECT_UNTIL=not a time: not a time that date -d reads"* ]]
	# --check-until: a time already past (a time of day is today's to
	# date -d) is refused with one line, a later one or none passes, and
	# make matrix runs the check before anything else
	cp "$tap" "$tap.before"
	X86H_BUILD=$b X86H_BISECT_UNTIL="1 minute ago" run --separate-stderr "$REPO/scripts/distro" --check-until
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"X86H_BISECT_UNTIL=1 minute ago: "*" has already passed (date -d reads a time of day as today's: \"tomorrow 06:00\" is the morning after)" ]]
	X86H_BUILD=$b X86H_BISECT_UNTIL="1 minute" run "$REPO/scripts/distro" --check-until
	[ "$status" -eq 0 ] && [ -z "$output" ]
	X86H_BUILD=$b run env -u X86H_BISECT_UNTIL "$REPO/scripts/distro" --check-until
	[ "$status" -eq 0 ] && [ -z "$output" ]
	cmp "$tap" "$tap.before"
	grep -q '^	@scripts/distro --check-until && scripts/setup && ' "$REPO/Makefile"
	grep -qF '	@$(if $(filter bisect,$(LINES)),scripts/distro --check-until && )scripts/setup && ' "$REPO/Makefile"
	# the lock is the bisect line's alone: a line after it in the same
	# run (its make, a QEMU it leaves behind) does not hold it
	printf 'after x86_64 gcc defconfig - matrix build\n' >>"$BATS_TEST_TMPDIR/lines"
	X86H_BUILD=$b X86H_MATRIX_DOC=$BATS_TEST_TMPDIR/m.md X86H_BISECT_RECORD=$rec LOCKCHECK=$o/bisect.lock \
		run "$REPO/scripts/distro" --tier matrix \
		--lines "$BATS_TEST_TMPDIR/lines" --boots "$BATS_TEST_TMPDIR/boots" --line bisect --line after --tree "$t"
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	[ "$(cat "$b/distro/after/lock-seen")" = free ]
	# the repository's own record was left alone
	[ "$(md5sum <"$REPO/docs/bisect-passed" 2>/dev/null || true)" = "$tracked" ]
}

@test "distro: a boots row with an unknown line, CPU word, mode or tier is refused, naming it" {
	distro_refuses --boots "nosuch amd-guest report test" "allnoconfig amd-guest report test" "boot pentium report test" \
		"boot amd-guest warn test" "boot amd-guest report nightly"
}

@test "distro --report: the table from the results a run left; a passing line has an empty failure cell, a failed one its first failure" {
	b=$BATS_TEST_TMPDIR/build
	mkdir -p "$b/results"
	printf 'TAP version 13\n1..2\nok 1 - distro uml: .config has every option its fragments name\nok 2 - distro uml: builds (12 s, 3 modules through modpost)\n' >"$b/results/distro-uml.tap"
	printf 'TAP version 13\n1..2\nok 1 - distro allnoconfig: .config has every option its fragments name\nnot ok 2 - distro allnoconfig: build failed (see x)\n' >"$b/results/distro-allnoconfig.tap"
	doc=$BATS_TEST_TMPDIR/matrix-results.md
	X86H_BUILD=$b X86H_MATRIX_DOC=$doc run --separate-stderr "$REPO/scripts/distro" --tier matrix --report \
		--line uml --line allnoconfig --line tinyconfig
	[ "$status" -eq 1 ]
	grep -qE '^\| uml \| [0-9a-f]{12} \| [0-9-]{10} \| 12 s \| pass \| 2 \| 0 \| 0 \|  \|$' "$doc"
	# a line whose run was stopped (no TAP plan: never finished) is not a pass
	printf 'ok - distro i386: .config has every option its fragments name\n' >"$b/results/distro-i386.tap"
	X86H_BUILD=$b X86H_MATRIX_DOC=$doc run --separate-stderr "$REPO/scripts/distro" --tier matrix --report --line i386
	[ "$status" -eq 1 ]
	grep -qE '^\| i386 \| .* \| FAIL \| 1 \| 1 \| 0 \| the run stopped before this line ended \(no TAP plan in distro-i386.tap\) \|$' "$doc"
	rm "$b/results/distro-i386.tap"
	grep -qE '^\| allnoconfig \| .* \| FAIL \| 1 \| 1 \| 0 \| distro allnoconfig: build failed \(see x\) \|$' "$doc"
	! grep -q '^| tinyconfig ' "$doc"
	# a later run of one line keeps the other rows
	rm "$b/results/distro-allnoconfig.tap"
	X86H_BUILD=$b X86H_MATRIX_DOC=$doc run --separate-stderr "$REPO/scripts/distro" --tier matrix --report --line uml
	[ "$status" -eq 0 ]
	grep -q '^| allnoconfig .* FAIL ' "$doc"
	# nothing to report: one line, exit 1, the file as it was
	cp "$doc" "$doc.before"
	X86H_BUILD=$b X86H_MATRIX_DOC=$doc run --separate-stderr "$REPO/scripts/distro" --report --line tinyconfig
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"no result in $b/results for line(s) tinyconfig: run them first"* ]]
	cmp "$doc" "$doc.before"
}

@test "objdump-check: a configuration without a kernel is read from check-patches' objects, the return thunk's relocation read as ret" {
	b=$BATS_TEST_TMPDIR/build
	mkdir -p "$b/check/obj-refcount-fast/lib"
	printf 'void op_inc(int *p) { __atomic_add_fetch(p, 1, __ATOMIC_SEQ_CST); }\n' >"$BATS_TEST_TMPDIR/x.c"
	# the kernel's return thunk: in an object, a jmp whose target is a
	# relocation on the next line of objdump -dr
	gcc -O2 -mfunction-return=thunk-extern -c -o "$b/check/obj-refcount-fast/lib/x.o" "$BATS_TEST_TMPDIR/x.c"
	objdump -dr "$b/check/obj-refcount-fast/lib/x.o" | grep -q '__x86_return_thunk'
	printf 'refcount-fast op_inc path lock addl;ret\nrefcount-fast op_dec path ret\n' >"$BATS_TEST_TMPDIR/table"
	X86H_BUILD=$b run "$REPO/scripts/objdump-check" --table "$BATS_TEST_TMPDIR/table"
	[ "$status" -eq 1 ]
	grep -q '^ok 1 - objdump: refcount-fast op_inc path (check/obj-refcount-fast/lib/x.o): 2 instructions: lock addl;ret$' "$b/results/objdump.tap"
	grep -q '^not ok 2 - objdump: refcount-fast op_dec path: no op_dec in build/kunit/refcount-fast/vmlinux or build/check/obj-refcount-fast' "$b/results/objdump.tap"
}

@test "objdump-check: check-patches' object is read when the configuration's kernel is older than it" {
	b=$BATS_TEST_TMPDIR/build
	mkdir -p "$b/check/obj-refcount-fast-clang/lib" "$b/kunit/refcount-fast-clang"
	# a kernel left by an earlier series: not an ELF file, so reading it fails the row
	echo stale >"$b/kunit/refcount-fast-clang/vmlinux"
	touch -d '2 days ago' "$b/kunit/refcount-fast-clang/vmlinux"
	printf 'void op_inc(int *p) { __atomic_add_fetch(p, 1, __ATOMIC_SEQ_CST); }\n' >"$BATS_TEST_TMPDIR/x.c"
	gcc -O2 -c -o "$b/check/obj-refcount-fast-clang/lib/x.o" "$BATS_TEST_TMPDIR/x.c"
	printf 'refcount-fast-clang op_inc path lock addl;ret\n' >"$BATS_TEST_TMPDIR/table"
	X86H_BUILD=$b run "$REPO/scripts/objdump-check" --table "$BATS_TEST_TMPDIR/table"
	[ "$status" -eq 0 ]
	grep -q '^ok 1 - objdump: refcount-fast-clang op_inc path (check/obj-refcount-fast-clang/lib/x.o)' "$b/results/objdump.tap"
}

@test "check-patches: a file is built only when every folder above it is (net/ipv4/ needs CONFIG_INET)" {
	wt=$BATS_TEST_TMPDIR/wt
	mkdir -p "$wt/net/ipv4" "$wt/fs"
	printf 'obj-$(CONFIG_NET)\t+= net/\nobj-y\t\t+= fs/\n' >"$wt/Kbuild"
	printf 'obj-y\t\t\t\t:= socket.o\nobj-$(CONFIG_INET)\t\t+= ipv4/\n' >"$wt/net/Makefile"
	printf 'obj-y     := route.o \\\n\t     inetpeer.o\nobj-$(CONFIG_SYSCTL) += sysctl.o\n' >"$wt/net/ipv4/Makefile"
	printf 'obj-y := inode.o\n' >"$wt/fs/Makefile"
	eval "$(sed -n '/^obj_if_enabled()/,/^}/p' "$REPO/scripts/check-patches")"
	# as check-patches calls it: under set -euo pipefail, in a process
	# substitution (a grep without a match must not end it)
	printf 'CONFIG_NET=y\n' >"$BATS_TEST_TMPDIR/c"
	run bash -c "set -euo pipefail; wt='$wt'; $(declare -f obj_if_enabled); mapfile -t o < <(obj_if_enabled '$BATS_TEST_TMPDIR/c' fs/inode.c; obj_if_enabled '$BATS_TEST_TMPDIR/c' net/ipv4/route.c; obj_if_enabled '$BATS_TEST_TMPDIR/c' net/socket.c); echo \"\${o[*]}\""
	[ "$status" -eq 0 ]
	[ "$output" = "fs/inode.o net/socket.o" ]
	[ -z "$(obj_if_enabled "$BATS_TEST_TMPDIR/c" net/ipv4/route.c)" ]
	[ "$(obj_if_enabled "$BATS_TEST_TMPDIR/c" net/socket.c)" = net/socket.o ]
	[ "$(obj_if_enabled "$BATS_TEST_TMPDIR/c" fs/inode.c)" = fs/inode.o ]
	printf 'CONFIG_NET=y\nCONFIG_INET=y\n' >"$BATS_TEST_TMPDIR/c"
	[ "$(obj_if_enabled "$BATS_TEST_TMPDIR/c" net/ipv4/route.c)" = net/ipv4/route.o ]
	[ -z "$(obj_if_enabled "$BATS_TEST_TMPDIR/c" net/ipv4/sysctl.c)" ]
	printf 'CONFIG_INET=y\n' >"$BATS_TEST_TMPDIR/c"
	[ -z "$(obj_if_enabled "$BATS_TEST_TMPDIR/c" net/ipv4/route.c)" ]
}

@test "kunit: each line of tests/kunit/configs is built with gcc or clang, gcc unless it says clang" {
	run bash -c ". '$REPO/scripts/lib.sh'; for c in \$(kunit_config_names); do echo \"\$c \$(kunit_config_cc \$c)\"; done"
	[ "$status" -eq 0 ]
	for l in "${lines[@]}"; do
		[[ "$l" =~ ^[a-z0-9-]+\ (gcc|clang)$ ]] || { echo "bad line: $l" >&2; return 1; }
	done
	[[ "$output" == *"all gcc"* ]]
	[[ "$output" == *"refcount-fast-clang clang"* ]]
	[[ "$output" == *"func-meta-kcfi clang"* ]]
	[[ "$output" == *"func-meta-kcfi-thunks clang"* ]]
	[ "$(grep -c ' clang$' <<<"$output")" -eq 3 ]
}

@test "kunit: every line of tests/kunit/configs names its tier; make test and make matrix take the ones they say" {
	run awk '!/^#/ && NF && $4 !~ /^(test|test-amd|matrix|matrix-amd|-)$/ { print "bad tier: " $0 }' "$REPO/tests/kunit/configs"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[ "$(awk '!/^#/ && ($4 == "test" || $4 == "test-amd") { printf "%s ", $1 }' "$REPO/tests/kunit/configs")" = "all refcount-full " ]
	run make -s -C "$REPO" -p -n help
	[[ "$output" == *"MATRIX_KUNIT := refcount-kasan-fast refcount-fast-clang func-meta-kcfi func-meta-kcfi-thunks"$'\n'* ]]
	[[ "$output" == *"MATRIX_KUNIT_AMD := refcount-kasan-fast refcount-fast-clang"$'\n'* ]]
}

@test "boot qemu: --timeout and --idle need a positive number of seconds, before anything is read" {
	run --separate-stderr "$REPO/scripts/boot" qemu --tree "$BATS_TEST_TMPDIR/none" --cpu amd \
		--kernel-dir "$BATS_TEST_TMPDIR/none" --log "$BATS_TEST_TMPDIR/log" --idle 0
	[ "$status" -eq 2 ]
	[ "$stderr" = "boot qemu: --idle 0: needs a positive number of seconds" ]
	[ ! -e "$BATS_TEST_TMPDIR/log" ]
	run --separate-stderr "$REPO/scripts/boot" qemu --tree "$BATS_TEST_TMPDIR/none" --cpu amd \
		--kernel-dir "$BATS_TEST_TMPDIR/none" --log "$BATS_TEST_TMPDIR/log" --timeout -1
	[ "$status" -eq 2 ]
	[ "$stderr" = "boot qemu: --timeout -1: needs a positive number of seconds" ]
}

@test "boot qemu: --idle stops a console that goes silent, says so in LOG.qemu, and a boot that never got ready is retried once" {
	mkdir -p "$BATS_TEST_TMPDIR/bin" "$BATS_TEST_TMPDIR/k/arch/x86/boot"
	: >"$BATS_TEST_TMPDIR/k/arch/x86/boot/bzImage"
	# a "QEMU" that prints a boot line and then nothing, for ever
	printf '#!/bin/sh\necho "Linux version 6.12.117 (fake)"\nexec sleep 300\n' >"$BATS_TEST_TMPDIR/bin/qemu-system-x86_64"
	chmod +x "$BATS_TEST_TMPDIR/bin/qemu-system-x86_64"
	log=$BATS_TEST_TMPDIR/console.log
	SECONDS=0
	PATH=$BATS_TEST_TMPDIR/bin:$PATH run "$REPO/scripts/boot" qemu --tree "$DEFAULT_TREE" --cpu amd \
		--kernel-dir "$BATS_TEST_TMPDIR/k" --log "$log" --timeout 60 --idle 2
	[ "$status" -eq 124 ]
	[ "$SECONDS" -lt 30 ]
	grep -q '^Linux version 6.12.117 (fake)' "$log"
	grep -q '^boot: console silent for 2 s after [0-9]* s: stopped$' "$log.qemu"
	[ ! -e "$log.first" ]
	# the same, waiting for a line that never comes: booted twice, the
	# first console and how it ended kept
	PATH=$BATS_TEST_TMPDIR/bin:$PATH run "$REPO/scripts/boot" qemu --tree "$DEFAULT_TREE" --cpu amd \
		--kernel-dir "$BATS_TEST_TMPDIR/k" --log "$log" --timeout 60 --idle 2 --ready '^never$'
	[ "$status" -eq 124 ]
	[[ "$output" == *"the kernel stopped before it ran anything; booting it once more"* ]]
	grep -q '^Linux version' "$log.first"
	grep -q '^boot: console silent for 2 s' "$log.first.qemu"
	grep -q '^boot: console silent for 2 s' "$log.qemu"
}
