# shellcheck shell=sh
# Set-up shared by the store's tests (48-store.t, 49-history.t).  Source
# it from the repository root: it loads tap.sh, finds the host's wis
# (HOST, beside the image's WIS), and moves into a scratch directory
# removed on exit.
. tests/tap.sh

root=$PWD
WIS=$(cd "$(dirname "$WIS")" && pwd)/$(basename "$WIS")
# shellcheck disable=SC2034 # used by the tests that source this file
BIN=$(dirname "$WIS")
HOST=${WIS%/rootfs/bin/wis}/bin/wis
[ -x "$HOST" ] || { echo "Bail out! $HOST (the host's wis) not built"; exit 1; }
# shellcheck disable=SC2034 # used by the tests that source this file
REFRAME="perl $root/tests/lib/reframe.pl"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit
