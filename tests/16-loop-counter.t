#!/bin/sh
# Every test's measured loop keeps the counter's address in a register,
# as upstream's testcase() does, instead of loading it every iteration:
# bench/scripts/loop-diff --check finds each loop in wis's binary from its
# counter increment and fails one that writes the increment's base
# register.  Two small loops built here show that the check tells the
# one shape from the other.
set -eu
. tests/tap.sh

command -v objdump >/dev/null || skip_all "objdump not installed"
command -v gcc >/dev/null || skip_all "gcc not installed"
[ -x "$WIS" ] || skip_all "$WIS not built"

names=$("$WIS" list --names)
plan $(($(echo "$names" | wc -l) + 2))

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# The task's counter as a field (reloaded after each call, which may
# change *t) and as an argument (kept in a callee-saved register).
cat >"$dir/loops.c" <<'C'
#include <unistd.h>
struct task { unsigned long id; unsigned long *iterations; };
__attribute__((noinline)) void field_run(struct task *t)
{
	for (;;) {
		getppid();
		(*t->iterations)++;
	}
}
__attribute__((noinline)) void argument_run(struct task *t,
					    unsigned long *iterations)
{
	(void)t;
	for (;;) {
		getppid();
		(*iterations)++;
	}
}
int main(int argc, char **argv)
{
	static unsigned long n;
	struct task t = { 0, &n };

	if (argc > 5)
		field_run(&t);
	if (argc > 6)
		argument_run(&t, &n);
	(void)argv;
	return 0;
}
C
gcc -O2 -o "$dir/loops" "$dir/loops.c"
rc=0
bench/scripts/loop-diff --check --wis "$dir/loops" field >&2 || rc=$?
is "a counter reached through the task is reloaded: exit status 1" 1 "$rc"
check "a counter passed as an argument stays in its register" \
	bench/scripts/loop-diff --check --wis "$dir/loops" argument

bench/scripts/loop-diff --check --wis "$WIS" >"$dir/out" || true
for name in $names; do
	line=$(grep "^\(not \)\{0,1\}ok $name:" "$dir/out" || echo "missing $name")
	case $line in
	"ok $name:"*) ok 0 "$name: ${line#ok "$name": }" ;;
	*) ok 1 "$name"; diag "$line" ;;
	esac
done
