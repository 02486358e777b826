# Two entry points; see README.md.
#   make run   setup, apply the series, KUnit of every feature on AMD and Intel
#   make test  everything: check-patches, both apply methods, the scripts'
#              tests, the KUnit matrix, LKDTM boots, objdump checks;
#              ends with "N passed, N failed"
#   make matrix  every line of tests/distro/lines (other configurations,
#              architectures, Clang, each patch alone, Debian's config),
#              writes docs/matrix-results.md; the KUnit kernels make test
#              leaves out (KASAN, Clang); the series applied to
#              every linux-source-6.12 version apt serves; every patch
#              built on its own with every configuration of
#              check-patches (check-patches --each-patch);
#              make matrix LINES="a b": only those lines
.PHONY: run test matrix setup apply check-patches maintainers export help

run:
	@scripts/test-all --run

test:
	@scripts/test-all

# make matrix LINES="i386 uml": only those lines of tests/distro/lines (the
# other rows of docs/matrix-results.md are kept) or KUnit configurations of
# tests/kunit/configs marked matrix or matrix-amd, no apply-versions and no
# check-patches --each-patch
MATRIX_KUNIT := $(shell awk '!/^\#/ && ($$4 == "matrix" || $$4 == "matrix-amd") { print $$1 }' tests/kunit/configs)
MATRIX_KUNIT_AMD := $(shell awk '!/^\#/ && $$4 == "matrix-amd" { print $$1 }' tests/kunit/configs)
MATRIX_DISTRO := $(filter-out $(MATRIX_KUNIT),$(LINES))
# the CPU models of a matrix KUnit line: the AMD one for matrix-amd, both for matrix
kunit_cpus = $$(case " $(MATRIX_KUNIT_AMD) " in *" $$l "*) echo --cpu amd ;; esac)
# the kCFI lines of function metadata are booted once more with cfi=norand,off
# (no CFI at run time, the preambles still built), on the AMD model, and
# once per LKDTM CFI_FORWARD_PROTO* crash type on both (tests/lkdtm/runs-kcfi)
MATRIX_CFI_OFF := func-meta-kcfi func-meta-kcfi-thunks
cfi_off_boot = case " $(MATRIX_CFI_OFF) " in *" $$l "*) { scripts/kunit $$l --exec --cpu amd \
		--kernel-arg cfi=norand,off --filter 'func_meta*' || k=1; \
		scripts/lkdtm $$l --runs tests/lkdtm/runs-kcfi || k=1; } ;; esac
# scripts/distro --check-until first, when the bisect line is to run: an
# X86H_BISECT_UNTIL already past (a time of day that meant tomorrow) stops
# make matrix before anything runs
matrix:
ifeq ($(strip $(LINES)),)
	@scripts/distro --check-until && scripts/setup && scripts/apply && { scripts/apply-versions; a=$$?; scripts/check-patches --each-patch; c=$$?; \
		k=0; for l in $(MATRIX_KUNIT); do scripts/kunit $$l $(kunit_cpus) || k=1; $(cfi_off_boot); done; \
		scripts/distro --tier matrix && [ $$a -eq 0 ] && [ $$c -eq 0 ] && [ $$k -eq 0 ]; }
else
	@$(if $(filter bisect,$(LINES)),scripts/distro --check-until && )scripts/setup && scripts/apply && { k=0; \
		for l in $(filter $(MATRIX_KUNIT),$(LINES)); do scripts/kunit $$l $(kunit_cpus) || k=1; $(cfi_off_boot); done; \
		$(if $(MATRIX_DISTRO),scripts/distro --tier matrix $(foreach l,$(MATRIX_DISTRO),--line $(l)) &&) [ $$k -eq 0 ]; }
endif

setup:
	@scripts/setup

apply:
	@scripts/apply

check-patches:
	@scripts/check-patches

maintainers:
	@scripts/maintainers

export:
	@scripts/export

help:
	@sed -n '2,/^\.PHONY/s/^# //p' Makefile
