#!/usr/bin/perl
# wis compare A... -- B... on a run recorded with wis.repeat=5
# (tests/fixtures/repeats.wis), with known differences injected: a 5 %
# change with tight repeats, the same 5 % over the recorded (wide)
# repeats, a failed repeat, a control off, too few repeats; the bootstrap
# reproducible; and --bisect's exit codes through a real git bisect run.
use strict;
use warnings;
use Compress::Zlib qw(crc32);
use Test::More;
use lib 'tests/lib';
use WisReport;

my $fixture = 'tests/fixtures/repeats.wis';

# The recorded median of each test's repeats.
my %median;
{
	my %rates;
	for (split(/\n/, slurp($fixture))) {
		next unless /"type":"point","test":"(\w+)".*"average":([0-9.e+]+)/;
		push(@{$rates{$1}}, $2);
	}
	for my $t (keys %rates) {
		my @s = sort { $a <=> $b } @{$rates{$t}};
		$median{$t} = $s[@s >> 1];
	}
}
ok(keys(%median) == 5 && $median{brk1} > 0,
   'the fixture holds 5 tests with their repeats');

# derive NAME RUN EDIT: the fixture as run RUN in $tmp/NAME.wis, each
# point record's payload passed through EDIT(test, repeat, payload), which
# returns the payloads to write in its place, numbered again and each
# frame checksummed again; HEAD, if given, edits the run record so.
sub derive {
	my ($name, $run, $edit, $head) = @_;
	open(my $o, '>', "$tmp/$name.wis") or die;
	my $seq = 0;
	for (split(/\n/, slurp($fixture))) {
		my ($p) = /^WIS1 \S{8} (\{.*\})$/ or next;
		$p =~ s/"run":"[^"]*"/"run":"$run"/;
		my @out = ($p);
		@out = $head->($p) if $head && $p =~ /"type":"run"/;
		if ($p =~ /"type":"point","test":"(\w+)".*"repeat":(\d+)/) {
			@out = $edit->($1, $2, $p);
		}
		for my $q (@out) {
			$q =~ s/"seq":\d+/'"seq":' . $seq++/e;
			printf $o "WIS1 %08x %s\n", crc32($q), $q;
		}
	}
	close($o) or die;
	return "$tmp/$name.wis";
}

sub set_rate {
	my ($p, $rate) = @_;
	$p =~ s/"average":[^,}]+/"average":$rate/;
	return $p;
}

# Tight repeats: the recorded median +-0.4 %, times factor for test.
my @jitter = (-0.004, -0.002, 0, 0.002, 0.004);
sub tight {
	my ($test, $factor) = @_;
	return sub {
		my ($t, $r, $p) = @_;
		my $f = $t eq $test ? $factor : 1;
		return set_rate($p, $median{$t} * (1 + $jitter[$r]) * $f);
	};
}

# The verdict column of TEST's row in the table.
sub verdict {
	my ($test) = @_;
	my ($line) = grep { /^\Q$test\E / } split(/\n/, $out);
	return $line && $line =~ /\s{2}(improved|regressed|no change|undecided)(?: \((.*)\))?$/ ?
	       ($2 ? "$1 ($2)" : $1) : '';
}

my $a = derive('a', 'a-1', tight('', 1));
my $b = derive('b', 'b-1', tight('brk1', 0.95));
is(wis('compare', $a, '--', $b), 0, 'tight repeats: exit 0');
is(verdict('brk1'), 'regressed', '... brk1 5 % slower with tight repeats: regressed');
is(verdict('getppid1'), 'no change', '... the control: no change');
is(verdict('open1'), 'no change', '... an unchanged test: no change');
like($out, qr/^brk1 .* -5\.0% /m, '... %change -5.0 %');
my $table = $out;
is(wis('compare', $b, '--', $a), 0, 'the other way round');
is(verdict('brk1'), 'improved', '... brk1 improved');

wis('compare', $a, '--', $b);
is($out, $table, 'the bootstrap interval is the same from run to run');

