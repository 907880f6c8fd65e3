// SPDX-License-Identifier: GPL-2.0
/*
 * The floor for qemu/bench-boot: an init that powers the machine off as
 * soon as the kernel starts it, so a boot costs the kernel and nothing else.
 */
#include <sys/reboot.h>

int main(void)
{
	return reboot(RB_POWER_OFF);
}
