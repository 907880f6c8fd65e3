# shellcheck shell=bash
# Shared by qemu/run, qemu/pxe and qemu/bench-boot: options, the machine,
# the deadline, starting and reaping guests, and the report.  The caller
# sets PROG and defines boot_args INSTANCE DIR, which appends to qemu_args
# the QEMU arguments that load the guest (kernel_args, or a network boot).
# The caller names the image's files (kernel_name, initrd_name) relative
# to the image of the architecture: OUT for x86_64, OUT/arm64 for arm64,
# as build.sh writes them.  The results are read by the host's own build
# of wis, in OUT, whatever the guest's architecture.

WIS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${OUT:-$WIS_ROOT/out}
WIS=${WIS:-$OUT/rootfs/bin/wis}
PMEM_MB=16
# ivshmem wants a power of two; the barrier uses 16.25 KiB of it.
BARRIER_MB=1
# The least --mem the image's own kernel boots in (docs/qemu.md): 72 MB
# deadlocks on memory, 64 MB dies before the console.
MEM_FLOOR_MB=80
# Seconds between the TERM that stops a guest and the KILL, if it must.
KILL_AFTER_S=2

# shellcheck source-path=SCRIPTDIR source=words.sh
. "$(dirname "${BASH_SOURCE[0]}")/words.sh"

# shellcheck source-path=SCRIPTDIR source=options.sh
. "$(dirname "${BASH_SOURCE[0]}")/options.sh"

accel=
user_kernel=
image_dir=
QEMU=
CONSOLE_ARGS=
kvm_why=
run_dir=
scratch=
deadline=
qemu_args=()
guest_pids=()
guest_names=()
guest_dirs=()
guest_starts=()
guest_status=()
follower_pids=()

say() {
	printf '%s: %s\n' "$PROG" "$*" >&2
}

die() {
	say "$*"
	exit 2
}

# Said with every report of TCG guests, whose vCPUs are emulated.
TCG_BANNER="TCG: figures are functional only (emulated CPUs sharing the host's)"

# --- command line --------------------------------------------------------

# The words of one guest's command line that follow the console ones:
# no bounce buffers, the user's, a default preset, the instance label
# and, with --barrier, the barrier keys (a wis.instances of the user's
# wins: a test can wait for an instance that is never started).
# The hotplug area above 4 GiB (for virtio-pmem) makes the kernel reserve
# 64 MB of swiotlb bounce buffers that no device here needs: below
# 144 MB that starved the guest ("System is deadlocked on memory").
guest_words() {
	local instance=$1 word id='' sweep='' count=$opt_instances
	for word in "${user_words[@]}"; do
		case $word in
		wis.preset=* | wis.tests=*) sweep=1 ;;
		wis.id=*) id=${word#wis.id=} ;;
		wis.instances=*) count= ;;
		esac
	done
	printf '%s\n' swiotlb=noforce
	[ -n "$sweep" ] || printf '%s\n' wis.preset=smoke
	for word in "${user_words[@]}"; do
		case $word in
		wis.id=*) [ "$opt_instances" -gt 1 ] && continue ;;
		esac
		quote_word "$word"
	done
	[ "$opt_instances" -gt 1 ] && printf '%s\n' "wis.id=${id:-wis}-$instance"
	[ -n "$opt_barrier" ] && printf '%s\n' ${count:+"wis.instances=$count"} \
		"wis.instance=$((${instance#i} - 1))" wis.barrier=ivshmem
	return 0
}

# A value with blanks is quoted, as the kernel expects.
quote_word() {
	case $1 in
	*=*[[:space:]]*) printf '%s="%s"\n' "${1%%=*}" "${1#*=}" ;;
	*) printf '%s\n' "$1" ;;
	esac
}

# --- deadline ------------------------------------------------------------

# Seconds from start to the deadline for guests booting with WORDS: the
# watchdog wis-init derives from the same words (it kills the sweep there
# and powers off), plus one point, plus the boot, scaled when guests share
# the host's CPUs.  Past it the guest is hung.
deadline_seconds() {
	local boot=$1 watchdog load
	shift
	if [ -n "$opt_timeout" ]; then
		echo "$opt_timeout"
		return
	fi
	watchdog=$("$WIS" sweep --timeout-for "$opt_smp" "$@") ||
		die "$WIS sweep --timeout-for failed"
	load=$(((opt_instances * opt_smp + $(nproc) - 1) / $(nproc)))
	[ "$accel" = tcg ] && boot=$((boot * 3))
	echo $(((boot + watchdog) * load + 30))
}

