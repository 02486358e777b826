# Two entry points; see README.md.
#   make run   setup, apply the series, KUnit of every feature on AMD and Intel
#   make test  everything: check-patches, both apply methods, the scripts'
#              tests, the KUnit matrix, LKDTM boots, objdump checks;
#              ends with "N passed, N failed"
.PHONY: run test setup apply check-patches maintainers export help

run:
	@scripts/test-all --run

test:
	@scripts/test-all

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
	@sed -n '2,6s/^# //p' Makefile
