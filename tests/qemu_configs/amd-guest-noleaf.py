# SPDX-License-Identifier: GPL-2.0
# CPU word "amd-guest-noleaf" of scripts/kunit --cpu, for kunit.py --qemu_config:
# EPYC as a guest without TCG's leaf: the hypervisor bit is the only sign (booted with clearcpuid=hypervisor, which must not make it bare metal).
from ..qemu_config import QemuArchParams

QEMU_ARCH = QemuArchParams(linux_arch='x86_64',
			   kconfig='''
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y''',
			   qemu_arch='x86_64',
			   kernel_path='arch/x86/boot/bzImage',
			   kernel_command_line='console=ttyS0',
			   extra_qemu_params=['-bios', 'qboot.rom',
					      '-cpu', 'EPYC,tcg-cpuid=off', '-smp', '2'])
