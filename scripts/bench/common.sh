# shellcheck shell=bash
# Shared by the benchmark scripts in this folder (sourced after lib.sh):
# the kernel's code generation flags for a userspace harness, and the
# mnemonics of a function's fast path as objdump -d shows them.

# From the kernel's own command line for lib/refcount.o (x86_64), less what
# only works in the kernel (-mcmodel=kernel, return/indirect thunks,
# -fpatchable-function-entry, the stack protector's kernel guard).
KFLAGS=(-O2 -std=gnu11 -fno-strict-aliasing -fno-strict-overflow -fno-delete-null-pointer-checks
	-fno-common -funsigned-char -fno-PIE -fno-jump-tables -mno-sse -mno-mmx -mno-sse2 -mno-3dnow
	-mno-avx -mno-80387 -mno-fp-ret-in-387 -mpreferred-stack-boundary=3 -mskip-rax-setup
	-mtune=generic -mno-red-zone -falign-jumps=1 -falign-loops=1 -falign-functions=16
	-fno-asynchronous-unwind-tables -fcf-protection=branch -fno-stack-protector
	-fomit-frame-pointer -fno-allow-store-data-races -ftrivial-auto-var-init=zero
	-fno-stack-clash-protection -fconserve-stack)

# Mnemonics from a function's entry to its first return, one a line; the
# return itself is printed as "ret".  Prefixes the compiler adds for the
# kernel's mitigations (cs, notrack) are dropped, lock/rep are kept.  The
# binary is a vmlinux or an object file: in an object the jump to the
# return thunk is a relocation (objdump -dr prints it on the next line),
# which is joined to its instruction.
fastpath() { # binary function
	objdump -dr --no-show-raw-insn --disassemble="$2" "$1" 2>/dev/null | awk '
		/^\t+[0-9a-f]+: R_X86_64_/ { gsub(/\t/, " "); prev = prev $0; next }
		{ if (NR > 1) print prev; prev = $0 }
		END { if (NR) print prev }' | awk -F'\t' -v fn="$2" '
		$0 ~ "^[0-9a-f]+ <" fn ">:$" { if (seen) exit; seen = 1; next }
		!seen || NF < 2 || $1 !~ /^ *[0-9a-f]+:$/ { next }
		{
			ins = $2; gsub(/^ +| +$/, "", ins)
			if (ins ~ /^(nop|xchg +%ax,%ax|int3|endbr64|data16|cs nop)/ || ins ~ /__fentry__/)
				next
			if (ins ~ /^(rep[z]? )?ret/ || (ins ~ /^(cs )?jmp/ && ins ~ /return_thunk/)) {
				print "ret"; exit
			}
			n = split(ins, w, / +/); k = 1; m = w[1]
			while ((m == "cs" || m == "ds" || m == "notrack" || m == "bnd") && k < n)
				m = w[++k]
			if (m == "lock" || m ~ /^rep/)
				m = m " " w[k + 1]
			print m
		}'
}


# cpu_desc: the CPU as /proc/cpuinfo names it, with family, model and
# stepping (a model name such as "AMD EPYC" covers several
# microarchitectures, whose ratios differ) and whether a hypervisor bit
# is set, e.g. "AMD EPYC (family 0x19, model 0x11, stepping 0; guest)".
cpu_desc() {
	awk -F': *' '
		$1 ~ /^model name/ && name == "" { name = $2 }
		$1 ~ /^cpu family/ && fam == "" { fam = $2 }
		$1 ~ /^model[ \t]*$/ && mod == "" { mod = $2 }
		$1 ~ /^stepping/ && st == "" { st = $2 }
		$1 ~ /^flags/ && fl == "" { fl = " " $2 " " }
		END {
			printf "%s (family 0x%x, model 0x%x, stepping %s; %s)\n", name, fam, mod, st,
				index(fl, " hypervisor ") ? "guest" : "no hypervisor bit"
		}' /proc/cpuinfo
}