my $a2 = derive('a2', 'a-2', tight('', 1));
wis('compare', $a, $a2, '--', $b);
like($out, qr/^brk1 +processes +1 +10 /m, 'two runs on a side: 10 repeats of A');
like($out, qr/^A: 2 runs, 10 repeats; kernel \S+ on rep: 2 runs, 10 repeats \(a-1, a-2\)$/m,
     '... the side summed up, both runs named');

# A side of many runs: counted per kernel and machine, in the order
# each group first comes, its runs named only when a group has few.
my @fleet;
for my $i (1 .. 6) {
	my ($kernel, $board) = $i == 1 ? ('k2', 'b2') : $i == 6 ? ('k2', 'b1') : ('k1', 'b1');
	push(@fleet, derive("f$i", "f-$i", tight('', 1), sub {
		my ($p) = @_;
		$p =~ s/"kernel":"[^"]*"/"kernel":"$kernel"/;
		$p =~ s/"id":"[^"]*"/"id":"$board"/;
		return $p;
	}));
}
wis('compare', @fleet, '--', $b);
is((split(/\n/, $out))[0], 'A: 6 runs, 30 repeats; kernel k2 on b2: 1 run, 5 repeats (f-1); ' .
   'kernel k1 on b1: 4 runs, 20 repeats; kernel k2 on b1: 1 run, 5 repeats (f-6)',
   'a side of six runs: one group per kernel and machine, four runs counted');
like($out, qr/^B: 1 run, 5 repeats; kernel \S+ on rep: 1 run, 5 repeats \(b-1\)$/m,
     '... the other side alone on its line');

my $wide = derive('wide', 'w-1', sub { set_rate($_[2], 0 + ($_[2] =~ /"average":([^,}]+)/)[0] * ($_[0] eq 'brk1' ? 1.05 : 1)) });
is(wis('compare', $fixture, '--', $wide), 0, 'recorded (wide) repeats, brk1 5 % faster: exit 0');
is(verdict('brk1'), 'no change', '... the repeats overlap: no change');

my $failed = derive('failed', 'f-1', sub {
	my ($t, $r, $p) = @_;
	$p = tight('brk1', 0.95)->($t, $r, $p);
	$p =~ s/"status":"ok"/"status":"error","message":"planted"/ if $t eq 'brk1' && $r == 2;
	return $p;
});
wis('compare', $a, '--', $failed);
is(verdict('brk1'), 'undecided (a failed point)', 'a failed repeat: undecided');
is(verdict('open1'), 'no change', '... the other points still judged');

# A repeat the machine spoiled (noisy) is set aside, not a failure: the
# row stands on its other repeats and counts it apart.
my $spoiled = derive('spoiled', 's-1', sub {
	my ($t, $r, $p) = @_;
	$p = tight('brk1', 0.95)->($t, $r, $p);
	$p =~ s/"status":"ok"/"status":"noisy"/ if $t eq 'brk1' && $r == 2;
	return $p;
});
wis('compare', $a, '--', $spoiled);
like($out, qr/^brk1 .* 4 .*  regressed; 1 set aside \(noisy or starved\)$/m,
     'a noisy repeat: set aside, the other 4 judged');
wis('compare', '--csv', $a, '--', $spoiled, $failed);
like($out, qr/^brk1,processes,1,.*,undecided,a failed point,1,1$/m,
     '... --csv counts the failed and the set-aside repeats apart');
wis('compare', '--json', $a, '--', $spoiled);
like($out, qr/\{"test":"brk1",.*"failed":0,"aside":1\}/, '... and --json');
wis('report', $spoiled, $failed);
like($out, qr/^brk1 +processes +1 +4 .*  \(1 set aside: noisy or starved\)$/m,
     "wis report's spreads: the noisy repeat set aside");
like($out, qr/^brk1 +processes +1 +4 .*  \(1 failed\)$/m, '... the failed one failed');

my $off = derive('off', 'o-1', tight('getppid1', 0.90));
is(wis('compare', $a, '--', $off), 3, 'a control 10 % off: exit 3');
like((split(/\n/, $out))[0], qr/^controls off, every verdict undecided: getppid1 processes 1 tasks at B\/A 0\.900/,
     '... said on the first line');
