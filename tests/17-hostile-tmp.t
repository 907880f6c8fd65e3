#!/bin/sh
# Root's wis beside an unprivileged local user who plants links and files
# in /tmp: the orphan cleanup raced by a link swapped in a loop
# (tests/swap_link.c), links at the point files' names, at wis.shared, at
# a record file and a barrier file, and somebody's file given as a
# barrier or pmem region.  Nothing outside wis's own files may change;
# each refusal is named.
set -eu
. tests/tap.sh
. tests/second-user.sh

command -v setpriv >/dev/null || skip_all "no setpriv"
unshare --pid --fork true 2>/dev/null || skip_all "no pid namespaces"

WIS=$(cd "$(dirname "$WIS")" && pwd)/$(basename "$WIS")
tmp=$(mktemp -d)
swapper=
cleanup() {
	[ -z "$swapper" ] || kill "$swapper" 2>/dev/null || true
	find /tmp -maxdepth 1 -user "$user" -exec rm -rf {} + 2>/dev/null || true
	userdel "$user" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
add_second_user
uid=$(id -u "$user")
gcc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -o "$tmp/swap_link" \
	tests/swap_link.c
chmod 0755 "$tmp"

# A file of root's that nothing may change: its checksum before and after.
secret=$tmp/secret
head -c 4096 /dev/urandom >"$secret"
chmod 0600 "$secret"
sum=$(sha256sum <"$secret")
unchanged() {
	[ "$(sha256sum <"$secret")" = "$sum" ]
}

# 1. The cleanup of a dead wis's entries races a link swapped in a loop.
# In a mount and pid namespace of its own, on a /tmp of its own: other
# wis processes on the host neither see these entries nor have theirs
# taken for orphans, and this shell's pid names no process in there.
# The script prints wis's exit status, the files left in the link's
# target, whether the other user's entries are still there and how many
# of wis's own orphans are.
cat >"$tmp/race.sh" <<'EOF'
set -eu
user=$1 dead=$2
uid=$(id -u "$user")
mount -t tmpfs -o mode=1777 wis-race /tmp
victim=/tmp/victim
mkdir -m 0700 "$victim"
(cd "$victim" && seq 1 2000 | xargs touch)
cat <&3 >/tmp/swap_link
cat <&4 >/tmp/wis
chmod 0755 /tmp/swap_link /tmp/wis
trap_dir=/tmp/wis.$dead.0.x
as_user() {
	setpriv --reuid="$uid" --regid="$uid" --clear-groups "$@"
}
as_user mkdir "$trap_dir" "$trap_dir/d"
as_user sh -c "cd '$trap_dir/d' && seq 1 2000 | xargs touch"
as_user ln -s "$victim" "$trap_dir/l"
as_user /tmp/swap_link "$trap_dir" d l &
swap=$!
mkdir "/tmp/wis.$dead.1.open2.0"
touch "/tmp/wis.$dead.1.open2.0/file" "/tmp/wis.$dead.2.open1.0"
rc=0
/tmp/wis run getppid1 -t 1 -s 1 --warmup 0 --interval 100 >/dev/null 2>&1 ||
	rc=$?
# 3: the busy machine left the point noisy; wis ran all the same.
[ "$rc" != 3 ] || rc=0
kill "$swap" 2>/dev/null || true
wait "$swap" 2>/dev/null || true
echo "$rc $(find "$victim" -type f | wc -l)" \
	"$(test -d "$trap_dir" && echo kept || echo gone)" \
	"$(find /tmp -maxdepth 1 -name "wis.$dead.[12].*" | wc -l)"
EOF
got=$(unshare --mount --pid --fork sh "$tmp/race.sh" "$user" $$ \
	3<"$tmp/swap_link" 4<"$WIS" 2>&1) || true
is "orphan cleanup raced by a swapped link: wis ran, the link's target lost no file, another user's entries left alone, wis's own orphans gone" \
	"0 2000 kept 0" "$got"

# 2. Links at the names of the next points' files.
rc=0
sh -c 'for n in 0 1 2; do
		runuser -u "$1" -- ln -s "$2" /tmp/wis.$$.$n.open1.0
		runuser -u "$1" -- ln -s "$2" /tmp/wis.$$.$n.unlink1.0
	done
	exec "$3" run open1 -t 1 -s 1 --warmup 0 --interval 100' \
	sh "$user" "$secret" "$WIS" >"$tmp/out" 2>&1 || rc=$?
check "a link at a point file's name: the point fails (exit $rc)" \
	test "$rc" != 0
check "... naming the file that was in the way" grep -q \
	'create /tmp/wis\.[0-9]*\.0\.open1\.0: File exists' "$tmp/out"
check "... and the link's target is unchanged" unchanged
rc=0
sh -c 'runuser -u "$1" -- ln -s "$2" /tmp/wis.$$.0.unlink1.0
	exec "$3" run unlink1 -t 1 -s 1 --warmup 0 --interval 100' \
	sh "$user" "$secret" "$WIS" >"$tmp/out" 2>&1 || rc=$?
check "unlink1 the same (exit $rc), target unchanged" sh -c \
	"[ $rc != 0 ] && grep -q 'File exists' '$tmp/out'" && unchanged

# 3. wis.shared at a link, a dangling link, another user's file.
shared=/tmp/wis-shared-test.$$
as_user ln -s "$secret" "$shared"
rc=0
"$WIS" sweep wis.tests=pread4 wis.tasks=1 wis.samples=1 wis.warmup=0 \
	wis.interval=100 "wis.shared=$shared" "wis.out=file:$tmp/s.wis" \
	>"$tmp/out" 2>&1 || rc=$?
check "wis.shared at a link: refused (exit $rc)" sh -c \
	"[ $rc != 0 ] && grep -q 'wis.shared $shared: is a symbolic link' '$tmp/out'"
check "... its target unchanged" unchanged
rm -f "$shared"
as_user ln -s "$tmp/made-by-root" "$shared"
"$WIS" sweep wis.tests=open4 wis.tasks=1 wis.samples=1 wis.warmup=0 \
	wis.interval=100 "wis.shared=$shared" "wis.out=file:$tmp/s.wis" \
	>"$tmp/out" 2>&1 || true
check "wis.shared at a dangling link: nothing made at its target" \
	test ! -e "$tmp/made-by-root"
rm -f "$shared"
as_user sh -c "echo mine >'$shared'"
"$WIS" sweep wis.tests=open4 wis.tasks=1 wis.samples=1 wis.warmup=0 \
	wis.interval=100 "wis.shared=$shared" "wis.out=file:$tmp/s.wis" \
	>"$tmp/out" 2>&1 || true
check "wis.shared owned by another user: refused, named" grep -q \
	"wis.shared $shared: owned by uid $uid" "$tmp/out"
rm -f "$shared"

# 4. A record file at a link.
rec=/tmp/wis-records-test.$$
as_user ln -s "$secret" "$rec"
rc=0
"$WIS" run getppid1 -t 1 -s 1 --warmup 0 --interval 100 "--records=file:$rec" >"$tmp/out" 2>&1 || rc=$?
check "--records=file: at a link: refused (exit $rc)" sh -c \
	"[ $rc != 0 ] && grep -q 'sink file:$rec: is a symbolic link' '$tmp/out'"
check "... its target unchanged" unchanged
rm -f "$rec"

# 5. Barrier and pmem targets that are not wis's.
cp /etc/passwd "$tmp/passwd"
psum=$(sha256sum <"$tmp/passwd")
rc=0
"$WIS" sweep wis.tests=getppid1 wis.tasks=1 wis.samples=1 \
	"wis.barrier=file:$tmp/passwd" wis.out=console >"$tmp/out" 2>&1 ||
	rc=$?
check "a barrier at somebody's file: refused (exit $rc)" sh -c \
	"[ $rc != 0 ] && grep -q 'not a barrier file' '$tmp/out'"
check "... the file unchanged" test "$(sha256sum <"$tmp/passwd")" = "$psum"
barrier=/tmp/wis-barrier-test.$$
as_user ln -s "$secret" "$barrier"
rc=0
"$WIS" sweep wis.tests=getppid1 wis.tasks=1 wis.samples=1 \
	"wis.barrier=file:$barrier" wis.out=console >"$tmp/out" 2>&1 || rc=$?
check "a barrier file at a link: refused (exit $rc)" sh -c \
	"[ $rc != 0 ] && grep -q 'is a symbolic link' '$tmp/out'"
check "... its target unchanged" unchanged
rm -f "$barrier"
rc=0
"$WIS" sweep wis.tests=getppid1 wis.tasks=1 wis.samples=1 wis.warmup=0 \
	wis.interval=100 "wis.out=pmem:$tmp/passwd" >"$tmp/out" 2>&1 || rc=$?
check "wis.out=pmem: at somebody's file: refused (exit $rc)" sh -c \
	"[ $rc != 0 ] && grep -q 'starts with no records and is not all zeros' '$tmp/out'"
check "... the file unchanged" test "$(sha256sum <"$tmp/passwd")" = "$psum"

plan "$tap_n"
done_testing