# --- accelerator ---------------------------------------------------------

# KVM only if a guest really runs on it: /dev/kvm can open on hosts
# where vCPUs cannot be set up or never run.  The probe is a 64 KiB BIOS
# whose reset vector writes 0x31 to an isa-debug-exit port, which makes
# QEMU exit with status (0x31 << 1) | 1 = 99.
kvm_works() {
	local probe=$scratch/probe.bin status=0
	if [ ! -e /dev/kvm ]; then
		kvm_why="no /dev/kvm (no KVM module loaded, or no virtualisation extensions)"
		return 1
	fi
	if [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
		kvm_why="/dev/kvm is not readable and writable by uid $(id -u) (group kvm?)"
		return 1
	fi
	{
		head -c 65520 /dev/zero
		# mov al, 0x31; out 0xf4, al; hlt; jmp $-1
		printf '\260\061\346\364\364\353\375'
		head -c 9 /dev/zero
	} >"$probe"
	# In a subshell: a QEMU that aborts must not dump core here, nor
	# have the shell announce it.
	(
		ulimit -c 0
		timeout 10 "$QEMU" -accel kvm -cpu host -machine pc -nodefaults \
			-display none -no-reboot -bios "$probe" \
			-device isa-debug-exit,iobase=0xf4,iosize=1 \
			</dev/null >/dev/null 2>"$probe.err"
	) 2>/dev/null || status=$?
	[ "$status" -eq 99 ] && return 0
	kvm_why="a probe guest under KVM did not run (QEMU exit status $status"
	[ "$status" -ne 124 ] || kvm_why="$kvm_why, killed after 10 s"
	[ ! -s "$probe.err" ] || kvm_why="$kvm_why: $(tail -n 1 "$probe.err")"
	kvm_why="$kvm_why)"
	return 1
}

choose_accel() {
	# KVM runs a guest of the host's own architecture only.
	if [ "$opt_arch" != "$(host_arch)" ]; then
		[ "$opt_accel" != kvm ] ||
			die "--accel kvm: an $opt_arch guest does not run on KVM on this $(host_arch) host"
		accel=tcg
		return 0
	fi
	case $opt_accel in
	tcg) accel=tcg ;;
	kvm)
		kvm_works || die "--accel kvm: KVM does not run a guest here: $kvm_why"
		accel=kvm
		;;
	auto)
		accel=tcg
		if kvm_works; then
			accel=kvm
		else
			say "TCG, not KVM: $kvm_why; figures are functional only"
		fi
		;;
	esac
	tsc_words
	tcg_words
}

# An x86_64 TCG guest has no hypervisor bit (cpu_args), so its kernel
# checks that the IO-APIC timer ticks, which a slow emulated CPU on a
# busy host can fail ("IO-APIC + timer doesn't work!", a panic: 1 boot
# of 6 at load 20).  A guest with the bit skips that check; this one is
# told to.
tcg_words() {
	[ "$accel" = tcg ] && [ "$opt_arch" = x86_64 ] || return 0
	CONSOLE_ARGS="$CONSOLE_ARGS no_timer_check"
}