is(verdict('open1'), 'undecided (a control off)', '... every verdict undecided');
is(verdict('getppid1'), 'undecided (a control off)', '... the control too');
wis('compare', '--csv', $a, '--', $off);
like($err, qr/^controls off/, '... with --csv said first on stderr');

wis('compare', '--min-repeats', '6', $a, '--', $b);
is(verdict('brk1'), 'undecided (too few repeats)', '--min-repeats 6 over 5 repeats: undecided');
wis('compare', '--min-ratio', '1.06', $a, '--', $b);
is(verdict('brk1'), 'no change', '--min-ratio 1.06 over a 5 % change: no change');

is(wis('compare', '--csv', $a, '--', $b), 0, '--csv: exit 0');
is((split(/\n/, $out))[0],
   'test,mode,tasks,a_n,a_median,a_stddev_pct,a_min,a_max,b_n,b_median,b_stddev_pct,b_min,b_max,change_pct,ratio_lo,ratio_hi,floor_pct,verdict,why,failed,aside',
   '... its header');
like($out, qr/^brk1,processes,1,5,[0-9.]+,[0-9.]+,[0-9.]+,[0-9.]+,5,[0-9.]+,[0-9.]+,[0-9.]+,[0-9.]+,-5(\.0*\d*)?,0\.9[0-9]*,0\.9[0-9]*,[0-9.]+,regressed,,0,0$/m,
     '... brk1 regressed, its interval below 1');
is(wis('compare', '--json', $a, '--', $b), 0, '--json: exit 0');
like($out, qr/\{"test":"brk1","mode":"processes","tasks":1,"a_n":5,.*"verdict":"regressed","why":"","failed":0,"aside":0\}/,
     '... brk1 regressed');

