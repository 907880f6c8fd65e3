#!/bin/sh
# Fuzz what reads hostile input for a while: libFuzzer with
# AddressSanitizer and UndefinedBehaviorSanitizer, the record reader
# seeded with bench/fuzz/corpus, the store (report, history's selections
# and import on a store's mutated pages and columns) with
# bench/fuzz/store_corpus, LKP roots' job.yaml and JSON (import's walk,
# --lkp-root's unite) with bench/fuzz/lkp_root_corpus, LKP's job reader
# with bench/fuzz/lkp_yaml_corpus, 0-day reports with
# bench/fuzz/lkp_report_corpus, gzip's reader and writer (LKP's .json.gz)
# with bench/fuzz/gzip_corpus.
set -eu
cd "$(dirname "$0")/.."
# 8 s a target in the suite's budget; bench/fuzz's targets run longer by
# WIS_FUZZ_SECONDS (docs/security.md has the figures of longer runs).
seconds=${WIS_FUZZ_SECONDS:-8}

if ! command -v clang >/dev/null 2>&1; then
	echo "1..0 # SKIP clang is not installed"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n)\n{ (void)d; (void)n; return 0; }\n' \
	>"$tmp/probe.c"
if ! clang -fsanitize=fuzzer,address -o "$tmp/probe" "$tmp/probe.c" \
	>/dev/null 2>&1; then
	echo "1..0 # SKIP clang cannot link libFuzzer targets"
	exit 0
fi

# Each target: its name, what it reads, its corpus and its options.
targets="reader|the reader|corpus|-dict=bench/fuzz/reader.dict
store_fuzz|the store|store_corpus|
lkp_root_fuzz|LKP roots' job.yaml and JSON|lkp_root_corpus|
lkp_yaml_fuzz|LKP's job reader|lkp_yaml_corpus|
lkp_report_fuzz|0-day reports|lkp_report_corpus|
gzip_fuzz|gzip's inflate and deflate|gzip_corpus|"

# The targets of the build under test (./build.sh asan makes them), made
# or brought up to date here, one make at a time (tests/10 makes them too).
out=${WIS:-out/rootfs/bin/wis}
out=${out%/rootfs/bin/wis}
case $out in /*) ;; *) out=$PWD/$out ;; esac
mkdir -p "$out"
echo "1..$(($(echo "$targets" | wc -l) + 1))"
if flock "$out/.fuzz.lock" make -s -C bench/fuzz OUT="$out" \
	>"$tmp/build.log" 2>&1; then
	echo "ok 1 - the fuzz targets build"
else
	echo "not ok 1 - the fuzz targets build"
	sed 's/^/# /' "$tmp/build.log" >&2
	echo "$targets" | awk -F'|' '{ printf "not ok %d - %s was fuzzed (no target to run)\n", NR + 1, $2 }'
	exit 1
fi

n=1
echo "$targets" | while IFS='|' read -r target what corpus options; do
	n=$((n + 1))
	# New inputs go to the first corpus directory, never into the tree.
	mkdir "$tmp/$target"
	# $options is split on purpose: nothing, or one option.
	# shellcheck disable=SC2086
	if "$out/fuzz/$target" -max_total_time="$seconds" -timeout=10 \
		-rss_limit_mb=2048 $options -artifact_prefix="$tmp/$target-" \
		"$tmp/$target" "bench/fuzz/$corpus" >"$tmp/$target.log" 2>&1; then
		echo "ok $n - ${seconds}s of fuzzing $what found nothing"
		continue
	fi
	echo "not ok $n - ${seconds}s of fuzzing $what found nothing"
	# On stderr, which prove shows when not verbose: a CI log has it.
	{
		grep -v '^#[0-9]' "$tmp/$target.log" | tail -n 40 | sed 's/^/# /'
		for crash in "$tmp/$target"-crash-* "$tmp/$target"-leak-* \
			"$tmp/$target"-timeout-*; do
			[ -f "$crash" ] || continue
			echo "# $(basename "$crash"), base64:"
			base64 "$crash" | sed 's/^/#   /'
		done
	} >&2
done
