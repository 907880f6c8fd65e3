# shellcheck shell=bash
# Part of ./build.sh (sourced by it): how ./build.sh test runs tests/.
# Most files run side by side, TEST_JOBS at a time (default 4: on two
# CPUs most host tests wait on their samples' intervals), the boots
# first since they take longest.  A file whose header says "# alone: WHY"
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
	# shellcheck disable=SC2086 # one path a word
	prove --timer -j"$jobs" $boots $rest || rc=1
	if [ -n "$alone" ]; then
		# shellcheck disable=SC2086 # one path a word
		note "test: now alone, one at a time:" $alone
		# shellcheck disable=SC2086 # one path a word
		prove --timer $alone || rc=1
	fi
	return "$rc"
}
