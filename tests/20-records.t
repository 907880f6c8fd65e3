#!/bin/sh
# Result records: the frame format and every sink a host can emulate
# (file, a regular file as pmem, a pipe as console), written by `wis emit`
# and read back by `wis report`.
set -eu
cd "$(dirname "$0")/.."
. tests/records.sh

crcs_match() {	# every line of file $1 carries the CRC of its payload
	while IFS= read -r line; do
		payload=${line#WIS1 ???????? }
		[ "$line" = "WIS1 $(crc "$payload") $payload" ] || return 1
	done <"$1"
}

run_into() {	# run_into SPEC RUN: a complete run of four records
	emit --out "$1" --run "$2" --seq 0 run id=host kernel=6.1.0 \
		cpu_model=test date=2024-01-01
	emit --out "$1" --run "$2" --seq 1 point test=getppid1 \
		mode=processes tasks:=1 status=ok average:=1000 \
		per_task:=1000 idle_pct:=50 sys_us_per_op:=0.5
	emit --out "$1" --run "$2" --seq 2 point test=getppid1 \
		mode=processes tasks:=2 status=ok average:=1900 \
		per_task:=950 idle_pct:=0 sys_us_per_op:=0.5
	emit --out "$1" --run "$2" --seq 3 end status=ok points:=2
}

emit --out file:one.rec --run r --seq 7 end status=ok
payload='{"run":"r","seq":7,"type":"end","status":"ok"}'
check "frame is WIS1, zlib CRC-32, payload" \
	test "$(cat one.rec)" = "WIS1 $(crc "$payload") $payload"

run_into file:run.rec r1
check "every frame of a run carries its payload's CRC" crcs_match run.rec

report run.rec
check "file sink: complete run reads back, exit 0" test "$rc" = 0
check "header names run, id, kernel, cpu, date" grep -qx \
	'run r1: id host, kernel 6.1.0, cpu test, date 2024-01-01' out
check "table row: rate, per task, scaling, efficiency, idle, sys/op" grep -Eq \
	'^getppid1 +processes +2 +1900 +950 +1\.90x +0\.95 +- +- +0\.0 +0\.500 +-$' out

run_into file:run.rec r1b
report --json run.rec
check "file sink appends a second run after the first" test "$(wc -l <out)" = 8

emit --out file:esc.rec --run r --seq 0 warn \
	"message=$(printf 'q" b\\ t\t n\n bad\377 ok\303\251')"
check "strings escaped, bad UTF-8 replaced, one line" grep -Fq \
	'"message":"q\" b\\ t\t n\n bad\ufffd ok'"$(printf '\303\251')"'"}' \
	esc.rec
report --json esc.rec
check "escaped record reads back" test "$(wc -l <out)" = 1

truncate -s 65536 region
run_into pmem:region,file:r2.rec r2
len=$(wc -c <r2.rec)
report region
check "pmem sink on a regular file: run reads back" test "$rc" = 0
check "pmem region keeps its size" test "$(wc -c <region)" = 65536
check "pmem records from offset 0, as the file sink got them" sh -c \
	"head -c $len region | cmp -s - r2.rec"
check "pmem region: zero fill after the records" test \
	"$(tail -c +$((len + 1)) region | tr -d '\000' | wc -c)" = 0

truncate -s 700 small
emit --out pmem:small,file:all.rec --run r3 --seq 0 run id=host
for seq in 1 2 3 4 5; do
	emit --out pmem:small,file:all.rec --run r3 --seq $seq point \
		test=getppid1 mode=processes tasks:=$seq status=ok \
		average:=100 per_task:=100 2>>full.err
done
emit --out pmem:small,file:all.rec --run r3 --seq 6 end status=ok \
	2>>full.err
check "full region: writer says so, naming the sink" grep -q \
	'sink pmem:small: region of 700 bytes is full' full.err
check "full region: one 'full' record, size unchanged" test \
	"$(grep -ac '"type":"full"' small) $(wc -c <small)" = "1 700"
report --json small
kept=$(wc -l <out)
head -n "$kept" all.rec >kept.rec
check "full region: the records before it are intact" sh -c \
	"tr -d '\000' <small | head -n $kept | cmp -s - kept.rec &&
	 [ $kept -ge 3 ]"
report small
check "full region: run incomplete (exit 1)" test "$rc" = 1
check "full region: reader names where it filled up" grep -q \
	"small: region full at run r3 seq $kept;" err
report small all.rec
check "full region plus file sink: merged run complete" test "$rc" = 0

# Whatever the size, the region keeps room to say it is full.
sizes_ok=1
for size in 300 333 366 399 432 465 498 531; do
	truncate -s "$size" "r$size"
	for seq in 0 1 2 3; do
		emit --out "pmem:r$size" --run sized --seq $seq point \
			test=getppid1 mode=processes tasks:=1 status=ok \
			message=padding-padding-padding-padding 2>/dev/null
	done
	[ "$(grep -ac '"type":"full"' "r$size")" = 1 ] || sizes_ok=0
done
check "full region: a 'full' record whatever the size" test $sizes_ok = 1

{
	echo '[    0.000000] Linux version 6.1.0'
	printf '[    0.100000] random: crng init done\r\n'
	emit --out console --run r4 --seq 0 run id=guest | sed 's/$/\r/'
	printf '[    1.000000] virtio_net: noise '
	emit --out console --run r4 --seq 1 end status=ok
	echo '[    2.000000] reboot: Power down'
} | "$WIS" report - >out 2>err && rc=0 || rc=$?
check "console through a pipe, kernel noise, CRLF, mid-line frame" test \
	"$rc" = 0 -a "$(grep -c '^run r4: id guest' out)" = 1

if ls /dev/pmem* /sys/class/virtio-ports/*/name >/dev/null 2>&1; then
	ok 0 "# SKIP this machine has pmem or virtio ports"
else
	emit --out auto --run r5 --seq 0 end status=ok >auto.out
	check "auto without pmem or virtio: console only" grep -q \
		'^WIS1 [0-9a-f]\{8\} {"run":"r5"' auto.out
fi

emit --out file:state.rec --state state --run r6 run
emit --out file:state.rec --state state --run r6 point
emit --out file:state.rec --state state --run r6 end status=ok
check "--state: seq follows the state file" test \
	"$(grep -o '"seq":[0-9]*' state.rec | tr '\n' ' ')" = \
	'"seq":0 "seq":1 "seq":2 '
check "the state file holds RUN NEXTSEQ" test "$(cat state)" = "r6 3"

rc=0
emit --out "file:$tmp/no/dir,file:good.rec" --run r7 --seq 0 end \
	status=ok 2>err || rc=$?
check "a failing sink names itself; the others still get the record" test \
	"$rc" = 1 -a "$(wc -l <good.rec)" = 1 -a \
	"$(grep -c "sink file:$tmp/no/dir: No such file" err)" = 1

rc=0
emit --out virtio:no.such.port --run r --seq 0 end 2>err || rc=$?
check "missing virtio port is an error naming it" test "$rc" = 1 -a \
	"$(grep -c 'sink virtio:no.such.port: no virtio-serial port named no.such.port' err)" = 1

rc=0
emit --out floppy --run r --seq 0 end 2>err || rc=$?
check "unknown sink is an error naming it (exit 1)" test "$rc" = 1 -a \
	"$(grep -c 'sink floppy: unknown' err)" = 1

rc=0
emit --out file:x.rec --run r --seq 0 point 'tasks:=[1,' 2>err || rc=$?
check "emit rejects a bad JSON value, naming it (exit 2)" test "$rc" = 2 -a \
	"$(grep -c "tasks:=\[1,: bad JSON value" err)" = 1

rc=0
emit --out file:x.rec --run r --seq 0 point a=1 b=2 a:=3 2>err || rc=$?
check "emit rejects a key given twice (exit 2)" test "$rc" = 2 -a \
	"$(grep -c 'a:=3: key a given twice' err)" = 1

big=$(head -c 70000 /dev/zero | tr '\000' x)
emit --out file:big.rec --run r8 --seq 0 point "blob=$big"
check "an oversized record leaves an error record in its slot" grep -q \
	'"seq":0,"type":"error","message":"point record dropped' big.rec

quick='wis.tests=getppid1 wis.samples=1 wis.warmup=0 wis.interval=50'
rc=0
# shellcheck disable=SC2086 # $quick is a list of words
"$WIS" sweep $quick wis.out=file:/dev/full,file:kept.rec 2>err || rc=$?
check "sweep with a failed sink exits 1" test "$rc" = 1
check "failed sink: an error record names it and its errno" grep -q \
	'"type":"error","message":"sink file:/dev/full: write: No space left on device","sink":"file:/dev/full","errno":28}' \
	kept.rec
check "failed sink: the run's end record says error" grep -q \
	'"type":"end","status":"error"' kept.rec
report kept.rec
check "failed sink: the working sink's run reads back whole" grep -Eq \
	'^getppid1 +processes +1 ' out
check "the run record says what priority the sampler gets" grep -Eq \
	'"type":"run".*"sampler":"(fifo|nice-20|normal)"' kept.rec
check "the point record says the sampler's priority and its overruns" \
	grep -Eq '"type":"point".*"sampler":"(fifo|nice-20|normal)","overrun":[0-9]+,' \
	kept.rec

# One schema of record fields (bench/records/fields.def): docs/records.md's
# table is what wis emit --help-fields prints from it, and every key the
# sweep writes is a field of its record's type there.
"$WIS" emit --help-fields >fields
is "docs/records.md's field table is the one wis emit --help-fields prints" \
	"$(cat fields)" "$(sed -n '/^| field | record | type | since | meaning |$/,/^$/p' \
		"$root/docs/records.md" | sed '/^$/d')"
"$WIS" sweep wis.tests=getppid1,futex4 wis.samples=1 wis.warmup=0 \
	wis.interval=50 wis.profile=cpu,stat,lock wis.out=file:schema.rec \
	>/dev/null 2>&1 || true
# shellcheck disable=SC2016 # Perl's variables
unknown=$(perl -e '
	open(my $f, "<", shift) or die;
	my (%in, %pattern);
	while (<$f>) {
		next unless /^\| `(\w+)` \| ([^|]*) \|/;
		my ($name, $recs) = ($1, $2);
		my @types = $recs eq "every" ? ("*") : ($recs =~ /`(\w+)`/g);
		if ($name =~ /^(\w*?)NAME$/) {
			$pattern{$1} = \@types;
		} else {
			$in{$name} = \@types;
		}
	}
	while (<>) {
		next unless s/^WIS1 [0-9a-f]{8} //;
		my ($type) = /"type":"(\w+)"/;
		my @keys;
		while (/\G(?:"((?:[^"\\]|\\.)*)"(:?)|[^"]+)/gc) {
			push @keys, $1 if defined $2 && $2 eq ":";
		}
		for my $k (@keys) {
			my ($p) = grep { $k =~ /^\Q$_\E./ } keys %pattern;
			my $types = $in{$k} // ($p && $pattern{$p});
			print "$type:$k " unless $types &&
				grep { $_ eq "*" || $_ eq $type } @$types;
		}
	}' fields schema.rec kept.rec)
is "the reader names the fields it reads from the schema, never as text" "" \
	"$(grep -nE '(rd_rec_(get|num|strdup)|rd_put_field)\([^,;]*, *"' \
		"$root"/bench/*/*.c || true)"
check "the sweep wrote records to check" grep -q '"type":"point"' schema.rec
is "every key a sweep writes is a field of its record's type in the schema" \
	"" "$unknown"

rc=0
"$WIS" run getppid1 -s 1 --warmup 0 --interval 50 --records=file:/dev/full \
	>/dev/null 2>err || rc=$?
check "wis run --records to a failed sink exits 1" test "$rc" = 1
check "wis run --records: the sink is named on stderr" grep -q \
	'sink file:/dev/full: write: No space left on device' err

for cmd in list "run getppid1 -s 1 --warmup 0 --interval 50"; do
	rc=0
	# shellcheck disable=SC2086 # $cmd is a list of words
	"$WIS" $cmd >/dev/full 2>err || rc=$?
	check "wis ${cmd%% *} >/dev/full exits non-zero, saying so" test \
		"$rc" != 0 -a "$(grep -c 'writing to stdout' err)" = 1
done

plan "$tap_n"
done_testing
