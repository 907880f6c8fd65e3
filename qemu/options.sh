# shellcheck shell=bash disable=SC2034 # the options are read in lib.sh
# Part of qemu/lib.sh (sourced by it): the runners' options, their
# usage, their checks, and --pin's CPUs for each guest's vCPUs.

# The options; the caller sets the default kernel and initrd.
opt_arch=x86_64
opt_smp=2
opt_mem=256
opt_mem_given=
opt_mem_check=1
opt_numa=1
opt_machine=
opt_accel=auto
opt_out=
opt_timeout=
opt_instances=1
opt_kernel=
opt_initrd=
kernel_name=vmlinuz
initrd_name=initramfs.cpio.zst
opt_console=
opt_barrier=
opt_pin=
opt_job=
user_words=()
# Set by a caller whose words go into a boot config (qemu/pxe), where
# only those of qemu/words.sh may.
boot_config=
pin_cpus=()

# The caller's ABOUT says what it boots and how.
usage() {
	cat <<EOF
usage: $PROG [--arch x86_64|arm64] [--smp N] [--mem MB] [--numa NODES]
       [--accel kvm|tcg|auto] [--machine q35|microvm]
       [--out DIR] [--timeout S] [--instances K] [--barrier] [--pin CPUS]
       [--kernel F] [--initrd F] [--console] [--no-mem-check]
       [--job FILE] [--] [KEY=VALUE ...]

${ABOUT:-}
KEY=VALUE words go on the kernel command line: wis.* keys choose the sweep
(wis.preset=smoke when neither wis.preset nor wis.tests is given), other
words go to the kernel (loglevel=7 undoes the default quiet).  --console
shows the guest's console, result records left out, on stderr as it runs.
--job FILE boots the sweep of an LKP will-it-scale job or a 0-day report
(its 'wis sweep --job FILE --keys --cpus N' words before the others,
which win; docs/lkp.md); a job of several sweeps needs a boot each.
--barrier gives every guest one shared memory region (ivshmem-plain over
DIR/barrier.img) and the wis.instances, wis.instance and wis.barrier keys,
so the guests release each point's tasks together (a wis.instances word
overrides K).  --pin CPUS runs the
guests on these host CPUs, split into --instances equal, disjoint parts,
each vCPU thread on one CPU of its guest's part.
--machine microvm (x86_64) boots QEMU's minimal machine: no PCI and no
firmware beyond qboot, so the guest starts sooner; given the own
kernel's uncompressed vmlinux (out/kernel/vmlinux, CONFIG_PVH), QEMU
enters it directly.  Its sinks are the virtio-serial port (virtio-mmio)
and the console: it has no pmem, NUMA nodes or --barrier.
--arch arm64 boots OUT/arm64's image on qemu-system-aarch64 -machine virt
(TCG on an x86_64 host); its sinks are virtio-serial and the console: the
aarch64 QEMU of Debian 12 (7.2) has no virtio-pmem-pci.
Defaults: --arch x86_64 --smp 2 --mem 256 --numa 1 --accel auto, DIR a new
directory under OUT/runs (OUT=$OUT).  The image's kernel needs --mem
$MEM_FLOOR_MB or more.
Memory grows to what the sweep needs ('wis sweep --dry-run --cpus N
WORDS' tells): 128 MB per task of the tests that fill 128 MB mappings,
plus 80 MB, and under KVM 512 MB per vCPU plus 10 %, so the kernel's
vm_committed_as batch exceeds one mapping.  A --mem too small for the
mappings is refused, with the size they need (--no-mem-check runs it
anyway, to see the guest run out of memory).
EOF
}

is_count() {
	case $1 in
	'' | *[!0-9]* | 0*) return 1 ;;
	esac
}

need_count() {
	is_count "$2" || die "$1: '$2' is not a positive whole number"
}