SKIP: {
	skip('no gnuplot', 2) if system('command -v gnuplot >/dev/null') != 0;
	is(wis('compare', '--plot', "$tmp/plot", $a, '--', $b), 0, '--plot: exit 0');
	my ($gp) = grep { /\bbrk1\b/ } split /\n(?=set terminal svg)/, slurp("$tmp/plot/plots.gp");
	my ($dat) = ($gp // '') =~ /'(d\d+\.dat)'/;
	like(slurp("$tmp/plot/" . ($dat // 'none')), qr/^1(?: [0-9.]+){6}$/m,
	     "... brk1's data: tasks, each side's median, min and max");
}

is(wis('compare', '--bisect', 'brk1', $a, '--', $b), 1, '--bisect brk1: regressed, exit 1');
is(wis('compare', '--bisect', 'brk1/processes/1', $a, '--', $a2), 0, '--bisect brk1/processes/1 unchanged: exit 0');
is(wis('compare', '--bisect', 'brk1/processes', $a, '--', $failed), 125, '--bisect over a failed repeat: exit 125');
is(wis('compare', '--bisect', 'nosuch', $a, '--', $b), 128, '--bisect of no such test: exit 128');
like($err, qr/--bisect nosuch: no such point/, '... named');

is(wis('report', $fixture), 0, 'wis report of the repeats: exit 0');
like($out, qr/^repeats: 5 passes over the sweep/m, '... the spreads are shown');
my $brk1 = sprintf('%.0f', $median{brk1});
like($out, qr/^brk1 +processes +1 +5 +$brk1 +[0-9.]+% +\d+-\d+$/m,
     "... brk1's median, spread and range");
unlike($out, qr/1 -> 1 tasks/, '... no wall between the repeats of one point');
my $noisy = derive('noisy', 'n-1', sub {
	my ($t, $r, $p) = @_;
	$p = tight('', 1)->($t, $r, $p);
	return $t eq 'open1' && $r == 1 ? set_rate($p, $median{open1} / 2) : $p;
});
wis('report', $noisy);
like($out, qr/^open1 .*  !$/m, "... an open1 repeat at half the rate: marked above the controls' spread");
unlike($out, qr/^brk1 .*  !$/m, '... the tight brk1 is not');
wis('report', '--csv', $fixture);
like($out, qr/^rep-[^,]+,rep,brk1,processes,1,4,core,/m, '--csv: a row per repeat, with its repeat');

# The run-to-run noise: every test at tasks 1-4 (20 points), tight
# repeats, each point of B moved by up to 2.5 % as whole runs move here,
# and brk1 at 1 task 15 % slower.
my @scatter = (0.975, 1.02, 0.985, 1.025, 0.99, 1.015, 0.98, 1.01, 1.0, 0.978,
	       1.022, 0.988, 1.012, 0.982, 1.018, 0.992, 1.008, 0.976, 1.024, 1.0);
my %point_of = (getppid1 => 0, futex4 => 1, poll2 => 2, brk1 => 3, open1 => 4);
sub widened {
	my ($moved) = @_;
	return sub {
		my ($t, $r, $p) = @_;
		my @out;
		for my $tasks (1 .. 4) {
			my $i = $point_of{$t} * 4 + $tasks - 1;
			my $f = $moved ? $scatter[$i] : 1;
			$f = 0.85 if $moved && $t eq 'brk1' && $tasks == 1;
			my $q = tight($t, $f)->($t, $r, $p);
			$q =~ s/"tasks":1,/"tasks":$tasks,/;
			push(@out, $q);
		}
		return @out;
	};
}
my $wa = derive('wide-a', 'wa-1', widened(0));
my $wb = derive('wide-b', 'wb-1', widened(1));
is(wis('compare', $wa, '--', $wb), 0, 'points moved by up to 2.5 %, tight repeats: exit 0');
like($out, qr/^noise floor: .* run-to-run noise [12]\.\d % \(scatter of B\/A over 20 points\)$/m, '... the noise measured over the 20 points');
is(scalar(grep { /no change \(within run-to-run noise\)$/ } split(/\n/, $out)) >= 6, 1,
   '... the moved points: no change, within run-to-run noise');
my ($brk1_row) = grep { /^brk1 +processes +1 / } split(/\n/, $out);
like($brk1_row, qr/-1[56]\.\d%.*regressed$/, '... brk1 at 1 task 15 % slower: still regressed');
wis('compare', '--noise-z', '0', $wa, '--', $wb);
is(scalar(grep { /(?:improved|regressed)$/ } split(/\n/, $out)) > 6, 1,
   '--noise-z 0: LKP\'s rule alone calls the moved points changed');
is(wis('compare', '--noise-z', 'x', $wa, '--', $wb), 2, '--noise-z x: exit 2');
like($err, qr/--noise-z/, '... naming the option');

# git bisect run over commits that switch between the recorded runs:
# c1 good (the base), c2 good, c3 a failed repeat (skipped), c4 good,
# c5 the first regressed, c6 regressed.
my $repo = "$tmp/repo";
my @commits = (
	[ c1 => 'a2.wis' ], [ c2 => 'a2.wis' ], [ c3 => 'failed.wis' ],
	[ c4 => 'a2.wis' ], [ c5 => 'b.wis' ], [ c6 => 'b.wis' ],
);
my $git = "git -C '$repo' -c user.name=t -c user.email=t\@t";
system("git init -q '$repo'") == 0 or die;
for my $c (@commits) {
	open(my $f, '>', "$repo/run") or die;
	print $f "$tmp/$c->[1]\n";
	close($f);
	system("$git add run && $git commit -q --allow-empty -m $c->[0]") == 0 or die;
}
open(my $s, '>', "$tmp/check.sh") or die;
print $s "#!/bin/sh\nexec '$wis' compare --bisect brk1 '$a' -- \"\$(cat run)\" >/dev/null 2>&1\n";
close($s);
chmod(0755, "$tmp/check.sh");
my $log = `cd '$repo' && git bisect start HEAD HEAD~5 >/dev/null && git bisect run '$tmp/check.sh' 2>&1`;
my $first = `$git log -1 --format=%s refs/bisect/bad`;
chomp($first);
is($first, 'c5', 'git bisect run finds c5, the first regressed commit');
like(`cd '$repo' && git bisect log`, qr/^git bisect skip /m, '... skipping c3 (exit 125)');
like($log, qr/is the first bad commit/, '... and says so');

done_testing();