# A microvm guest under TCG has no HPET or PM timer to calibrate its TSC
# against (the kernel gives up and hangs waiting for a tick), nor a
# clocksource but the TSC (else jiffies, 4 ms steps under every sample).
# TCG's guest TSC is the host's, at the host's rate: the kernel is told
# that rate, and that the TSC is reliable, which its check of the TSCs'
# synchronisation between the vCPU threads cannot see under emulation.
# Each secondary CPU would time its delay loop against the tick (about
# 70 ms of TCG boot): lpj= gives the result, TSC cycles per jiffy, when
# the kernel's HZ is known from the .config beside it (./build.sh kernel).
# Without INIT's 10 ms wait, which no emulated CPU needs, the secondary
# CPUs start sooner.  The own kernel (kconfig/apic-calibrate-ms.patch)
# times its APIC timer over 20 ms of that known TSC instead of 100.
tsc_words() {
	local khz hz dir
	[ "$opt_machine" = microvm ] && [ "$accel" = tcg ] || return 0
	cc -O2 -Wall -Wextra -Werror -o "$scratch/tsc-khz" \
		"$WIS_ROOT/qemu/tsc-khz.c" || die "cannot build qemu/tsc-khz.c"
	khz=$("$scratch/tsc-khz")
	CONSOLE_ARGS="$CONSOLE_ARGS tsc_early_khz=$khz tsc=reliable cpu_init_udelay=0"
	dir=$(dirname "$opt_kernel")
	hz=$(sed -n 's/^CONFIG_HZ=\([1-9][0-9]*\)$/\1/p' "$dir/config" 2>/dev/null) || true
	[ -z "$hz" ] || CONSOLE_ARGS="$CONSOLE_ARGS lpj=$((khz * 1000 / hz))"
	! grep -qs '^kernel-build .* patches \(.*,\)\{0,1\}apic-calibrate-ms\(,\|$\)' "$dir/build" ||
		CONSOLE_ARGS="$CONSOLE_ARGS apic_calibrate_ms=20"
}

# --- memory --------------------------------------------------------------

# Size the guests' memory for the sweep of WORDS (wis sweep --mem-for):
# what its 128 MB mappings hold at its largest task count, and under KVM
# a vm_committed_as batch above one mapping (under TCG figures are
# functional only).  The default grows to that; a --mem given below what
# the mappings hold is refused, below the batch it is warned about.
size_memory() {
	local resident batch need
	read -r resident batch < <("$WIS" sweep --mem-for "$opt_smp" "$@") ||
		die "$WIS sweep --mem-for failed"
	need=$resident
	[ "$accel" != kvm ] || [ "$batch" -le "$need" ] || need=$batch
	if [ -z "$opt_mem_given" ]; then
		[ "$need" -gt "$opt_mem" ] || return 0
		opt_mem=$need
		say "--mem $opt_mem: what the sweep needs at --smp $opt_smp (wis sweep --dry-run --cpus $opt_smp tells why)"
		return 0
	fi
	[ "$opt_mem" -ge "$resident" ] || [ -z "$opt_mem_check" ] ||
		die "--mem $opt_mem cannot hold the sweep: it needs --mem $resident or more (128 MB per task of its mapping tests at --smp $opt_smp, plus 80 MB; wis sweep --dry-run --cpus $opt_smp)"
	[ "$accel" != kvm ] || [ "$opt_mem" -ge "$batch" ] ||
		say "warning: --mem $opt_mem: below $batch MB the vm_committed_as batch of $opt_smp vCPUs is under one 128 MB mapping and the sweep's tests that map one serialise on its lock (wis sweep --dry-run --cpus $opt_smp names them); give --mem $batch"
}

# --- machine -------------------------------------------------------------

host_arch() {
	case $(uname -m) in
	aarch64) echo arm64 ;;
	*) uname -m ;;
	esac
}

# A value inside a QEMU option list: commas are doubled.
qemu_escape() {
	printf '%s\n' "${1//,/,,}"
}

# Whether the machine has the virtio-pmem sink: q35 (Debian 12's
# aarch64 QEMU has no virtio-pmem-pci, microvm no memory hotplug).
has_pmem() {
	[ "$opt_machine" = q35 ]
}