parse_options() {
	local opt
	while [ $# -gt 0 ]; do
		opt=$1
		case $opt in
		-h | --help) usage; exit 0 ;;
		--) shift; break ;;
		--console) opt_console=1; shift ;;
		--barrier) opt_barrier=1; shift ;;
		--no-mem-check) opt_mem_check=; shift ;;
		--arch | --smp | --mem | --numa | --accel | --out | --timeout | \
			--instances | --pin | --kernel | --initrd | --machine | --job)
			[ $# -ge 2 ] || die "$opt needs a value"
			set_option "$opt" "$2"
			shift 2
			;;
		-*) die "unknown option $opt (try --help)" ;;
		*) break ;;
		esac
	done
	user_words=("$@")
	set_arch
	[ -z "$opt_job" ] || job_words
	check_options
}

# --job FILE: its one sweep's wis.* words, for a guest of --smp CPUs,
# before the user's (a key given twice is the user's, as wis sweep has it).
job_words() {
	local keys given=() word
	[ -x "$WIS" ] || die "$WIS not built: it maps the job (./build.sh build)"
	keys=$("$WIS" sweep --job "$opt_job" --keys --cpus "$opt_smp" "${user_words[@]}") ||
		die "--job $opt_job: not a job wis can boot (said above)"
	[ "$(printf '%s\n' "$keys" | wc -l)" -eq 1 ] ||
		die "--job $opt_job makes $(printf '%s\n' "$keys" | wc -l) sweeps: boot each line of 'wis sweep --job $opt_job --keys --cpus $opt_smp' (-- WORDS)"
	read -r -a given <<<"$keys"
	user_words=()
	for word in "${given[@]}"; do
		user_words+=("$word")
	done
}

# What differs between the guests' architectures, in one table.
set_arch() {
	case $opt_arch in
	x86_64)
		image_dir=$OUT
		: "${opt_machine:=q35}"
		QEMU=${QEMU_X86_64:-qemu-system-x86_64}
		CONSOLE_ARGS="console=ttyS0,115200 panic=-1 quiet"
		;;
	arm64)
		[ -z "$opt_machine" ] || die "--machine: only for --arch x86_64 (arm64 boots virt)"
		opt_machine=virt
		image_dir=$OUT/arm64
		QEMU=${QEMU_AARCH64:-qemu-system-aarch64}
		CONSOLE_ARGS="console=ttyAMA0 panic=-1 quiet"
		;;
	esac
	[ -n "$opt_kernel" ] || opt_kernel=$image_dir/$kernel_name
	[ -n "$opt_initrd" ] || opt_initrd=$image_dir/$initrd_name
}

set_option() {
	case $1 in
	--smp) need_count "$1" "$2"; opt_smp=$2 ;;
	--mem) need_count "$1" "$2"; opt_mem=$2; opt_mem_given=1 ;;
	--numa) need_count "$1" "$2"; opt_numa=$2 ;;
	--timeout) need_count "$1" "$2"; opt_timeout=$2 ;;
	--instances) need_count "$1" "$2"; opt_instances=$2 ;;
	--out) opt_out=$2 ;;
	--pin) opt_pin=$2 ;;
	--job) opt_job=$2 ;;
	--kernel) opt_kernel=$2 user_kernel=1 ;;
	--initrd) opt_initrd=$2 ;;
	--arch)
		case $2 in
		x86_64 | amd64) opt_arch=x86_64 ;;
		arm64 | aarch64) opt_arch=arm64 ;;
		*) die "--arch: '$2' is not x86_64 or arm64" ;;
		esac
		;;
	--machine)
		case $2 in
		q35 | microvm) opt_machine=$2 ;;
		*) die "--machine: '$2' is not q35 or microvm" ;;
		esac
		;;
	--accel)
		case $2 in
		kvm | tcg | auto) opt_accel=$2 ;;
		*) die "--accel: '$2' is not kvm, tcg or auto" ;;
		esac
		;;
	esac
}

