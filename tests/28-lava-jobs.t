#!/bin/sh
# ./build.sh lava: the two jobs carry the sweep's keys and timeouts from
# its own watchdog, pass LAVA's job schema (strict, as the server checks
# a submission), and the bare-metal iPXE job passes lava-run --validate
# against an x86 device dictionary.  The worker's tools that validation
# looks for (a TFTP server and its config, telnet, the PDU client) are
# stand-ins here, in a mount namespace of the test's own.
set -eu
cd "$(dirname "$0")/.."
. tests/tap.sh

[ -x /usr/bin/lava-run ] ||
	skip_all "lava-dispatcher not installed (./build.sh test installs it)"
[ "$(id -u)" -eq 0 ] || skip_all "lava-run runs as root"
[ -f "${OUT:-out}/vmlinuz" ] || skip_all "no image: run ./build.sh"

root=$PWD
lava=${OUT:-$root/out}/lava
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
keys='wis.tests=getppid1,open1 wis.tasks=1,2 wis.interval=200'

fails() {
	! "$@"
}

# valid_job FILE / valid_device FILE: LAVA's own schemas.
valid_job() {
	/usr/bin/python3 -c 'import sys, yaml
from lava_common.schemas import validate
validate(yaml.safe_load(open(sys.argv[1])), strict=True,
	 extra_context_variables=[])' "$1"
}
valid_device() {
	/usr/bin/python3 -c 'import sys, yaml
from lava_common.schemas.device import validate
validate(yaml.safe_load(open(sys.argv[1])))' "$1"
}

# lava_validate JOB DEVICE: lava-run --validate on a worker whose
# tftpd-hpa serves a scratch directory.
lava_validate() {
	rm -rf "$tmp/out"
	# shellcheck disable=SC2016 # expanded by the inner shell
	PATH=$tmp/bin:$PATH unshare -m sh -c \
		'd=$1; shift; mount --bind "$d/etc-default" /etc/default &&
			exec "$@"' \
		- "$tmp" lava-run --validate --job-id "$$" \
		--output-dir "$tmp/out" --device "$2" "$1" \
		>"$tmp/validate.out" 2>"$tmp/validate.log"
}
mkdir -p "$tmp/bin" "$tmp/tftp" "$tmp/etc-default"
cp -a /etc/default/. "$tmp/etc-default/"
printf 'TFTP_DIRECTORY="%s"\n' "$tmp/tftp" >"$tmp/etc-default/tftpd-hpa"
for tool in in.tftpd telnet pduclient; do
	printf '#!/bin/sh\nexit 1\n' >"$tmp/bin/$tool"
	chmod +x "$tmp/bin/$tool"
done

rc=0
# shellcheck disable=SC2086 # $keys is a list of words
./build.sh lava $keys >/dev/null 2>"$tmp/err" || rc=$?
check "./build.sh lava exits 0" test "$rc" = 0
check "the QEMU job boots the sweep's keys with wis.signals=lava" grep -qF -e \
	"-append \"console=ttyS0,115200 panic=-1 wis.signals=lava $keys\"" \
	"$lava/qemu.yaml"
check "the iPXE job gives them as the board's extra kernel arguments" \
	grep -qxF "  extra_kernel_args: 'panic=-1 wis.signals=lava $keys'" \
	"$lava/x86-ipxe.yaml"
check "images from file:// paths of the PXE tree by default" grep -qxF \
	"      url: 'file://${OUT:-$root/out}/pxe/vmlinuz'" "$lava/x86-ipxe.yaml"
# shellcheck disable=SC2086
watchdog=$("$WIS" sweep --timeout-for 1 wis.signals=lava $keys)
test_s=$(sed -n '/^- test:/,/seconds:/s/^ *seconds: //p' "$lava/qemu.yaml")
is "the monitors' timeout: the sweep's watchdog (${watchdog} s) + 300 s" \
	"$((watchdog + 300))" "$test_s"
