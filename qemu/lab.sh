# shellcheck shell=bash
# Part of ./build.sh (sourced by it): what a lab boots, the image's
# network boot tree (OUT/pxe) and ./build.sh lava's jobs.

# The network boot tree, served as the root of a TFTP (or HTTP) server:
# the kernel, the initramfs and, for each loader, its config with the
# sweep on the kernel line.  boot.ipxe suits any iPXE; x86 BIOS boots
# pxelinux.cfg, arm64 UEFI boots grubnetaa64.efi (grub/grub.cfg).
make_pxe() {
	local pxe=$1
	mkdir -p "$pxe"
	cp "$STAGE/vmlinuz" "$STAGE/$INITRAMFS" "$pxe/"
	cat >"$pxe/boot.ipxe" <<EOF
#!ipxe
kernel vmlinuz $BOOT_ARGS
initrd $INITRAMFS
boot
EOF
	case $ARCH in
	x86_64) make_pxelinux "$pxe" ;;
	arm64) make_grub_net "$pxe" ;;
	esac
}

make_pxelinux() {
	mkdir -p "$1/pxelinux.cfg"
	cat >"$1/pxelinux.cfg/default" <<EOF
DEFAULT wis
LABEL wis
  KERNEL vmlinuz
  INITRD $INITRAMFS
  APPEND $BOOT_ARGS
EOF
}

make_grub_net() {
	local efi
	efi=$(grub_net_efi)
	[ -f "$efi" ] || die "$efi is missing: run ./build.sh${ARCH_OPT} deps"
	mkdir -p "$1/grub"
	cp "$efi" "$1/grubnetaa64.efi"
	cat >"$1/grub/grub.cfg" <<EOF
set timeout=0
menuentry wis {
	linux /vmlinuz $BOOT_ARGS
	initrd /$INITRAMFS
}
EOF
}

grub_net_efi() {
	printf '%s\n' "$OUT/deb/grub-efi-arm64-signed/$GRUB_NET_EFI"
}

# --- lava ----------------------------------------------------------------

# Room for what the sweep's own watchdog does not cover: a TCG or
# firmware boot, the last point (init waits one past the watchdog), the
# power-off.
LAVA_BOOT_S=300
LAVA_DEPLOY_S=300

# shellcheck source=qemu/words.sh
. "$ROOT/qemu/words.sh"

# A word goes inside a double-quoted -append or an iPXE line: wis.*
# keys and the allowed kernel words (qemu/words.sh) only; wis.signals is
# always lava here.
lava_check_word() {
	local why
	case $1 in
	wis.signals=*) die "lava: '$1': the jobs set wis.signals=lava" ;;
	esac
	! why=$(kernel_word_refused "$1") || die "lava: $why"
}

