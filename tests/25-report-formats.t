#!/usr/bin/perl
# Every output of wis report and wis compare on records the project
# recorded from real sweeps (tests/fixtures: clean, a failed point,
# incomplete, two instances through a barrier), each checked against
# values this test computes itself from the records, and a comparison
# computed by hand.
use strict;
use warnings;
use Compress::Zlib qw(crc32);
use JSON::PP;
use Test::More;
use lib 'tests/lib';
use WisReport;

my $fx = 'tests/fixtures';

sub points { grep { $_->{type} eq 'point' } @_ }

sub ok_point { $_[0] && $_[0]{status} eq 'ok' }

sub round { int($_[0] + 0.5) }

# runtest.py's CSV of one test, from its point records; with $lkp as
# LKP's patched runtest.py writes it, 0 and 0.00 for a mode not run.
sub runtest_csv {
	my ($lkp, @pts) = ref($_[0]) ? (0, @_) : @_;
	my (%cell, %tasks, %ran);
	for my $p (@pts) {
		$cell{$p->{tasks}}{$p->{mode}} //= $p;
		$tasks{$p->{tasks}} = 1;
		$ran{$p->{mode}} = 1;
	}
	my $csv = "tasks,processes,processes_idle,threads,threads_idle,linear\n0,0,100,0,100,0\n";
	my $linear = 0;
	for my $n (sort { $a <=> $b } keys %tasks) {
		my @v;
		for my $mode (qw(processes threads)) {
			my $p = $cell{$n}{$mode};
			if ($lkp && !$ran{$mode}) {
				push(@v, 0, '0.00');
				next;
			}
			push(@v, ok_point($p) ? round($p->{average}) : -1,
			     ok_point($p) ? sprintf('%.2f', $p->{idle_pct}) : -1);
		}
		$linear = $v[0] > $v[2] ? $v[0] : $v[2] if $n == 1;
		$csv .= join(',', $n, @v, $linear * $n) . "\n";
	}
	return $csv;
}

# What LKP's programs/will-it-scale/parse prints for that CSV.
sub lkp_lines {
	my ($csv) = @_;
	my (@names, @scal, @pp, @pt, $s);
	my $work = 0;
	for my $line (split(/\n/, $csv)) {
		if ($line =~ /^[a-z_,]+$/) {
			@names = split(/,/, $line);
			shift(@names);
			next;
		}
		next unless $line =~ /^[0-9.,]+$/;
		my @v = split(/,/, $line);
		my $n = shift(@v);
		next if $n eq '0' || ($v[0] == 0 && $v[2] == 0);
		push(@scal, $v[0] / $v[-1]) if $v[-1] != 0 && $n ne '1';
		push(@pp, $v[0] / $n);
		push(@pt, $v[2] / $n);
		$work += $v[0] + $v[2];
		$s .= "$n.$names[$_]: $v[$_]\n" for 0 .. $#names;
	}
	my $mean = sub { my $t = 0; $t += $_ for @_; int($t / @_) };
	$s .= sprintf("scalability: %f\n", $scal[-1]) if @scal;
	$s .= sprintf("per_process_ops: %d\n", $mean->(@pp)) if @pp;
	$s .= sprintf("per_thread_ops: %d\n", $mean->(@pt)) if @pt;
	$s .= sprintf("workload: %d\n", $work) if $work;
	return $s;
}

sub by_test {
	my %t;
	push(@{$t{$_->{test}}}, $_) for @_;
	return %t;
}

