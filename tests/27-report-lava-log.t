#!/bin/sh
# wis report on LAVA job logs as the dispatcher writes them: each console
# line a YAML flow mapping of "lvl" "target" whose "msg" is the line as a
# double-quoted string (non-ASCII as \xXX or \uXXXX), and, up to LAVA
# 2023.01, every '"' of the console escaped as \" before that.  The same
# records give the same table; frames broken in the log stay rejected.
set -eu
cd "$(dirname "$0")/.."
. tests/records.sh

# lava_log STYLE: stdin's lines as LAVA log entries, escaped the way
# PyYAML's double-quoted style does; STYLE 2023 adds the older
# dispatchers' \" first.
lava_log() {
	perl -CSD -sne 'chomp;
		s/"/\\"/g if $style eq "2023";
		s/\\/\\\\/g; s/"/\\"/g;
		s/([^\x20-\x7e])/ord($1) < 0x100 ? sprintf("\\x%02X", ord($1)) :
			sprintf("\\u%04X", ord($1))/ge;
		print qq(- {"dt": "2024-05-02T10:00:00.000000", "lvl": "target", "msg": "$_"}\n);' \
		-- -style="$1"
}

board() {	# board SPEC RUN ID: a run with a string that needs escapes
	emit --out "$1" --run "$2" --seq 0 run "id=$3" kernel=6.1.0 \
		'cmdline=console=ttyS0 wis.id="a b" \ end'
	emit --out "$1" --run "$2" --seq 1 point test=getppid1 \
		mode=processes tasks:=1 status=ok average:=1000
	emit --out "$1" --run "$2" --seq 2 point test=open4 mode=processes \
		tasks:=1 status=error 'message=open "/proc/x": No such file'
	emit --out "$1" --run "$2" --seq 3 end status=error
}

board file:a.rec board-a 'rack-1 café'
board file:b.rec board-b rack-2
report a.rec
cp out direct
{
	# What comes before the first frame: firmware with its terminal
	# control sequences (their ESC removed by the dispatcher).
	printf 'c[?7l[2J[0mSeaBIOS (version 1.16.2)\n'
	cat a.rec
} >a.console
lava_log 2024 <a.console >new.yaml
lava_log 2023 <a.console >old.yaml
check "the log escapes the frames' quotes" grep -q '\\"run\\"' new.yaml
check "the 2023.01 log escapes them twice" grep -q '\\\\\\"run\\\\\\"' old.yaml
check "non-ASCII comes as \\x escapes" grep -q 'caf\\xE9' new.yaml

report new.yaml
is "a LAVA log: the same table as the records written directly" \
	"$(cat direct)" "$(cat out)"
check "... and nothing skipped" test "$(grep -c 'corrupt' err)" = 0
report old.yaml
is "a LAVA 2023.01 log: the same table" "$(cat direct)" "$(cat out)"
report --json old.yaml
check "every record read, strings with quotes and backslashes intact" \
	grep -q '"cmdline":"console=ttyS0 wis.id=\\"a b\\" \\\\ end"' out

# lavacli jobs logs without --raw: "TIME LEVEL MESSAGE", msg unescaped.
sed 's/"/\\"/g; s/^/2024-05-02T10:00:00 target /' a.console >plain.log
report plain.log
is "the plain listing of a LAVA 2023.01 log: the same table" \
	"$(cat direct)" "$(cat out)"

cat a.rec b.rec | lava_log 2023 >fleet.yaml
report fleet.yaml
check "two boards in one log: two runs" test "$(grep -c '^run ' out)" = 2

sed 's/\(average\\\\\\":\)1000/\11001/' old.yaml >forged.yaml
check "forged: a rate changed in the log" grep -q '1001' forged.yaml
report --json forged.yaml
check "forged: the record is rejected, counted and its seq missing" \
	test "$(grep -c -e '1 corrupt line skipped' -e 'missing seq 1$' err)" = 2
sed '2s/\\\\\\"run\\\\\\"/"run"/' old.yaml >broken.yaml
report --json broken.yaml
check "escapes broken in the log: rejected, counted" \
	test "$(grep -c '1 corrupt line skipped' err)" = 1
sed 's/"lvl": "target"/"lvl": "debug"/' new.yaml >debug.yaml
report debug.yaml
check "only target entries are the console: others give no records" \
	test "$rc" = 1 -a "$(grep -c 'no records' err)" -ge 1

plan "$tap_n"
done_testing
