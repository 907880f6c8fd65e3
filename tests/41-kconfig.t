#!/bin/sh
# kconfig/wis.config is a valid merge_config.sh fragment, and kconfig/check
# accepts the image's kernel config and flags what a config lacks.
set -eu
cd "$(dirname "$0")/.."
. tests/tap.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run_check() {
	status=0
	kconfig/check "$1" >"$tmp/out" 2>&1 || status=$?
}

# said STATUS PATTERN: the last run_check exited with STATUS and printed a
# line matching PATTERN (with ! first: none); else its status and output
# are shown.
said() {
	if [ "$2" = ! ]; then
		[ "$status" -eq "$1" ] && ! grep -q "$3" "$tmp/out" && return
	else
		[ "$status" -eq "$1" ] && grep -q "$2" "$tmp/out" && return
	fi
	echo "exit $status: $(cat "$tmp/out")"
	return 1
}

fragment=kconfig/wis.config
options=$(sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=.*/\1/p' "$fragment")

plan 9

is "every line of the fragment is a comment or CONFIG_X=y" "" \
	"$(grep -v -e '^$' -e '^#' -e '^CONFIG_[A-Z0-9_]*=y$' "$fragment"
	   grep '^# CONFIG_' "$fragment")"

is "options appear once each" "some, none twice" \
	"${options:+some}, $(printf '%s\n' "$options" | sort | uniq -d |
		grep . || echo none) twice"

release=$(sed -n 's/^kernel-release //p' out/MANIFEST 2>/dev/null || true)
config=/boot/config-$release
if [ -z "$release" ]; then
	echo "Bail out! out/MANIFEST missing: run ./build.sh first"
	exit 1
fi
if [ -f "$config" ]; then
	run_check "$config"
	check "the image's kernel config $config passes" said 0 ! missing
	cp "$config" "$tmp/base"
else
	ok 0 "# SKIP no $config for the image's kernel"
	# A config holding every option, to edit below.
	sed -n 's/^\(CONFIG_[A-Z0-9_]*=y\)$/\1/p' "$fragment" >"$tmp/base"
fi

# edited DESC SED-SCRIPT STATUS LINE: the base config edited by the sed
# script makes check exit with STATUS and print a line starting with LINE.
edited() {
	sed "$2" "$tmp/base" >"$tmp/edited"
	run_check "$tmp/edited"
	check "$1" said "$3" "^$4"
}

edited "a missing test option warns, naming the test, exit 0" \
	'/^CONFIG_EVENTFD=/d' 0 'CONFIG_EVENTFD missing: disables eventfd1$'
edited "a missing boot option fails" \
	's/^CONFIG_DEVTMPFS=y$/# CONFIG_DEVTMPFS is not set/' 1 \
	'CONFIG_DEVTMPFS missing: cannot boot'
edited "a boot option built as a module fails" \
	's/^CONFIG_SERIAL_8250=y$/CONFIG_SERIAL_8250=m/' 1 \
	'CONFIG_SERIAL_8250=m: cannot boot'

sed 's/^CONFIG_VIRTIO_CONSOLE=.*/CONFIG_VIRTIO_CONSOLE=m/' "$tmp/base" \
	>"$tmp/console-module"
run_check "$tmp/console-module"
check "a sink option built as a module is accepted" said 0 ! VIRTIO_CONSOLE

unflagged=""
for option in $options; do
	grep -v "^$option=" "$tmp/base" >"$tmp/without"
	run_check "$tmp/without"
	grep -q "^${option}[ =]" "$tmp/out" || unflagged="$unflagged $option"
done
is "removing any one option of the fragment is reported" "" "$unflagged"

: >"$tmp/empty"
run_check "$tmp/empty"
empty_status=$status
run_check "$tmp/does-not-exist"
is "an empty or missing config file is a usage error (exit 2)" \
	"empty: exit 2, missing: exit 2" \
	"empty: exit $empty_status, missing: exit $status"

done_testing