# ---- clean ----
my @clean = records("$fx/clean.wis");
my %clean = by_test(points(@clean));
is(wis('report', "$fx/clean.wis"), 0, 'clean run: wis report exits 0');
my @rows = $out =~ /^(\S+) +(processes|threads) +(\d+) +(\d+) +\d+ +\S+ +(\S+) /mg;
is(scalar(@rows) / 5, scalar(points(@clean)), 'clean run: one table row per point');
my $eff_bad = 0;
for (my $i = 0; $i < @rows; $i += 5) {
	my ($test, $mode, $n, $avg, $eff) = @rows[$i .. $i + 4];
	my ($one) = grep { $_->{mode} eq $mode && $_->{tasks} == 1 } @{$clean{$test}};
	$eff_bad++ if $eff ne sprintf('%.2f', round($avg) / $n / $one->{average})
		&& $eff ne sprintf('%.2f', $avg / $n / $one->{average});
}
is($eff_bad, 0, 'clean run: eff is rate / (tasks x 1-task rate)');
my (@walls, @want_walls);
for my $line ($out =~ /^analysis: .*$/mg) {
	my ($t, $m) = $line =~ /^analysis: (\S+) (\w+):/;
	push(@walls, "$t $m $1->$2") while $line =~ /wall: (\d+) -> (\d+) tasks/g;
}
for my $t (sort keys %clean) {
	for my $m (qw(processes threads)) {
		my @c = sort { $a->{tasks} <=> $b->{tasks} }
			grep { $_->{mode} eq $m && ok_point($_) } @{$clean{$t}};
		for my $i (1 .. $#c) {
			push(@want_walls, "$t $m $c[$i - 1]{tasks}->$c[$i]{tasks}")
				if $c[$i]{average} < $c[$i - 1]{average} * 0.97;
		}
	}
}
is(join(', ', sort @walls), join(', ', sort @want_walls),
   'clean run: a wall is named wherever the rate falls by more than 3 %');
like($out, qr/^warning: \/tmp is ext4, not tmpfs/m,
     'clean run: /tmp not on tmpfs is a warning');

is(wis('report', '--csv', "$fx/clean.wis"), 0, 'clean run: --csv exits 0');
is(scalar(split(/\n/, $out)), 1 + points(@clean), 'clean run: --csv has a header and a row per point');

is(wis('report', '--json', "$fx/clean.wis"), 0, 'clean run: --json exits 0');
is($out, join('', map { /^WIS1 \S{8} (.*)$/ ? "$1\n" : () } split(/\n/, slurp("$fx/clean.wis"))),
   'clean run: --json gives back every payload');

my $rt = "$tmp/runtest";
is(wis('report', '--csv=runtest', '--out', $rt, "$fx/clean.wis"), 0,
   'clean run: --csv=runtest --out DIR exits 0');
