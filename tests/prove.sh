# shellcheck shell=bash
# Part of ./build.sh (sourced by it): how ./build.sh test runs tests/.
# Most files run side by side, TEST_JOBS at a time (default 4: on two
# CPUs most host tests wait on their samples' intervals), a boot every
# fourth file from the start: they take longest and keep QEMU busy, so
# about one runs at a time beside the rest.  A file whose header says "# alone: WHY"
# needs the machine to itself (it compares two profiles of one CPU, or
# loads every CPU on purpose) and runs after the others, one at a time.
# Each file's line gives its time, each pass ends with prove's summary;
# the command fails if either pass does.

run_tests() {
	local jobs=${TEST_JOBS:-4} alone boots rest rc=0
	case $jobs in
	'' | *[!0-9]* | 0) die "TEST_JOBS=$jobs: not a positive number" ;;
	esac
	alone=$(grep -l '^# alone: ' tests/*.t || true)
	boots=$(printf '%s\n' tests/*-boot*.t | grep -vxF "$alone" || true)
	rest=$(printf '%s\n' tests/*.t | grep -vxF "$alone" |
		grep -vxF "$boots" || true)
	# shellcheck disable=SC2046 # one path a word
	prove --timer -j"$jobs" $(printf '%s\n\n%s\n' "$boots" "$rest" | awk '
		NF == 0 { part++; next }
		part == 0 { boot[nb++] = $0; next }
		{ rest[nr++] = $0 }
		END {
			for (i = 0; i < nb || i * 3 < nr; i++) {
				if (i < nb) print boot[i]
				for (j = i * 3; j < i * 3 + 3 && j < nr; j++) print rest[j]
			}
		}') || rc=1
	if [ -n "$alone" ]; then
		# shellcheck disable=SC2086 # one path a word
		note "test: now alone, one at a time:" $alone
		# shellcheck disable=SC2086 # one path a word
		prove --timer $alone || rc=1
	fi
	return "$rc"
}