# QEMU arguments common to every guest, for DIR, into qemu_args.
machine_args() {
	local dir=$1
	local -a a
	# debug-threads names the vCPU threads "CPU N/KVM" for --pin.
	a=(-nodefaults -no-reboot -display none -name "wis,debug-threads=on")
	local serial=virtio-serial-pci
	case $opt_machine in
	q35)
		# q35: its PCIe interrupt routing spares the guest the slow
		# ACPI _PRT evaluation that i440fx ("pc") costs each virtio
		# device at probe time (0.25 s of module loading under TCG).
		a+=(-machine q35)
		;;
	microvm)
		# The PIT and PIC: without them the kernel cannot calibrate
		# the TSC under TCG and waits for a tick that never comes.
		a+=(-machine "microvm,pit=on,pic=on,rtc=on")
		serial=virtio-serial-device
		;;
	virt)
		# GICv3: GICv2 stops at 8 CPUs.
		a+=(-machine "virt,gic-version=3")
		;;
	esac
	cpu_args
	memory_args
	a+=(-chardev "file,id=console,path=$(qemu_escape "$dir/console.log")"
		-serial chardev:console
		-device "$serial"
		-chardev "file,id=results,path=$(qemu_escape "$dir/virtio.wis")"
		-device "virtserialport,chardev=results,name=wis.results")
	! has_pmem ||
		a+=(-object "memory-backend-file,id=pmem,share=on,mem-path=$(qemu_escape "$dir/pmem.img"),size=${PMEM_MB}M"
			-device "virtio-pmem-pci,memdev=pmem,id=pmem0")
	a+=(-pidfile "$dir/qemu.pid")
	if [ -n "$opt_barrier" ]; then
		a+=(-object "memory-backend-file,id=barrier,share=on,mem-path=$(qemu_escape "$run_dir/barrier.img"),size=${BARRIER_MB}M"
			-device "ivshmem-plain,memdev=barrier")
	fi
	qemu_args=("${a[@]}")
}

# The CPU model, onto machine_args' a: the host's under KVM; under TCG
# "max", on arm64 with QEMU's own pointer-authentication algorithm,
# which emulates far faster than the architected QARMA, on x86_64
# without the hypervisor bit: with it and no paravirt spinlocks (TCG has
# none) the guest kernel takes contended spinlocks through
# virt_spin_lock(), before the contention tracepoint, and wis.profile=lock
# could count no spinlock (docs/profiling.md).
cpu_args() {
	if [ "$accel" = kvm ]; then
		a+=(-accel kvm -cpu host)
	elif [ "$opt_arch" = arm64 ]; then
		a+=(-accel tcg -cpu "max,pauth-impdef=on")
	else
		a+=(-accel tcg -cpu "max,hypervisor=off")
	fi
}

# The CPUs, memory and NUMA nodes, onto machine_args' a: --mem split
# evenly, the last node taking the rest.  A node is a socket on x86_64;
# on arm64 a cluster of one socket, as on the many-core ARM servers whose
# one package holds several nodes (the seed's 128-core machine).
memory_args() {
	local node per_node last_node where=socket-id=
	local per=$((opt_smp / opt_numa))
	if [ "$opt_arch" = x86_64 ]; then
		a+=(-smp "$opt_smp,sockets=$opt_numa,cores=$per,threads=1")
	else
		a+=(-smp "$opt_smp,sockets=1,clusters=$opt_numa,cores=$per,threads=1")
		where=socket-id=0,cluster-id=
	fi
	if has_pmem; then
		# virtio-pmem plugs into the hotplug area: one slot, room for it.
		a+=(-m "${opt_mem}M,slots=1,maxmem=$((opt_mem + PMEM_MB))M")
	else
		a+=(-m "${opt_mem}M")
	fi
	[ "$opt_numa" -gt 1 ] || return 0
	per_node=$((opt_mem / opt_numa))
	last_node=$((opt_mem - per_node * (opt_numa - 1)))
	for ((node = 0; node < opt_numa; node++)); do
		[ "$node" -eq $((opt_numa - 1)) ] && per_node=$last_node
		a+=(-object "memory-backend-ram,id=node$node,size=${per_node}M"
			-numa "node,nodeid=$node,memdev=node$node"
			-numa "cpu,node-id=$node,$where$node")
	done
}

# -kernel, -initrd and the command line of one guest, into qemu_args.
kernel_args() {
	local line
	line="$CONSOLE_ARGS $(guest_words "$1" | tr '\n' ' ')"
	qemu_args+=(-kernel "$opt_kernel" -initrd "$opt_initrd"
		-append "${line% }")
}

# --- guests --------------------------------------------------------------

make_run_dir() {
	if [ -n "$opt_out" ]; then
		mkdir -p "$opt_out" || die "cannot create $opt_out"
		run_dir=$(cd "$opt_out" && pwd)
		return
	fi
	mkdir -p "$OUT/runs" || die "cannot create $OUT/runs"
	run_dir=$(mktemp -d "$OUT/runs/$(date +%Y%m%d-%H%M%S).XXXX") ||
		die "cannot create a directory under $OUT/runs"
}

