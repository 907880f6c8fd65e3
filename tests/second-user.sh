# shellcheck shell=sh
# A second, unprivileged local user, for the tests that run root's wis
# beside one.  Source it after tap.sh: the test is skipped where no user
# can be made.  It names the user ($user); add_second_user makes them,
# as_user runs a command as them, and the test's cleanup removes them
# (userdel), whatever else it removes.
[ "$(id -u)" = 0 ] || skip_all "needs root (a second user is made)"
command -v useradd >/dev/null || skip_all "no useradd"
command -v runuser >/dev/null || skip_all "no runuser"

user=wisu$$

add_second_user() {
	useradd -M -r -s /usr/sbin/nologin "$user"
}

as_user() {
	runuser -u "$user" -- "$@"
}
