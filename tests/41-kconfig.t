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

fragment=kconfig/wis.config
options=$(sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=.*/\1/p' "$fragment")

plan 9

bad=$(grep -v -e '^$' -e '^#' -e '^CONFIG_[A-Z0-9_]*=y$' "$fragment" || true)
if [ -z "$bad" ] && ! grep -q '^# CONFIG_' "$fragment"; then
	ok 0 "every line of the fragment is a comment or CONFIG_X=y"
else
	ok 1 "every line of the fragment is a comment or CONFIG_X=y"
	diag "$bad"
fi

dups=$(printf '%s\n' "$options" | sort | uniq -d)
if [ -z "$dups" ] && [ -n "$options" ]; then
	ok 0 "options appear once each"
else
	ok 1 "options appear once each"
	diag "$dups"
fi

release=$(sed -n 's/^kernel-release //p' out/MANIFEST 2>/dev/null || true)
config=/boot/config-$release
if [ -z "$release" ]; then
	echo "Bail out! out/MANIFEST missing: run ./build.sh first"
	exit 1
fi
if [ -f "$config" ]; then
	run_check "$config"
	if [ "$status" -eq 0 ] && ! grep -q missing "$tmp/out"; then
		ok 0 "the image's kernel config $config passes"
	else
		ok 1 "the image's kernel config $config passes"
		diag "exit $status: $(cat "$tmp/out")"
	fi
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
	if [ "$status" -eq "$3" ] && grep -q "^$4" "$tmp/out"; then
		ok 0 "$1"
	else
		ok 1 "$1"
		diag "exit $status: $(cat "$tmp/out")"
	fi
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
if [ "$status" -eq 0 ] && ! grep -q VIRTIO_CONSOLE "$tmp/out"; then
	ok 0 "a sink option built as a module is accepted"
else
	ok 1 "a sink option built as a module is accepted"
	diag "exit $status: $(cat "$tmp/out")"
fi

unflagged=""
for option in $options; do
	grep -v "^$option=" "$tmp/base" >"$tmp/without"
	run_check "$tmp/without"
	grep -q "^${option}[ =]" "$tmp/out" || unflagged="$unflagged $option"
done
if [ -z "$unflagged" ]; then
	ok 0 "removing any one option of the fragment is reported"
else
	ok 1 "removing any one option of the fragment is reported"
	diag "$unflagged"
fi

: >"$tmp/empty"
run_check "$tmp/empty"
empty_status=$status
run_check "$tmp/does-not-exist"
if [ "$empty_status" -eq 2 ] && [ "$status" -eq 2 ]; then
	ok 0 "an empty or missing config file is a usage error"
else
	ok 1 "an empty or missing config file is a usage error"
	diag "empty: exit $empty_status, missing: exit $status"
fi

done_testing
