/* SPDX-License-Identifier: GPL-2.0 */
/* The hypervisor a guest runs under, as its CPU says (the audit, the profiler). */
#ifndef WIS_HYPERVISOR_H
#define WIS_HYPERVISOR_H

/*
 * x86's CPUID hypervisor signature (leaf 0x40000000, "KVMKVMKVM") into
 * sig and its highest leaf; 0 when the CPU has no hypervisor bit, or is
 * no x86.  A CPU with the bit and no hypervisor leaf (QEMU's TCG with
 * tcg-cpuid=off) gives 0x40000000 and an empty sig.
 */
unsigned wis_cpuid_hypervisor(char sig[13]);

#endif
