#!/bin/sh
# arm64 CPU names from MIDR_EL1 (bench/base/midr.c), as the run record's
# cpu_model gives them: /proc/cpuinfo there has no "model name".
set -eu
. tests/tap.sh

plan 6

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
NAME=$tmp/midr_name
gcc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -Ibench/base \
	-o "$NAME" tests/midr_name.c "${WIS%/rootfs/bin/wis}/obj/glibc/libwis.a"

is "Ampere Altra: Neoverse N1, variant and revision" "ARM Neoverse-N1 r3p1" \
	"$("$NAME" 0x413fd0c1)"
is "Grace: Neoverse V2" "ARM Neoverse-V2 r0p0" "$("$NAME" 0x410fd4f0)"
is "AmpereOne" "Ampere AmpereOne r0p0" "$("$NAME" 0xc00fac30)"
is "Apple M1 performance core" "Apple M1 Firestorm r1p1" "$("$NAME" 0x611f0231)"
is "QEMU's max CPU under TCG, as sysfs prints it" "QEMU max r0p0" \
	"$("$NAME" 0x00000000000f0510)"
is "an unknown implementer and part keep their numbers" \
	"implementer 0x12 part 0x567 r3p8" "$("$NAME" 0x12345678)"
done_testing
