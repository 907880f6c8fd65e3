#!/bin/sh
# The barrier region is untrusted input: anyone who can write the file or
# the shared memory can put anything there.  Forged regions (strings
# without a NUL, an insane instance count, a label that forges LAVA and
# KTAP lines, a campaign whose creator died before joining it) and
# targets that share nothing (/dev/zero) give a named error or a fresh
# campaign, never an overread, a forged console line or a hang.
set -eu
. tests/tap.sh

command -v perl >/dev/null || skip_all "no perl"
WIS_PRESETS=$PWD/rootfs/etc/wis/presets
export WIS_PRESETS
tmp=$(mktemp -d)
ticker=
cleanup() {
	[ -z "$ticker" ] || kill "$ticker" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
sweep="wis.tests=getppid1 wis.tasks=1 wis.samples=1 wis.warmup=0 wis.interval=100"

# region FILE SIZE INSTANCES CREATOR [SLOT0-LABEL]: a region in the
# layout of bench/barrier.c, campaign tag 0x1234 open; with a slot-0
# label, slot 0 has joined that campaign.  Strings fill their 64 bytes,
# no NUL.
region() {
	perl -e '
		my ($file, $size, $k, $creator, $label) = @ARGV;
		my $fill = sub { substr($_[0] x 64, 0, 64) };
		my $r = "\0" x $size;
		substr($r, 0, 96) = pack("a8 V V Q< Q< a64", "UWISBAR1", 1,
			$k, (0x1234 << 32) | 2, 7, $fill->($creator));
		substr($r, 256, 96) = pack("Q< Q< Q< Q< a64", 0x1234 << 32,
			1, 7, 0, $fill->($label)) if defined $label;
		open(my $f, ">", $file) or die;
		print $f $r;
	' "$@"
}

# A peer whose heartbeat moves: slot 0's counter, ticked in the file.
tick() {
	perl -e '
		open(my $f, "+<", $ARGV[0]) or die;
		for (my $n = 2; ; $n++) {
			sysseek($f, 264, 0);
			syswrite($f, pack("Q<", $n));
			select(undef, undef, undef, 0.02);
		}
	' "$1" &
	ticker=$!
}

sweep_in() {	# sweep_in NAME KEY=VALUE...: output in NAME.out, status rc
	name=$1
	shift
	rc=0
	# shellcheck disable=SC2086 # $sweep is a list of keys
	"$WIS" sweep $sweep "$@" >"$tmp/$name.out" 2>&1 || rc=$?
}

# The issue's region: 20480 bytes, strings without NUL, K=0.
region "$tmp/big" 20480 0 A A
cp "$tmp/big" "$tmp/big.orig"
sweep_in big "wis.barrier=file:$tmp/big" wis.out=console
check "a 20480-byte region: refused as no barrier file (exit $rc)" sh -c \
	"[ $rc = 2 ] && grep -q 'not a barrier file' '$tmp/big.out'"
check "... and left as it was" cmp -s "$tmp/big" "$tmp/big.orig"

# The same at the region's size: no NUL anywhere, K=0.
region "$tmp/k0" 16640 0 A A
sweep_in k0 "wis.barrier=file:$tmp/k0" "wis.out=file:$tmp/k0.wis"
check "strings without NUL, K=0: replaced by a fresh campaign (exit $rc)" \
	sweep_ok "$rc" "$tmp/k0.wis"

# A live peer whose label forges a LAVA test case and a KTAP result.
forged="$(printf '\n<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=x RESULT=pass>\nok 1 x\n')"
region "$tmp/forge" 16640 1 "$forged" "$forged"
tick "$tmp/forge"
sweep_in forge wis.instances=2 wis.instance=1 "wis.barrier=file:$tmp/forge" \
	wis.barrier_timeout=10 wis.signals=lava wis.out=console
kill "$ticker"
ticker=
check "a forging label: the campaign refused, named (exit $rc)" sh -c \
	"[ $rc != 0 ] && grep -q 'wis.instances: this instance says 2' '$tmp/forge.out'"
check "... no forged LAVA test case on the console" sh -c \
	"! grep -q '<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=x' '$tmp/forge.out'"
check "... no forged KTAP line" sh -c "! grep -qx 'ok 1 x' '$tmp/forge.out'"
check "... the label shown cleaned and bounded" grep -q \
	"started by '?.LAVA_SIGNAL_TESTCASE TEST_CASE_ID=x RESULT=pass??ok 1 x?" \
	"$tmp/forge.out"

# A creator killed between making the campaign (K=1) and joining it:
# both instances of K=2 replace it and meet.
region "$tmp/half" 16640 1 killed
rc0=0 rc1=0
# shellcheck disable=SC2086 # $sweep is a list of keys
"$WIS" sweep $sweep wis.instances=2 wis.instance=1 \
	"wis.barrier=file:$tmp/half" wis.barrier_timeout=30 \
	"wis.out=file:$tmp/half1.wis" >"$tmp/half1.out" 2>&1 &
one=$!
sleep 1
# shellcheck disable=SC2086
"$WIS" sweep $sweep wis.instances=2 wis.instance=0 \
	"wis.barrier=file:$tmp/half" wis.barrier_timeout=30 \
	"wis.out=file:$tmp/half0.wis" >"$tmp/half0.out" 2>&1 || rc0=$?
wait "$one" || rc1=$?
# Exit 3 is a point a busy machine left noisy, after both instances met.
both_ran() { sweep_ok "$rc0" "$tmp/half0.wis" && sweep_ok "$rc1" "$tmp/half1.wis"; }
check "a half-made campaign: replaced, both instances ran (exit $rc0 $rc1)" both_ran
campaign() {
	grep -o '"barrier_campaign":"[0-9a-f]*"' "$1" | head -n 1
}
check "... in one fresh campaign" sh -c \
	"[ '$(campaign "$tmp/half0.wis")' = '$(campaign "$tmp/half1.wis")' ] &&
	 ! grep -q '00001234' '$tmp/half0.wis'"

# Targets that share nothing, or would be misaligned.
sweep_in zero1 wis.barrier=pmem:/dev/zero:1 wis.out=console
check "pmem:/dev/zero:1: refused, misaligned (exit $rc)" sh -c \
	"[ $rc = 2 ] && grep -q 'offset 1 is not a multiple of 256' '$tmp/zero1.out'"
sweep_in zero wis.barrier=pmem:/dev/zero wis.out=console
check "pmem:/dev/zero: refused, no device-dax (exit $rc)" sh -c \
	"[ $rc = 2 ] && grep -q 'want a device-dax character device' '$tmp/zero.out'"

plan "$tap_n"
done_testing
