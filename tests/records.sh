# shellcheck shell=sh
# Set-up shared by the record and report tests (20-records.t,
# 21-report-reader.t, 22-report-output.t).  Source it from the
# repository root: it loads tap.sh, moves into a scratch directory
# removed on exit, and defines the wrappers those tests are written in.
# They print their plan at the end: plan "$tap_n"; done_testing.

# Absolute: the tests run in the scratch directory.
WIS=${WIS:-$PWD/out/rootfs/bin/wis}
. tests/tap.sh
# shellcheck disable=SC2034 # root is read by the tests that source this file
root=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit
emit() {
	"$WIS" emit "$@"
}

# shellcheck disable=SC2034 # rc is read by the tests that source this file
report() {	# report ARGS...: stdout to out, stderr to err, status to rc
	rc=0
	"$WIS" report "$@" >out 2>err || rc=$?
}

# CRC-32 as zlib computes it, taken from a gzip trailer.
crc() {
	printf '%s' "$1" | gzip -c | tail -c 8 | od -An -tx1 -N4 |
		awk '{ print $4 $3 $2 $1 }'
}
