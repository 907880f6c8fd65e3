#!/bin/sh
# wis report against damaged input: torn lines, flipped bytes, truncated
# regions, the same run through two sinks, seq gaps, missing end records,
# payloads with a good CRC that are not valid records, and bad usage.
set -eu
cd "$(dirname "$0")/.."
. tests/records.sh

frame() {	# frame PAYLOAD: the frame with the payload's right CRC
	printf 'WIS1 %s %s\n' "$(crc "$1")" "$1"
}

seqs() {	# the seqs of the records in out (from --json)
	grep -o '"seq":[0-9]*' out | cut -d: -f2 | tr '\n' ' '
}

run_into() {	# run_into SPEC RUN [LAST]: records 0..LAST (3: with end)
	emit --out "$1" --run "$2" --seq 0 run id=host kernel=6.1.0
	emit --out "$1" --run "$2" --seq 1 point test=getppid1 \
		mode=processes tasks:=1 status=ok average:=1000
	emit --out "$1" --run "$2" --seq 2 point test=getppid1 \
		mode=processes tasks:=2 status=ok average:=1900
	[ "${3:-3}" -lt 3 ] ||
		emit --out "$1" --run "$2" --seq 3 end status=ok
}

run_into file:torn.rec torn 2
emit --out console --run torn --seq 3 end status=ok | head -c 30 >>torn.rec
report torn.rec
check "torn last line: skipped and counted" grep -qx \
	'wis report: torn.rec: 1 corrupt line skipped' err
check "torn last line: run incomplete, exit 1" test "$rc" = 1 -a \
	"$(grep -c 'run torn incomplete: no end record' err)" = 1
check "torn last line: the records before it are kept" grep -q \
	'2 points: 2 ok, 0 noisy, 0 starved, 0 failed' out
"$WIS" history torn.rec >/dev/null 2>err || true
check "... wis history says it in its own name" grep -qx \
	'wis history: torn.rec: 1 corrupt line skipped' err
"$WIS" compare torn.rec -- torn.rec >/dev/null 2>err || true
check "... and wis compare in its" grep -qx \
	'wis compare: torn.rec: 1 corrupt line skipped' err
# Out of memory, wherever ulimit -v stops it once it has started.  Not
# under ASan (tests/08): its shadow memory alone is far above any limit.
if [ -n "${ASAN_OPTIONS:-}" ]; then
	ok 0 "# SKIP ulimit -v under ASan"
else
	v=3000
	while [ $v -le 16000 ]; do
		sh -c "ulimit -v $v && exec '$WIS' history torn.rec" 2>&1 >/dev/null |
			grep -i 'memory' || true
		v=$((v + 500))
	done >oom
	check "... out of memory too: wis history, never wis report" sh -c \
		"grep -q '^wis history: .*out of memory' oom && ! grep -q 'wis report' oom"
fi

run_into file:good.rec flip
sed '2s/"average":1000/"average":1001/' good.rec >flipped.rec
report --json flipped.rec
check "flipped byte: only that record dropped" test "$(seqs)" = "0 2 3 "
check "flipped byte: counted, gap named, exit 1" test "$rc" = 1 -a \
	"$(grep -c -e '1 corrupt line skipped' -e 'missing seq 1$' err)" = 2

truncate -s 4096 region
run_into pmem:region cut
head -c "$(($(head -n 2 region | wc -c) + 40))" region >cut.img
report --json cut.img
check "truncated region: whole records kept, torn one dropped" test \
	"$rc $(seqs)" = "1 0 1 "

truncate -s 4096 region2
run_into file:a.rec,pmem:region2 both
report --json a.rec region2
check "same run through two sinks: each record once" test \
	"$rc $(seqs)" = "0 0 1 2 3 "
report a.rec region2
check "same run through two sinks: one run in the report" test \
	"$(grep -c '^run ' out)" = 1
sed '2s/"average":1000/"average":1001/' a.rec >a-flipped.rec
report a-flipped.rec region2
check "a record lost in one sink is taken from the other" test \
	"$rc $(grep -c 'corrupt line' err)" = "0 1"

run_into file:conflict.rec conflict
emit --out file:conflict.rec --run conflict --seq 2 point test=getppid1 \
	mode=processes tasks:=2 status=ok average:=2000
report conflict.rec
check "different records at one seq: named, exit 1" test "$rc" = 1 -a \
	"$(grep -c 'run conflict seq 2: different records' err)" = 1

emit --out file:gap.rec --run gap --seq 0 run
emit --out file:gap.rec --run gap --seq 1 point test=x mode=threads \
	tasks:=1 status=ok average:=5
emit --out file:gap.rec --run gap --seq 4 end status=ok
report gap.rec
check "seq gap reported, exit 1" test "$rc" = 1 -a \
	"$(grep -c 'run gap: missing seq 2-3' err)" = 1

