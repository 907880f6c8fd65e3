#!/bin/sh
# Fuzz the record reader for a while: libFuzzer with AddressSanitizer and
# UndefinedBehaviorSanitizer, seeded with bench/fuzz/corpus.
set -eu
cd "$(dirname "$0")/.."
seconds=${WIS_FUZZ_SECONDS:-20}

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

echo 1..2
if make -s -C bench/fuzz OUT="$tmp/out" >"$tmp/build.log" 2>&1; then
	echo "ok 1 - the reader's fuzz target builds"
else
	echo "not ok 1 - the reader's fuzz target builds"
	sed 's/^/# /' "$tmp/build.log" >&2
	echo "not ok 2 - the reader was fuzzed (no target to run)"
	exit 1
fi

# New inputs go to the first corpus directory, never into the tree.
mkdir "$tmp/corpus"
if "$tmp/out/fuzz/reader" -max_total_time="$seconds" -timeout=10 \
	-rss_limit_mb=2048 -dict=bench/fuzz/reader.dict \
	-artifact_prefix="$tmp/" "$tmp/corpus" bench/fuzz/corpus \
	>"$tmp/fuzz.log" 2>&1; then
	echo "ok 2 - ${seconds}s of fuzzing the reader found nothing"
else
	echo "not ok 2 - ${seconds}s of fuzzing the reader found nothing"
	# On stderr, which prove shows when not verbose: a CI log has it.
	{
		grep -v '^#[0-9]' "$tmp/fuzz.log" | tail -n 40 | sed 's/^/# /'
		for crash in "$tmp"/crash-* "$tmp"/leak-* "$tmp"/timeout-*; do
			[ -f "$crash" ] || continue
			echo "# $(basename "$crash"), base64:"
			base64 "$crash" | sed 's/^/#   /'
		done
	} >&2
fi
