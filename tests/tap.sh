# shellcheck shell=sh
# A minimal TAP producer for the shell tests; source it, then call plan.
# WIS is the binary under test; tests run from the repository root.

WIS=${WIS:-out/rootfs/bin/wis}
# shellcheck disable=SC2034 # used by the tests that source this file
BIN=$(dirname "$WIS")
tap_n=0
tap_failed=0

plan() {
	echo "1..$1"
}

ok() {
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		# prove shows stderr when not verbose: a CI log names the failure.
		echo "# failed: $tap_n - $2" >&2
		tap_failed=$((tap_failed + 1))
	fi
}

# check DESCRIPTION COMMAND...: one test, ok when COMMAND exits 0; the
# description is written once.  What COMMAND prints goes to stderr, out of
# the TAP stream (prove shows it); a failure also tells its exit status.
# A title that speaks of an exit status checks it: test "$rc" -eq N ...
check() {
	desc=$1
	shift
	if "$@" >&2; then
		ok 0 "$desc"
	else
		tap_rc=$?
		ok 1 "$desc"
		diag "exit status $tap_rc: $*" >&2
	fi
}

# is DESCRIPTION WANT GOT: one test, ok when GOT is WANT; both are told
# when it is not.
is() {
	if [ "$2" = "$3" ]; then
		ok 0 "$1"
	else
		ok 1 "$1"
		diag "want: $2" "got:  $3" >&2
	fi
}

diag() {
	printf '%s\n' "$@" | sed 's/^/# /'
}

skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

done_testing() {
	[ "$tap_failed" -eq 0 ]
}

if [ ! -x "$WIS" ]; then
	echo "Bail out! $WIS not built (run ./build.sh)"
	exit 1
fi

# contains TEXT STRING: TEXT holds STRING (fixed, not a pattern).
contains() {
	printf '%s\n' "$1" | grep -qF -- "$2"
}

# tasks_of PID N: the N task PIDs of the point process under PID (the
# wis or compat binary), once all have started (waits up to 10 s; prints
# what there is then). An empty parent must not reach "pgrep -P": it
# would name init's children.
tasks_of() {
	tap_tries=0
	tap_tasks=""
	while [ "$tap_tries" -lt 100 ]; do
		tap_point=$(pgrep -P "$1" | head -n 1) || true
		[ -z "$tap_point" ] || tap_tasks=$(pgrep -P "$tap_point") || true
		[ "$(echo "$tap_tasks" | wc -w)" -lt "$2" ] || break
		sleep 0.1
		tap_tries=$((tap_tries + 1))
	done
	echo "$tap_tasks"
}

# child_of PID: the first child process of PID that is still there a
# fifth of a second later (waits up to 5 s; prints nothing if none came).
# A run forks short-lived children before its point (the sampler's probe
# of its priority), and a test that read one of those would race its end.
child_of() {
	tap_tries=0
	while [ "$tap_tries" -lt 25 ]; do
		tap_child=$(pgrep -P "$1" | head -n 1) || true
		sleep 0.2
		if [ -n "$tap_child" ] &&
			pgrep -P "$1" | grep -qx "$tap_child"; then
			echo "$tap_child"
			return
		fi
		tap_tries=$((tap_tries + 1))
	done
}

# sweep_ok RC FILE: a sweep's exit status RC is 0, or 3 when the end
# record in FILE counts points that stayed noisy or starved: a busy
# machine, which the tests take as that, not as a fault.
sweep_ok() {
	[ "$1" = 0 ] || { [ "$1" = 3 ] &&
		grep -Eq '"type":"end".*"(starved|noisy)":[1-9]' "$2"; }
}
