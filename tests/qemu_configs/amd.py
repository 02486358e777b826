# SPDX-License-Identifier: GPL-2.0
# CPU word "amd" of scripts/kunit --cpu, for kunit.py --qemu_config:
# QEMU's EPYC as bare metal: no hypervisor bit (CPUID.1:ECX[31]) and no TCG leaf 0x40000000, so X86_BUG_SYSRET_CANON_RCX is clear.
from ..qemu_config import QemuArchParams

QEMU_ARCH = QemuArchParams(linux_arch='x86_64',
			   kconfig='''
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y''',
			   qemu_arch='x86_64',
			   kernel_path='arch/x86/boot/bzImage',
			   kernel_command_line='console=ttyS0',
			   extra_qemu_params=['-bios', 'qboot.rom',
					      '-cpu', 'EPYC,-hypervisor,tcg-cpuid=off', '-smp', '2'])