rc=0
./build.sh lava --cpus 64 wis.tests=getppid1 wis.tasks=auto \
	wis.interval=200 >/dev/null 2>"$tmp/err" || rc=$?
big=$(sed -n '/^- test:/,/seconds:/s/^ *seconds: //p' "$lava/qemu.yaml")
rc=0
./build.sh lava --cpus 1 wis.tests=getppid1 wis.tasks=auto \
	wis.interval=200 >/dev/null 2>"$tmp/err" || rc=$?
small=$(sed -n '/^- test:/,/seconds:/s/^ *seconds: //p' "$lava/qemu.yaml")
check "more CPUs, more task counts under auto: a longer timeout ($small s, $big s)" \
	test "$big" -gt "$small"
./build.sh lava --url http://lab.example/wis/ wis.tests=getppid1 \
	>/dev/null 2>&1
check "--url BASE: images from BASE" grep -qxF \
	"        url: 'http://lab.example/wis/vmlinuz'" "$lava/qemu.yaml"
for url in '[x]' '*a' '!!binary'; do
	./build.sh lava --url "$url" wis.tests=getppid1 >/dev/null 2>&1
	check "--url '$url': a quoted YAML string" grep -qxF \
		"        url: '$url/vmlinuz'" "$lava/qemu.yaml"
done
rc=0
./build.sh lava 'wis.id=a"b' >/dev/null 2>"$tmp/err" || rc=$?
check "a word with a quote is refused, named" test "$rc" = 1 -a \
	"$(grep -c "lava: 'wis.id=a\"b': a generated boot line takes" "$tmp/err")" = 1
# Only wis.* keys and the allowed kernel words (qemu/words.sh).
# shellcheck disable=SC2016 # {kernel} and ${x} are LAVA's and iPXE's
for word in init=/bin/sh 'x={kernel}' 'wis.id=${x}'; do
	rc=0
	./build.sh lava "$word" >/dev/null 2>"$tmp/err" || rc=$?
	check "'$word' is refused, named (exit $rc)" sh -c \
		"[ $rc = 1 ] && grep -qF \"lava: '\${1%%=*}'\" '$tmp/err' ||
		 grep -qF \"lava: '\$1'\" '$tmp/err'" sh "$word"
done
./build.sh lava lsm=capability,yama wis.tests=getppid1 >/dev/null 2>&1
check "an allowed kernel word goes on the line" grep -qF \
	"wis.signals=lava lsm=capability,yama wis.tests=getppid1" \
	"$lava/qemu.yaml"

# shellcheck disable=SC2086
./build.sh lava $keys >/dev/null 2>&1
check "the QEMU job passes LAVA's job schema" valid_job "$lava/qemu.yaml"
check "the iPXE job passes LAVA's job schema" valid_job "$lava/x86-ipxe.yaml"
sed "s/commands: 'ramdisk'/commands: [ramdisk]/; s/to: 'tftp'/to: 'tftpd'/" \
	"$lava/x86-ipxe.yaml" >"$tmp/bad.yaml"
check "a broken job does not" fails valid_job "$tmp/bad.yaml"
check "the QEMU device dictionary passes LAVA's device schema" \
	valid_device tests/lava/qemu.yaml
check "the x86 device dictionary passes it" valid_device tests/lava/x86.yaml
check "lava-run --validate: the iPXE job on the x86 board" \
	lava_validate "$lava/x86-ipxe.yaml" tests/lava/x86.yaml
check "... its pipeline: a TFTP deploy, an iPXE boot, the monitors" test \
	"$(grep -c -e 'class: actions.deploy.tftp.TftpAction' \
		-e 'class: actions.boot.ipxe.BootloaderAction' \
		-e 'name: lava-test-monitor$' "$tmp/out/description.yaml")" = 3
check "lava-run --validate: not on a QEMU device" fails \
	lava_validate "$lava/x86-ipxe.yaml" tests/lava/qemu.yaml
check "... for want of a deploy method" grep -q \
	'None of the deployment strategies accepted' "$tmp/validate.log"

plan "$tap_n"
done_testing
