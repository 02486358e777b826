# SPDX-License-Identifier: GPL-2.0
# CPU word "intel-la57" of scripts/kunit --cpu, for kunit.py --qemu_config:
# Skylake-Client with 5-level paging (LA57), a guest.
from ..qemu_config import QemuArchParams

QEMU_ARCH = QemuArchParams(linux_arch='x86_64',
			   kconfig='''
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y''',
			   qemu_arch='x86_64',
			   kernel_path='arch/x86/boot/bzImage',
			   kernel_command_line='console=ttyS0',
			   extra_qemu_params=['-bios', 'qboot.rom',
					      '-cpu', 'Skylake-Client,+la57', '-smp', '2'])