# Fresh result files for one guest; a previous run's would merge in.
prepare_guest_dir() {
	local dir=$1
	mkdir -p "$dir"
	rm -f "$dir/console.log" "$dir/virtio.wis" "$dir/pmem.img" \
		"$dir/qemu.log" "$dir/qemu.pid" "$dir/qemu.cmd"
	! has_pmem || truncate -s "${PMEM_MB}M" "$dir/pmem.img"
}

start_guest() {
	local instance=$1 dir=$2
	prepare_guest_dir "$dir"
	machine_args "$dir"
	boot_args "$instance" "$dir"
	local -a cmd=("$QEMU" "${qemu_args[@]}")
	[ -n "$opt_pin" ] && cmd=(taskset -c "$(guest_pin "$instance")" "${cmd[@]}")
	printf '%q ' "${cmd[@]}" >"$dir/qemu.cmd"
	echo >>"$dir/qemu.cmd"
	# Microseconds, taken as QEMU starts (qemu/bench-boot times from it).
	guest_starts+=("${EPOCHREALTIME/./}")
	supervised "${cmd[@]}" </dev/null >"$dir/qemu.log" 2>&1 &
	guest_pids+=("$!")
	[ -n "$opt_pin" ] && pin_vcpus "$dir" "$(guest_pin "$instance")"
	guest_names+=("$instance")
	guest_dirs+=("$dir")
	if [ -n "$opt_console" ]; then
		follow_console "$instance" "$dir" "$!"
	fi
}

# Copies the console to stderr while QEMU (PID) runs, without the
# records; lines carry the instance name when there are several.
follow_console() {
	local prefix=
	[ "$opt_instances" -gt 1 ] && prefix="$1| "
	touch "$2/console.log"
	tail -n +1 --pid="$3" -f "$2/console.log" 2>/dev/null |
		grep --line-buffered -v '^WIS1 ' |
		sed -u "s/^/$prefix/" >&2 &
	follower_pids+=("$!")
}

# Runs COMMAND under timeout(1): TERM at the deadline, KILL KILL_AFTER_S
# later.  timeout puts itself in a process group of its own, so a Ctrl-C
# reaches the guests only through on_signal.  Parent-death signals cover
# a runner killed outright: timeout then gets TERM and stops the guest as
# at the deadline, and QEMU gets KILL should timeout itself die.
supervised() {
	exec setpriv --pdeathsig TERM \
		timeout --kill-after="$KILL_AFTER_S" "$deadline" \
		setpriv --pdeathsig KILL "$@"
}

on_signal() {
	trap - INT TERM HUP
	say "$1: stopping the guests"
	# timeout passes the TERM on, and KILLs what is left KILL_AFTER_S later.
	kill -TERM "${guest_pids[@]}" 2>/dev/null || true
	wait 2>/dev/null
	exit $((128 + $(kill -l "$1")))
}

cleanup() {
	[ -n "$scratch" ] && rm -rf "$scratch"
	return 0
}

