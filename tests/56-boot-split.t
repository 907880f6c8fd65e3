#!/usr/bin/perl
# The split experiment in QEMU (TCG): qemu/split runs the sweep in one
# guest, then in two guests released together through one shared
# backing file, whose windows overlap at every point, and prints the
# comparison; a guest whose peer never boots ends with an error record
# naming it, in an intact stream.
use strict;
use warnings;
use File::Temp qw(tempdir);
use List::Util qw(max min);
use Test::More;
use lib 'tests/lib';
use WisBoot;

require_image();

my @keys = ('wis.tests=getppid1,futex4,unlink1', 'wis.interval=100',
	    'wis.samples=2', 'wis.warmup=1');
my $tmp = tempdir(CLEANUP => 1);

# The overlap rule of docs/architecture.md, on the records of one point from each instance.
sub overlap {
	my @p = @_;
	my $start = max(map { $_->{window_start_ns} - $_->{barrier_release_ns} } @p);
	my $end = min(map { $_->{window_end_ns} - $_->{barrier_release_ns} } @p);
	return $start + max(map { $_->{barrier_skew_ns} } @p) < $end;
}

sub points { grep { $_->{type} eq 'point' } @_ }

my $dir = "$tmp/split";
my $rc = run_logged("$tmp/split", 'qemu/split', '--cpus', 2, '--instances', 2,
		    '--accel', 'tcg', '--pin', '0-1', '--out', $dir, '--', @keys);
is($rc, 0, 'qemu/split --cpus 2 --instances 2 exits 0')
	or diag(slurp("$tmp/split.err"));
my $out = slurp("$tmp/split.out");
like(slurp("$tmp/split.err"), qr/TCG: figures are functional only/,
     'under TCG it says the figures are functional only');
like(slurp("$dir/one/qemu.cmd"), qr/^taskset -c 0\\?,1 /,
     'the one guest runs on host CPUs 0 and 1');
like(slurp("$dir/split/i1/qemu.cmd") . slurp("$dir/split/i2/qemu.cmd"),
     qr/^taskset -c 0 .*^taskset -c 1 /ms, '... the two guests on one each');
my @one = records("$dir/one/virtio.wis");
is(scalar(points(@one)), 6, 'the one guest measured 3 tests at 1 and 2 tasks');
my @i1 = records("$dir/split/i1/virtio.wis");
my @i2 = records("$dir/split/i2/virtio.wis");
ok(defined $i1[0]{barrier_campaign} &&
   $i1[0]{barrier_campaign} eq ($i2[0]{barrier_campaign} // ''),
   'the two guests met in one campaign');
is($i1[0]{instance} . $i2[0]{instance}, '01', '... as instances 0 and 1');
my @p1 = points(@i1);
my @p2 = points(@i2);
is(scalar(@p1) . ' ' . scalar(@p2), '3 3', 'each guest measured 3 points');
is(scalar(grep { overlap($p1[$_], $p2[$_]) } 0 .. $#p1), 3,
   'their windows overlap at every point');
like($out, qr/^getppid1\s+processes\s+2\s+\d+\s+\d+\s+[\d.]+\s+control (ok|off)$/m,
     'the comparison sums the two guests against the one at 2 tasks');
like($out, qr/^getppid1 .*^futex4 .*^unlink1 /ms,
     '... test by test, the controls first');
like($out, qr/^ok +the instances met in one barrier campaign$/m,
     'the fairness checks ran on the records');
unlike($out, qr/^FAIL/m, '... and none failed');
unlike($out, qr/no overlap/, 'every summed point came from overlapping windows');

# The peer of a lone guest never boots.
my $lone = "$tmp/lone";
$rc = run_logged("$tmp/lone", 'qemu/run', '--accel', 'tcg', '--smp', 1,
		 '--barrier', '--out', $lone, '--', 'wis.tests=getppid1',
		 'wis.tasks=1', 'wis.interval=100', 'wis.samples=1',
		 'wis.warmup=0', 'wis.instances=2', 'wis.barrier_timeout=3');
is($rc, 1, 'a guest whose peer never comes makes qemu/run exit 1');
my @lone = records("$lone/virtio.wis");
is(join(' ', grep { $_ ne 'warn' } map { $_->{type} } @lone), 'run error end',
   '... its stream: run, error, end');
my ($err) = grep { $_->{type} eq 'error' } @lone;
like($err->{message} // '', qr/instance 1 never joined/,
     '... the error names the missing instance');
is(join(',', map { $_->{seq} } @lone), join(',', 0 .. $#lone),
   '... and no record is missing');
like(slurp("$tmp/lone.out"), qr/status: complete, end error/,
     'wis report calls the run complete, ended in error');

# Options that cannot work are refused before anything boots.
for my $case ([ 'qemu/split', '--cpus', 3 ],
	      [ 'qemu/split', '--cpus', 2, '--numa', 3 ],
	      [ 'qemu/run', '--instances', 2, '--pin', '0-2' ],
	      [ 'qemu/run', '--pin', 'x' ]) {
	my $cmd = join(' ', @$case);
	is(run_logged("$tmp/bad", @$case), 2, "$cmd: exit 2");
	like(slurp("$tmp/bad.err"), qr/(does not split evenly|do not split evenly|not a CPU list)/,
	     '... saying why');
}

done_testing();
