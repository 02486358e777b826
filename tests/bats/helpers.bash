# shellcheck shell=bash
# Shared by tests/bats/*.bats.  The tests run the scripts against small git trees
# made from the default tree (the base versions of the files the series
# touches, plus what the scripts look for to recognise a 6.12 tree), so
# that each case gets a fresh tree (a copy of the file's first) in well
# under a second.

REPO=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
PROG=bats
. "$REPO/scripts/lib.sh"
DEFAULT_TREE=$(default_tree)

# The files the series touches that exist in the base tree.
base_files() {
	local f
	while read -r f; do
		git -C "$DEFAULT_TREE" cat-file -e "$BASE_TAG:$f" 2>/dev/null && echo "$f"
	done < <(sed -n 's|^--- a/||p' "$REPO"/patches/*.patch | sort -u)
}

# make_tree DIR: a committed mini 6.12 tree on branch main.  The first
# call in a .bats file builds it from the default tree (git archive, a few
# seconds on two CPUs); the others copy that one, identical to the byte
# and to the commit.
make_tree() {
	local d=$1 t=$BATS_FILE_TMPDIR/tree-template
	mkdir -p "$d"
	if [ -d "$t" ]; then
		cp -a "$t/." "$d/"
		# new inodes: let the index see the files as unchanged
		git -C "$d" update-index -q --refresh >/dev/null || true
		return
	fi
	git -C "$DEFAULT_TREE" archive "$BASE_TAG" .gitattributes Makefile arch/x86/Kconfig scripts/checkpatch.pl \
		$(base_files) | tar -x -C "$d"
	git -C "$d" init -q -b main
	git -C "$d" add -A
	git -C "$d" -c user.name=t -c user.email=t@t commit -q -m base
	git -C "$d" config user.name t
	git -C "$d" config user.email t@t
	cp -a "$d" "$t"
}

# Everything a user could see change: HEAD, the checked-out branch, all
# branches, status (ignored files too), quilt state, and every file's bytes.
tree_state() {
	local d=$1
	(
		cd "$d"
		git rev-parse HEAD
		git symbolic-ref -q HEAD || echo detached
		git for-each-ref --format='%(refname) %(objectname)' refs/heads
		git status --porcelain --ignored
		ls -a
		find . -path ./.git -prune -o -type f -print0 | sort -z | xargs -0 sha1sum
	)
}

# Commit a change to FILE that conflicts with the series, replacing the
# first line matching PATTERN by itself with a marker appended.
break_tree() {
	local d=$1 file=$2 pattern=$3
	sed -i "0,/$pattern/s//& \/* local change *\//" "$d/$file"
	git -C "$d" commit -q -am "local change"
}

one_line() {
	[ "${#lines[@]}" -eq 1 ] || {
		echo "expected one line, got ${#lines[@]}:" >&2
		printf '%s\n' "${lines[@]}" >&2
		return 1
	}
}