my ($bad_cells, $cells) = (0, 0);
for my $t (sort keys %clean) {
	my @want = map { [split(/,/)] } split(/\n/, runtest_csv(@{$clean{$t}}));
	my @got = map { [split(/,/)] } split(/\n/, slurp("$rt/$t.csv"));
	for my $r (0 .. $#want) {
		for my $c (0 .. 5) {
			$cells++;
			next if ($got[$r][$c] // '') eq $want[$r][$c];
			$bad_cells++;
			diag("$t.csv row $r column $c: got " . ($got[$r][$c] // 'nothing') . ", want $want[$r][$c]");
		}
	}
	$bad_cells++ if @got != @want;
}
ok($cells > 0 && !$bad_cells, "clean run: every runtest CSV cell ($cells) as runtest.py writes it");
my %desc = map { /^(\S+)\s+\S+\s+(.*)$/ ? ($1, $2) : () } split(/\n/, `$wis list`);
is(join(' ', map { slurp("$rt/$_.title") eq "$desc{$_}\n" ? 1 : 0 } sort keys %clean),
   join(' ', map { 1 } keys %clean), 'clean run: TEST.title holds the testcase line');

is(wis('report', '--lkp', "$fx/clean.wis"), 0, 'clean run: --lkp exits 0');
my $want_lkp = join('', map { "# $_ (run $clean[0]{run})\n" . lkp_lines(runtest_csv(@{$clean{$_}})) }
		       map { $_->{test} } grep { $_->{type} eq 'point' && $_->{tasks} == 1 && $_->{mode} eq 'processes' } @clean);
is($out, $want_lkp, "clean run: --lkp prints LKP parse's keys of the runtest CSV");

# ---- a failed point ----
my @failed = records("$fx/failed.wis");
my %failed = by_test(points(@failed));
is(wis('report', "$fx/failed.wis"), 1, 'failed point: exit 1');
like($out, qr/^write1 +processes +2 error: write: ENOSPC$/m,
     'failed point: its row gives the status and the reason');
wis('report', '--csv=runtest', '--out', "$tmp/rt-failed", "$fx/failed.wis");
like(slurp("$tmp/rt-failed/write1.csv"), qr/^2,-1,-1,-1,-1,\d+$/m,
     'failed point: -1 in the runtest CSV');
is(slurp("$tmp/rt-failed/write1.csv"), runtest_csv(@{$failed{write1}}),
   'failed point: the rest of the runtest CSV as computed');
wis('report', '--lkp', "$fx/failed.wis");
my ($w1) = $out =~ /^# write1 .*?\n(.*)/ms;
is($w1, lkp_lines(runtest_csv(@{$failed{write1}})),
   'failed point: --lkp skips the -1 row, as LKP does');

# ---- a processes-only sweep (the default mode) ----
# clean.wis without its threads points, framed again: LKP's patched
# runtest.py runs one mode and writes 0 for the other, so LKP's parse
# keeps every row; upstream's runtest CSV keeps -1 for a mode not swept.
my $seq = 0;
open(my $po, '>', "$tmp/processes.wis") or die;
for (split(/\n/, slurp("$fx/clean.wis"))) {
	my ($p) = /^WIS1 \S{8} (\{.*\})$/ or next;
	next if $p =~ /"type":"point"/ && $p =~ /"mode":"threads"/;
	$p =~ s/"seq":\d+/"seq":$seq/;
	$p =~ s/wis\.mode=both/wis.mode=processes/;
	$seq++;
	printf $po "WIS1 %08x %s\n", crc32($p), $p;
}
close($po) or die;
my %po = by_test(points(records("$tmp/processes.wis")));
is(wis('report', '--lkp', "$tmp/processes.wis"), 0, 'processes only: --lkp exits 0');
my $want_po = join('', map { "# $_ (run $clean[0]{run})\n" . lkp_lines(runtest_csv(1, @{$po{$_}})) }
		      map { $_->{test} } grep { $_->{type} eq 'point' && $_->{tasks} == 1 && $_->{mode} eq 'processes' } @clean);
is($out, $want_po, "processes only: --lkp prints LKP parse's keys of LKP's runtest CSV");
like($out, qr/^1\.processes: \d+\n1\.processes_idle: [\d.]+\n1\.threads: 0\n1\.threads_idle: 0\.00\n/m,
     '... every row\'s keys, threads 0 as LKP has them');
like($out, qr/^per_thread_ops: 0$/m, '... and per_thread_ops 0');
wis('report', '--csv=runtest', '--out', "$tmp/rt-po", "$tmp/processes.wis");
is(slurp("$tmp/rt-po/getppid1.csv"), runtest_csv(@{$po{getppid1}}),
   'processes only: --csv=runtest keeps upstream\'s -1');

# ---- incomplete ----
my @inc = records("$fx/incomplete.wis");
is(wis('report', "$fx/incomplete.wis"), 1, 'incomplete run: exit 1');
like($err, qr/incomplete: no end record/, 'incomplete run: named on stderr');
wis('report', '--csv', "$fx/incomplete.wis");
is(scalar(split(/\n/, $out)) - 1, scalar(points(@inc)),
   'incomplete run: every point it has is in the CSV');

# ---- two instances through a barrier against one ----
my @base = points(records("$fx/base.wis"));
my @i0 = points(records("$fx/inst0.wis"));
my @i1 = points(records("$fx/inst1.wis"));
my $rc = wis('compare', "$fx/base.wis", "$fx/inst0.wis", "$fx/inst1.wis");
my ($sums, $want_sums, $off) = ('', '', 0);
for my $k (0 .. $#i0) {
	my $t = $i0[$k]{test};
	my ($a) = grep { $_->{test} eq $t && $_->{tasks} == 2 } @base;
	my $b = $i0[$k]{average} + $i1[$k]{average};
	my $r = $b / $a->{average};
	my $ctl = $t =~ /^(getppid1|futex4|poll2)$/;
	$off++ if $ctl && abs($r - 1) > 0.03;
	$want_sums .= sprintf("%s %.0f %.0f %.2f %s\n", $t, $a->{average}, $b, $r,
			      !$ctl ? '-' : abs($r - 1) > 0.03 ? 'control off' : 'control ok');
	$sums .= "$t $1 $2 $3 " . ($4 || '-') . "\n"
		if $out =~ /^$t +processes +2 +(\d+) +(\d+) +([\d.]+)  (control \w+)?$/m;
}
is($sums, $want_sums,
   'instances: B is the sum of both instances at 2 tasks in all, checked per control');
is($rc, $off ? 3 : 0, 'instances: exit 3 exactly when a control is off');
my $overlapping = 0;
for my $k (0 .. $#i0) {
	my @p = ($i0[$k], $i1[$k]);
	my ($start) = sort { $b <=> $a } map { $_->{window_start_ns} - $_->{barrier_release_ns} } @p;
	my ($end) = sort { $a <=> $b } map { $_->{window_end_ns} - $_->{barrier_release_ns} } @p;
	my ($skew) = sort { $b <=> $a } map { $_->{barrier_skew_ns} } @p;
	$overlapping++ if $start + $skew < $end;
}
is($overlapping, scalar(@i0), "instances: the fixture's windows overlap at every point");
unlike($out, qr/no overlap/, 'instances: so no point is flagged');

is(wis('compare', "$fx/clean.wis", "$fx/clean.wis"), 0,
   'a run against itself: exit 0');
my @ratios = $out =~ /^\S+ +(?:processes|threads) +\d+ +\d+ +\d+ +([\d.]+)/mg;
is(scalar(grep { $_ ne '1.00' } @ratios) . ' of ' . scalar(@ratios), '0 of ' . scalar(points(@clean)),
   'a run against itself: 1.00 at every point');

# ---- by hand: one instance against two, windows known ----
sub emit { system($wis, 'emit', '--out', "file:$tmp/$_[0]", '--run', @_[1 .. $#_]) == 0 or die }
emit('one.wis', 'one', qw(--seq 0 run id=one kernel=k));
emit('one.wis', 'one', '--seq', $_->[0], 'point', "test=$_->[1]", 'mode=processes',
     'tasks:=2', 'status=ok', "average:=$_->[2]")
	for [1, 'unlink1', 1000], [2, 'getppid1', 2000], [3, 'futex4', 3000];
emit('one.wis', 'one', qw(--seq 4 end status=ok));
# Release at 1000 ns in i0's clock, 5000 in i1's: unlink1's windows are
# offsets 100..1100 and 1150..2150 (apart), the others 100..1100, 200..1200.
for my $i ([0, 1000, 600, 1000, 1600], [1, 5000, 500, 1020, 1500]) {
	my ($n, $rel) = @$i[0, 1];
	emit("two.wis", "i$n", qw(--seq 0 run), "id=i$n", 'kernel=k', 'barrier_campaign=c');
	for my $p ([1, 'unlink1', $i->[2], $n ? 1150 : 100], [2, 'getppid1', $i->[3], 100 + 100 * $n],
		   [3, 'futex4', $i->[4], 100 + 100 * $n]) {
		emit('two.wis', "i$n", '--seq', $p->[0], 'point', "test=$p->[1]", 'mode=processes',
		     'tasks:=1', 'status=ok', "average:=$p->[2]", "barrier_gen:=$p->[0]",
		     'barrier_release_ns:=' . $rel, 'barrier_skew_ns:=10',
		     'window_start_ns:=' . ($rel + $p->[3]), 'window_end_ns:=' . ($rel + $p->[3] + 1000));
	}
	emit('two.wis', "i$n", qw(--seq 4 end status=ok));
}
$rc = wis('compare', "$tmp/one.wis", "$tmp/two.wis");
is($rc, 3, 'by hand: a control off and windows apart: exit 3');
my @lines = grep { /^(getppid1|futex4|unlink1) / } split(/\n/, $out);
s/ +/ /g for @lines;
is(join("\n", @lines), join("\n", 'getppid1 processes 2 2000 2020 1.01 control ok',
			   'futex4 processes 2 3000 3100 1.03 control off',
			   'unlink1 processes 2 1000 - - no overlap'),
   'by hand: controls first, sums, ratios, a control outside 1.00 +/- 0.03, windows apart left out');
like($out, qr/^warning: futex4 processes 2 tasks: control at B\/A 1\.03, outside 1\.00 \+\/- 0\.03$/m,
     'by hand: the control outside tolerance is warned about');
wis('compare', '--force', "$tmp/one.wis", "$tmp/two.wis");
like($out, qr/^unlink1 +processes +2 +1000 +1100 +1\.10  no overlap$/m,
     'by hand: --force adds the points apart in, still flagged');
wis('compare', '--csv', "$tmp/one.wis", "$tmp/two.wis");
is($out, "test,mode,tasks,a,b,ratio,check\ngetppid1,processes,2,2000,2020,1.01,control ok\n"
	 . "futex4,processes,2,3000,3100,1.03333333333333,control off\nunlink1,processes,2,1000,,,no overlap\n",
   'by hand: the comparison as CSV');
wis('compare', '--json', "$tmp/one.wis", "$tmp/two.wis");
is((split(/\n/, $out))[1], '{"test":"futex4","mode":"processes","tasks":2,"a":3000,"b":3100,"ratio":1.03333333333333,"check":"control off"}',
   'by hand: the comparison as JSON lines');

# ---- plots ----
SKIP: {
	skip('gnuplot is not installed', 6) unless `sh -c 'command -v gnuplot'`;
	my $pd = "$tmp/plot";
	is(wis('report', '--plot', $pd, "$fx/clean.wis"), 0, '--plot exits 0');
	my ($svg_ok, $png_ok) = (0, 0);
	for my $t (sort keys %clean) {
		my $svg = slurp("$pd/$t.svg");
		$svg_ok++ if $svg =~ /^<\?xml/ && $svg =~ /<svg\b[^>]*viewBox="0 0 900 540"/ && $svg =~ /<\/svg>\s*$/;
		my $png = slurp("$pd/$t.png");
		my ($w, $h) = unpack('NN', substr($png, 16, 8));
		$png_ok++ if substr($png, 0, 8) eq "\x89PNG\r\n\x1a\n" && substr($png, 12, 4) eq 'IHDR'
			&& $w == 900 && $h == 540 && length($png) > 5000;
	}
	is($svg_ok, scalar(keys %clean), '--plot: an SVG of 900x540 per test');
	is($png_ok, scalar(keys %clean), '--plot: a PNG of 900x540 per test');
	my $html = slurp("$pd/index.html");
	is(scalar(() = $html =~ /<img src="[^"]+\.svg"/g), scalar(keys %clean),
	   'index.html shows every plot');
	unlike($html, qr{://}, 'index.html loads nothing from the network');
	like($html, qr{<th>committed_as_batch_pages</th>}, 'index.html holds the environment audit');
}
{
	local $ENV{PATH} = '/nonexistent';
	is(wis('report', '--plot', "$tmp/noplot", "$fx/clean.wis"), 2, 'no gnuplot: exit 2');
	like($err, qr/--plot needs gnuplot, which is not installed \(Debian: apt-get install gnuplot-nox\)/,
	     'no gnuplot: the message says what to install');
}
is(wis('report', '--csv=runtest', "$fx/clean.wis"), 2, '--csv=runtest without a directory: usage, exit 2');

done_testing();
