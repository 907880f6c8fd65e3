#!/bin/sh
# What wis history's text says of runs and machines (docs/history.md):
# names whole where two runs differ only at their end (git-describe
# kernels, 40-digit commits), runs numbered along their machine's series
# whatever another machine adds, machines by hostname, the newest alarm
# first, the summary's columns lined up, a run that measured nothing
# clean named; and an option after compare's "--" refused, saying where
# options go.  Every series is generated with fixed seeds.
set -eu
. tests/store.sh

plan 15

SERIES="perl $root/tests/lib/history-runs.pl"
BASE=$root/tests/fixtures/base.wis	# getppid1, futex4, unlink1 at 1 and 2 tasks
sha() {	# sha I: a 40-digit commit that differs from the others in its middle
	printf 'a1b2c3d4e5f60718293a%04d5b6c7d8e9f00112233\n' "$1"
}

# Board A: 20 runs, unlink1 20 % slower from run 8 and 10 % more from
# run 18; its kernels git-describe names that differ in their last
# digits, each run labelled with its 40-digit commit.
mkdir a b
$SERIES --runs 20 --seed 21 --id a --set hostname=board-a \
	--step unlink1:8:-0.2 --step unlink1:18:-0.1 "$BASE" a
i=1
while [ "$i" -le 20 ]; do
	k=$(printf '6.13.0-rc2-00%02d-g1234abcd%02d' "$i" "$i")
	# shellcheck disable=SC2016 # Perl's, not the shell's
	$REFRAME 's/"kernel":"[^"]*"/"kernel":"'"$k"'"/ if /"type":"run"/' \
		<"$(printf 'a/%03d.wis' "$i")" >"a/k$i.wis"
	"$HOST" import a.db --label "commit=$(sha "$i")" "a/k$i.wis" >import.out
	i=$((i + 1))
done
is "an import of one file: one line" 1 "$(wc -l <import.out)"

"$HOST" history --db a.db >text 2>&1 || true
diag "$(sed -n '/^summary/,/^$/p' text)"
check "the step's two runs: their kernels and commits whole" sh -c \
	"grep -qx '  from run 17 a-17 (kernel=6.13.0-rc2-0017-g1234abcd17 commit=$(sha 17))' text &&
	 grep -qx '  to   run 18 a-18 (kernel=6.13.0-rc2-0018-g1234abcd18 commit=$(sha 18))' text"
check "... no name cut anywhere" sh -c "! grep -q '~' text"
summary=$(sed -n '/^summary/,/^$/p' text | grep '^  ')
is "the newest alarm first: run 18's steps, then run 8's" \
	"18 18 8 8" "$(printf '%s\n' "$summary" | sed 's/.* at run \([0-9]*\) .*/\1/' | tr '\n' ' ' | sed 's/ $//')"
is "... only the newest carries the alarm" "ALARM ALARM" \
	"$(printf '%s\n' "$summary" | grep -o 'ALARM$' | tr '\n' ' ' | sed 's/ $//')"
is "the summary's columns line up: its series and 'at run' in one column each" "1 1" \
	"$(printf '%s\n' "$summary" | awk '{ print index($0, "unlink1") }' | sort -u | wc -l) $(printf '%s\n' "$summary" | awk '{ print index($0, " at run ") }' | sort -u | wc -l)"
"$HOST" history --db a.db --by commit >text 2>&1 || true
check "--by a 40-digit label: the summary gives it whole, once" sh -c \
	"grep -q '^  step .* at run 18 (commit=$(sha 18)): ALARM\$' text &&
	 ! grep -q 'commit=$(sha 18) commit=' text"
"$HOST" history --db a.db --by date >text 2>&1 || true
check "--by date: the summary and the step's runs give the kernel too, to bisect" sh -c \
	"grep -q '^  step .* at run 18 (date=[^ ]* kernel=6.13.0-rc2-0018-g1234abcd18): ALARM\$' text &&
	 grep -qx '  to   run 18 a-18 (date=[^ ]* kernel=6.13.0-rc2-0018-g1234abcd18 commit=$(sha 18))' text"

"$HOST" history --db a.db --html page.html >/dev/null 2>&1 || true
changes=$(grep -o '"changes":\[.*' page.html | grep -o '"kind":"step","series":[0-9]*,"from":[0-9]*,"to":[0-9]*' |
	head -n 4 | sed 's/.*"to":\([0-9]*\)/\1/' | tr '\n' ' ')
is "the page's data: the changes in the text's order, the newest alarm first (runs from 0)" \
	"17 17 7 7 " "$changes"
check "... and each run's number" sh -c \
	"grep -q '\"id\":\"a-20\",\"number\":20,' page.html"

# Board B's 6 runs, another CPU, dated between A's: A's numbers stay.
$SERIES --runs 6 --seed 22 --id b --hour 3 --set hostname=board-b \
	--set 'cpu_model=Other CPU' "$BASE" b
"$HOST" import a.db b/*.wis >/dev/null 2>&1
"$HOST" history --db a.db --by date --all >text 2>&1 || true
check "another machine's runs: A's step still at its run 18, B's runs 1-6" sh -c \
	"grep -q '^  to   run 18 a-18 ' text && grep -q '^   6  b-6 ' text"
check "... machines named by hostname, no letter" sh -c \
	"grep -q '^machine board-a: ' text && grep -q '^machine board-b: ' text &&
	 grep -q '^unlink1 on board-a: 20 runs' text && ! grep -q '^machine [A-Z]:' text"

# Run 5 of a series measured nothing: every point noisy.
mkdir c
$SERIES --runs 8 --seed 23 "$BASE" c
# shellcheck disable=SC2016 # Perl's, not the shell's
$REFRAME 's/"status":"ok"/"status":"noisy","message":"others took 50 % of the CPUs"/ if /"type":"point"/;
	s/"noisy":0/"noisy":6/ if /"type":"end"/' <c/005.wis >c/noisy.wis
mv c/noisy.wis c/005.wis
"$HOST" history c/*.wis >text 2>&1 || true
check "a run that measured nothing clean is named, with its points' count" \
	sh -c "grep -qx 'measured nothing clean:' text &&
	 grep -qx '  run 5 gen-5 (kernel=[^ ]*): 6 noisy, 0 starved, 0 failed, 0 unsupported' text"

rc=0
"$HOST" compare c/001.wis -- c/002.wis --html x.html >out 2>err || rc=$?
check "compare A -- B --html: exit 2, options go before '--'" sh -c \
	"test $rc -eq 2 && grep -qx \"wis compare: '--html' after '--': options go before '--', which ends them\" err"
"$HOST" history --help >out
check "history --help says where options go" grep -q "^Options go anywhere before '--'" out
done_testing