# The images' URL, a quoted YAML scalar: no blanks, quotes or backslashes.
lava_check_url() {
	case $1 in
	*[[:space:]\"\'\\]* | '')
		die "lava: --url '$1': blanks, quotes and backslashes cannot go in a job's URL" ;;
	esac
}

# The monitors test action of both jobs: test cases between the markers
# of wis.signals=lava.  The units group always matches, empty for a fail
# or skip case (which has no MEASUREMENT): LAVA's server keeps units in
# a column that cannot be null.
lava_monitors() {
	cat <<EOF
- test:
    timeout:
      seconds: $1
    monitors:
    - name: 'wis'
      start: '<WIS_SWEEP_START POINTS=[0-9]+>'
      end: '<WIS_SWEEP_END>'
      pattern: '<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=(?P<test_case_id>\w+) RESULT=(?P<result>pass|fail|skip)(?: MEASUREMENT=(?P<measurement>[0-9.]+) UNITS=)?(?P<units>[^ >]*)>'
EOF
}

# lava_head DEVICE_TYPE WORDS JOB_SECONDS TEST_SECONDS: the monitors
# action waits for each of its lines (the start marker after the boot,
# every point) up to the connection timeout; one sweep's worth.
lava_head() {
	cat <<EOF
# Written by ./build.sh lava; submit with: lavacli jobs submit FILE
job_name: 'wis $2'
device_type: '$1'
priority: 'medium'
visibility: 'public'
timeouts:
  job:
    seconds: $3
  action:
    seconds: $LAVA_BOOT_S
  connections:
    lava-test-monitor:
      seconds: $4
EOF
}

lava_qemu_job() {
	local base=$1 words=$2 test_s=$3
	lava_head qemu "$words" $((LAVA_DEPLOY_S + LAVA_BOOT_S + test_s)) "$test_s"
	cat <<EOF
context:
  arch: 'amd64'
actions:
- deploy:
    to: 'tmpfs'
    timeout:
      seconds: $LAVA_DEPLOY_S
    images:
      kernel:
        url: '$base/vmlinuz'
        image_arg: '-kernel {kernel} -append "console=ttyS0,115200 panic=-1 $words"'
      initrd:
        url: '$base/$INITRAMFS'
        image_arg: '-initrd {initrd}'
- boot:
    method: 'qemu'
    media: 'tmpfs'
    timeout:
      seconds: $LAVA_BOOT_S
EOF
	lava_monitors "$test_s"
}

# The kernel words go in through the device's extraargs (extra_kernel_args
# of x86.jinja2, which the server renders from the job context).
lava_ipxe_job() {
	local base=$1 words=$2 test_s=$3
	lava_head x86 "$words" $((LAVA_DEPLOY_S + 2 * LAVA_BOOT_S + test_s)) \
		"$test_s"
	cat <<EOF
context:
  extra_kernel_args: 'panic=-1 $words'
actions:
- deploy:
    to: 'tftp'
    timeout:
      seconds: $LAVA_DEPLOY_S
    kernel:
      url: '$base/vmlinuz'
    ramdisk:
      url: '$base/$INITRAMFS'
      install_modules: false
      install_overlay: false
- boot:
    method: 'ipxe'
    commands: 'ramdisk'
    timeout:
      seconds: $((2 * LAVA_BOOT_S))
EOF
	lava_monitors "$test_s"
}

lava() {
	local base=file://$OUT/pxe cpus=1 word words watchdog dir
	[ "$ARCH" = x86_64 ] || die "lava: the jobs are written for x86_64 boards"
	while [ $# -gt 0 ]; do
		case $1 in
		--url | --cpus)
			[ $# -ge 2 ] || die "lava: $1 needs a value"
			case $1 in
			--url) base=${2%/} ;;
			--cpus) cpus=$2 ;;
			esac
			shift 2
			;;
		*) break ;;
		esac
	done
	case $cpus in
	'' | *[!0-9]* | 0) die "lava: --cpus '$cpus': want a CPU count" ;;
	esac
	lava_check_url "$base"
	words=wis.signals=lava
	for word in "$@"; do
		lava_check_word "$word"
		words="$words $word"
	done
	[ -f "$OUT/MANIFEST" ] || die "lava: no image in $OUT: run ./build.sh first"
	# shellcheck disable=SC2086 # one word a key
	watchdog=$("$OUT/rootfs/bin/wis" sweep --timeout-for "$cpus" $words) ||
		die "lava: 'wis sweep --timeout-for' failed"
	dir=$OUT/lava
	mkdir -p "$dir"
	lava_qemu_job "$base" "$words" $((watchdog + LAVA_BOOT_S)) \
		>"$dir/qemu.yaml"
	lava_ipxe_job "$base" "$words" $((watchdog + LAVA_BOOT_S)) \
		>"$dir/x86-ipxe.yaml"
	note "lava: $dir/qemu.yaml and $dir/x86-ipxe.yaml, images from $base, sweep watchdog $watchdog s for $cpus CPUs"
}