# A runner killed outright leaves its scratch directory, named after its
# PID: remove those whose runner is gone.
remove_stale_scratch() {
	local dir pid
	for dir in "$1"/wis-qemu.*; do
		pid=${dir##*/wis-qemu.}
		pid=${pid%%.*}
		is_count "$pid" || continue
		[ -d "/proc/$pid" ] || rm -rf "$dir"
	done
}

setup_traps() {
	local base=${TMPDIR:-/tmp}
	remove_stale_scratch "$base"
	scratch=$(mktemp -d "$base/wis-qemu.$$.XXXXXX") ||
		die "cannot create a temporary directory"
	trap cleanup EXIT
	trap 'on_signal INT' INT
	trap 'on_signal TERM' TERM
	trap 'on_signal HUP' HUP
}

# Whether timeout stopped guest I at the deadline: its status is 124 when
# TERM was enough, 137 when it took a KILL (as when QEMU is killed by
# anyone else, so the time tells them apart).
timed_out() {
	local i=$1 status=$2
	[ "$status" -eq 124 ] ||
		{ [ "$status" -eq 137 ] &&
			[ $((${EPOCHREALTIME/./} - guest_starts[i])) -ge \
				$((deadline * 1000000)) ]; }
}

# Waits for every guest; sets guest_status[i] to QEMU's exit status, or
# "killed" when it was stopped at the deadline.
wait_guests() {
	local i status
	for i in "${!guest_pids[@]}"; do
		[ -z "${guest_status[$i]:-}" ] || continue
		status=0
		wait "${guest_pids[$i]}" || status=$?
		if timed_out "$i" "$status"; then
			say "guest ${guest_names[$i]} still running at the ${deadline} s deadline: killed"
			status=killed
		fi
		guest_status[i]=$status
	done
	# The followers end within a second of their QEMU.
	for i in "${!follower_pids[@]}"; do
		wait "${follower_pids[$i]}" 2>/dev/null || true
	done
	follower_pids=()
}

# The files a guest in DIR writes its records to, one a line.
result_files() {
	printf '%s\n' "$1/virtio.wis"
	! has_pmem || printf '%s\n' "$1/pmem.img"
	printf '%s\n' "$1/console.log"
}

# Whether any of the guest's files holds an end record.
has_end() {
	local json
	local -a files
	mapfile -t files < <(result_files "$1")
	json=$("$WIS" report --json "${files[@]}" 2>/dev/null) || true
	[[ $json == *'"type":"end"'* ]]
}

# What the console of a guest that wrote no end record says: its kernel
# panic and the lines before it, or else its last lines.
console_story() {
	local name=$1 log=$2 lines
	lines=$(grep -av '^WIS1 ' "$log" | tr -d '\r' | grep -a -B6 -m1 'Kernel panic') ||
		lines=$(grep -av '^WIS1 ' "$log" | tr -d '\r' | tail -n 10) ||
		true
	if [ -z "$lines" ]; then
		say "guest $name wrote no end record, and nothing on its console"
		return 0
	fi
	say "guest $name wrote no end record; its console ends:"
	printf '%s\n' "$lines" | sed "s/^/  $name| /" >&2
}

# wis report of each guest's files; the exit status is the worst one.
report_guests() {
	local i dir status worst=0 rc
	local -a files
	for i in "${!guest_dirs[@]}"; do
		dir=${guest_dirs[$i]}
		status=${guest_status[$i]}
		if [ "${#guest_dirs[@]}" -gt 1 ]; then
			printf '== %s\n' "${guest_names[$i]}"
		fi
		if [ "$status" != killed ] && [ "$status" -ne 0 ]; then
			say "guest ${guest_names[$i]}: qemu exited with status $status: $(tail -n 1 "$dir/qemu.log")"
		fi
		rc=0
		mapfile -t files < <(result_files "$dir")
		[ "$accel" != tcg ] || printf '%s\n' "$TCG_BANNER"
		"$WIS" report "${files[@]}" || rc=$?
		has_end "$dir" || console_story "${guest_names[$i]}" "$dir/console.log"
		if [ "$rc" -eq 0 ] && [ "$status" != 0 ]; then
			rc=1
		fi
		if [ "$rc" -gt "$worst" ]; then
			worst=$rc
		fi
	done
	return "$worst"
}

# The whole run: DIR, accelerator, deadline, guests, report.
run_guests() {
	local boot_s=$1 i dir
	local -a words
	setup_traps
	choose_accel
	mapfile -t words < <(guest_words i1)
	size_memory "${words[@]}"
	make_run_dir
	deadline=$(deadline_seconds "$boot_s" "${words[@]}")
	say "results in $run_dir ($accel, $opt_instances guest(s), deadline ${deadline} s)"
	if [ -n "$opt_barrier" ]; then
		# A fresh region: an earlier run's campaign would cost 5 s.
		rm -f "$run_dir/barrier.img"
		truncate -s "${BARRIER_MB}M" "$run_dir/barrier.img"
	fi
	for ((i = 1; i <= opt_instances; i++)); do
		dir=$run_dir
		[ "$opt_instances" -gt 1 ] && dir=$run_dir/i$i
		start_guest "i$i" "$dir"
	done
	wait_guests
	report_guests
}