check_options() {
	local word why
	[ $((opt_smp % opt_numa)) -eq 0 ] ||
		die "--smp $opt_smp does not split evenly into --numa $opt_numa nodes"
	[ $((opt_mem / opt_numa)) -ge 64 ] ||
		die "--mem $opt_mem gives a node less than 64 MB"
	[ "$opt_mem" -ge "$MEM_FLOOR_MB" ] || [ -n "$user_kernel" ] ||
		die "--mem $opt_mem: the image's kernel needs at least $MEM_FLOOR_MB MB to boot"
	for word in "${user_words[@]}"; do
		case $word in
		*\"* | *$'\n'*) die "bad word '$word': quotes and newlines cannot go on a kernel command line" ;;
		=* | '') die "bad word '$word': no key" ;;
		esac
		[ -z "$boot_config" ] || ! why=$(kernel_word_refused "$word") ||
			die "bad word $why"
	done
	if [ "$opt_machine" = microvm ]; then
		[ "$opt_numa" -eq 1 ] || die "--machine microvm has no NUMA nodes (--numa $opt_numa)"
		[ -z "$opt_barrier" ] || die "--machine microvm has no PCI for the --barrier region"
	fi
	[ -z "$opt_pin" ] || parse_pin
	[ -f "$opt_kernel" ] || die "$opt_kernel: no kernel (./build.sh$(arch_opt) image, or --kernel)"
	[ -f "$opt_initrd" ] || die "$opt_initrd: no initramfs (./build.sh$(arch_opt) image, or --initrd)"
	command -v "$QEMU" >/dev/null || die "$QEMU not found (./build.sh$(arch_opt) deps)"
	[ -x "$WIS" ] || die "$WIS not built: it reads the results (./build.sh build)"
}

# The --arch words of a build.sh command for this architecture.
arch_opt() {
	[ "$opt_arch" = x86_64 ] || printf ' --arch %s\n' "$opt_arch"
}

# --pin's CPU list ("0-3,8") into pin_cpus, which --instances must divide.
parse_pin() {
	local item lo hi cpu
	local -a items
	IFS=, read -r -a items <<<"$opt_pin"
	for item in "${items[@]}"; do
		case $item in
		[0-9]*-[0-9]*) lo=${item%-*} hi=${item#*-} ;;
		[0-9]*) lo=$item hi=$item ;;
		*) die "--pin: '$opt_pin' is not a CPU list like 0-3,8" ;;
		esac
		case $lo$hi in
		*[!0-9]*) die "--pin: '$opt_pin' is not a CPU list like 0-3,8" ;;
		esac
		[ "$lo" -le "$hi" ] || die "--pin: empty range '$item'"
		for ((cpu = lo; cpu <= hi; cpu++)); do
			pin_cpus+=("$cpu")
		done
	done
	[ $((${#pin_cpus[@]} % opt_instances)) -eq 0 ] ||
		die "--pin: ${#pin_cpus[@]} CPUs do not split evenly into --instances $opt_instances"
}

# Pins vCPU thread N of the QEMU of guest DIR to the (N mod M)-th of the
# M CPUs in LIST, once QEMU has created the threads.  QEMU runs under
# timeout, so its PID is the one in its fresh pidfile.
pin_vcpus() {
	local dir=$1 pid='' task comm n pinned=0 tries
	local -a cpus
	IFS=, read -r -a cpus <<<"$2"
	for ((tries = 0; tries < 100 && pinned < opt_smp; tries++)); do
		pinned=0
		[ -n "$pid" ] || read -r pid 2>/dev/null <"$dir/qemu.pid" || true
		for task in /proc/"${pid:-none}"/task/*; do
			comm=$(cat "$task/comm" 2>/dev/null) || continue
			case $comm in
			"CPU "*/*)
				n=${comm#CPU }
				n=${n%%/*}
				taskset -pc "${cpus[n % ${#cpus[@]}]}" "${task##*/}" \
					>/dev/null && pinned=$((pinned + 1))
				;;
			esac
		done
		[ "$pinned" -ge "$opt_smp" ] || sleep 0.1
	done
	[ "$pinned" -ge "$opt_smp" ] ||
		say "$dir: pinned $pinned of $opt_smp vCPU threads"
}

# The host CPUs guest iN runs on: its share of --pin, as a list.
guest_pin() {
	local n=${1#i} per
	per=$((${#pin_cpus[@]} / opt_instances))
	local IFS=,
	printf '%s\n' "${pin_cpus[*]:$(((n - 1) * per)):$per}"
}
