#!/bin/sh
# The host tests again, on the build of wis under ASan and UBSan
# (./build.sh asan, part of ./build.sh test): any finding aborts the
# process that made it, and is looked for in what every run printed.
set -eu
. tests/tap.sh

ASAN_WIS=${ASAN_WIS:-$PWD/out/asan/rootfs/bin/wis}
[ -x "$ASAN_WIS" ] || skip_all "no sanitizer build (./build.sh asan)"
ASAN_OPTIONS=abort_on_error=1:detect_leaks=1
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export ASAN_OPTIONS UBSAN_OPTIONS
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

clean() {	# clean LOG: no sanitizer report in it
	! grep -Eq 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$1"
}

# (tests/23-fuzz-reader.t runs no wis: its fuzz targets are ASan and
# UBSan builds themselves.)
tests="04-bad-input 20-records 21-report-reader 22-report-output
	17-hostile-tmp 18-hostile-barrier 19-hostile-records 29-repeats-compare
	46-hostile-paths 47-hostile-text 67-hostile-store"
plan $(($(echo "$tests" | wc -w) * 2 + 3))
# Four at a time: they wait on their samples more than they compute.
# shellcheck disable=SC2016,SC2086 # expanded by the inner shell; a word a test
printf '%s\n' $tests | WIS=$ASAN_WIS xargs -P 4 -I @ sh -c \
	'rc=0; prove "tests/$1.t" >"$2/$1.log" 2>&1 || rc=$?; echo $rc >"$2/$1.rc"' \
	sh @ "$tmp"
for t in $tests; do
	rc=$(cat "$tmp/$t.rc")
	check "$t passes under ASan+UBSan" test "$rc" = 0
	check "... with no sanitizer report" clean "$tmp/$t.log"
	[ "$rc" = 0 ] || diag "$(tail -n 20 "$tmp/$t.log")" >&2
done

# The presets sit beside the image's binary, not beside this build.
WIS_PRESETS=$PWD/rootfs/etc/wis/presets
export WIS_PRESETS
rc=0
"$ASAN_WIS" sweep wis.preset=smoke wis.mode=both wis.samples=1 \
	"wis.out=file:$tmp/smoke.wis" >"$tmp/smoke.log" 2>&1 || rc=$?
# Exit 3: points the busy machine left noisy, every test run all the same.
smoke_ran() { sweep_ok "$rc" "$tmp/smoke.wis"; }
check "every test in both modes runs under ASan+UBSan (exit $rc)" smoke_ran
check "... with no sanitizer report" clean "$tmp/smoke.log"
rc=0
"$ASAN_WIS" report "$tmp/smoke.wis" >"$tmp/report.log" 2>&1 || rc=$?
check "... and its records read back clean (exit $rc)" \
	sh -c "[ $rc = 0 ] && ! grep -Eq 'ERROR: (Address|Leak)Sanitizer|runtime error:' '$tmp/report.log'"
done_testing