run_into file:noend.rec noend 2
report noend.rec
check "missing end: incomplete, exit 1" test "$rc" = 1 -a \
	"$(grep -c 'run noend incomplete: no end record' err)" = 1
check "missing end: the report says so too" grep -q \
	'^status: incomplete, no end record' out

emit --out file:failed.rec --run failed --seq 0 run
emit --out file:failed.rec --run failed --seq 1 point test=x \
	mode=processes tasks:=1 status=crashed message="killed by signal 11"
emit --out file:failed.rec --run failed --seq 2 end status=ok
report failed.rec
check "failed point: status shown, exit 1" test "$rc" = 1 -a \
	"$(grep -Ec '^x +processes +1 crashed: killed by signal 11$' out)" = 1

emit --out file:unsup.rec --run unsup --seq 0 run
emit --out file:unsup.rec --run unsup --seq 1 point test=read3 \
	mode=processes tasks:=1 status=unsupported message="O_DIRECT"
emit --out file:unsup.rec --run unsup --seq 2 end status=ok
report unsup.rec
check "unsupported point: shown, not a failure (exit 0)" test "$rc" = 0 -a \
	"$(grep -Ec '^read3 +processes +1 unsupported: O_DIRECT$' out)" = 1

emit --out file:enderr.rec --run enderr --seq 0 run
emit --out file:enderr.rec --run enderr --seq 1 error message="sweep died"
emit --out file:enderr.rec --run enderr --seq 2 end status=error
report enderr.rec
check "error record and end status error: exit 1" test "$rc" = 1 -a \
	"$(grep -c '^error: sweep died' out)" = 1

bad=0
for payload in \
	'{"run":"m","seq":0,"type":"run",}' \
	'{"run":"m","seq":0}' \
	'{"run":"m","seq":-1,"type":"run"}' \
	'{"run":"m","seq":1.5,"type":"run"}' \
	'{"run":"","seq":0,"type":"run"}' \
	'{"run":"m","seq":0,"type":"run","run":"n"}' \
	'{"run":"m","seq":0,"type":"run","x":"\q"}' \
	'{"run":"m","seq":0,"type":"run","x":"\ud800"}' \
	'{"run":"m","seq":0,"type":"run","x":01}' \
	'{"run":"m","seq":0,"type":"run","x":[1,]}' \
	'{"run":"m","seq":0,"type":"run"} x' \
	'["run","m"]' \
	' {"run":"m","seq":0,"type":"run"}' \
	'{"run": "m","seq":0,"type":"run"}' \
	'{"run":"m","seq":0,"type":"run","x":true}' \
	'{"run":"m","seq":0,"type":"run","x":{}}' \
	'{"run":"m","seq":0,"type":"run","x":["a"]}' \
	'{"run":"m","seq":0,"type":"run","x":[[1]]}' \
	'{"run":"m","seq":0,"type":"run","x":"\u00e9"}' \
	'{"run":"m","seq":0,"type":"run","x":"\/"}' \
	'{"run":"m","seq":0,"type":"run","x":"\u001F"}' \
	'{"run":"m","seq":0,"type":"run","x":"\u000a"}' \
	"{\"run\":\"m\",\"seq\":0,\"type\":\"run\",\"x\":\"$(printf '\377')\"}"
do
	frame "$payload" >bad.rec
	report bad.rec
	if [ "$rc" != 1 ] || ! grep -q 'bad.rec:1: malformed record: ' err
	then
		echo "# accepted: $payload"
		bad=1
	fi
done
check "payloads beyond what the writer emits rejected with a message" \
	test $bad = 0

frame "{\"run\":\"u\\u0001\\ufffd\\\"\\\\\\n\\r\\t$(printf '\303\251')\",\"seq\":0,\"type\":\"end\",\"status\":\"ok\",\"a\":[1,-2.5e-3],\"e\":[],\"n\":null}" >fine.rec
report --json fine.rec
check "everything the writer emits accepted: its escapes, arrays, null" \
	test "$rc" = 0 -a "$(grep -c '^{"run":"u' out)" = 1

report --json no-such-file
check "unreadable file: exit 2, named" test "$rc" = 2 -a \
	"$(grep -c 'cannot open no-such-file' err)" = 1
report
check "no input: usage, exit 2" test "$rc" = 2 -a "$(grep -c usage err)" = 1
report --csv --json a.rec
check "--csv with --json: usage, exit 2" test "$rc" = 2
report --frobnicate a.rec
check "unknown option: named, exit 2" test "$rc" = 2 -a \
	"$(grep -c "unknown option '--frobnicate'" err)" = 1
printf 'kernel noise only\n' >noise.log
report noise.log
check "no records at all: exit 1" test "$rc" = 1 -a \
	"$(grep -c 'no records found' err)" = 1

plan "$tap_n"
done_testing
