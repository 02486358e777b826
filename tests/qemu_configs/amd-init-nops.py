# SPDX-License-Identifier: GPL-2.0
# CPU word "amd-init-nops" of scripts/kunit --cpu, for kunit.py --qemu_config:
# "amd" (EPYC as bare metal) with "-- x86_nops=k8" ending the command line:
# after a lone "--" the words are init's, so the kernel keeps x86_nops=auto.
# kunit.py appends " kunit_shutdown=reboot" after this line, where init
# would get it: the line carries its own copy before the "--".
from ..qemu_config import QemuArchParams

QEMU_ARCH = QemuArchParams(linux_arch='x86_64',
			   kconfig='''
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y''',
			   qemu_arch='x86_64',
			   kernel_path='arch/x86/boot/bzImage',
			   kernel_command_line='console=ttyS0 kunit_shutdown=reboot -- x86_nops=k8',
			   extra_qemu_params=['-bios', 'qboot.rom',
					      '-cpu', 'EPYC,-hypervisor,tcg-cpuid=off', '-smp', '2'])
