#!/usr/bin/perl
# Interrupted runs.  A guest killed in the middle of its sweep leaves the
# points it had written, readable, in a run that wis report calls
# incomplete.  A runner killed outright takes its guest with it, and the
# next run removes the temporary directory it left.  A guest still
# running at the deadline is killed, and the runner says so.  A runner
# stopped by SIGTERM takes its guest down with it and leaves none of its
# temporary files behind.
use strict;
use warnings;
use File::Temp qw(tempdir);
use Test::More;
use lib 'tests/lib';
use WisBoot;
use Time::HiRes qw(sleep time);

require_image();

# A sweep of many short points, long enough to be caught in the middle.
my @keys = ('wis.tests=getppid1,open1,page_fault1,mmap1', 'wis.tasks=1,2',
	    'wis.mode=both', 'wis.interval=200', 'wis.samples=2',
	    'wis.warmup=1');

sub alive { return kill(0, $_[0]) }

# No such process, or one that only waits to be reaped.
sub gone { return slurp("/proc/$_[0]/stat") !~ /^\d+ \(.*\) [^Z]/ }

sub qemu_pid {
	my $pid = slurp("$_[0]/qemu.pid");
	return $pid =~ /^(\d+)/ ? $1 : 0;
}

my $tmp = tempdir(CLEANUP => 1);
mkdir("$tmp/scratch") or die;
$ENV{TMPDIR} = "$tmp/scratch";

# --- the guest dies mid-sweep ------------------------------------------

my $dir = "$tmp/killed";
my $runner = start_logged("$tmp/killed", 'qemu/run', '--accel', 'tcg',
			  '--timeout', 420, '--out', $dir, '--', @keys);
# Room for TCG on a busy machine: the guest is killed at its first point.
my $first = wait_for(360, sub { slurp("$dir/virtio.wis") =~ /"type":"point"/ });
ok($first, 'a first point arrives through virtio')
	or diag(slurp("$dir/console.log"));
my $qemu = qemu_pid($dir);
kill('KILL', $qemu) if $qemu;
waitpid($runner, 0);
my $rc = $? >> 8;
ok($qemu && gone($qemu), 'the guest is killed and gone');
my $err = slurp("$tmp/killed.err");
isnt($rc, 0, 'qemu/run fails');
like($err, qr/qemu exited with status 137/, '... and says how the guest died');

my @r = records("$dir/virtio.wis");
my @points = grep { $_->{type} eq 'point' } @r;
ok(@points >= 1 && @points < 16, 'the points written before the kill are there')
	or diag(scalar(@points));
ok(!grep({ $_->{type} eq 'end' } @r), '... in a run without an end record');
ok(!grep({ $_->{status} ne 'ok' } @points), '... each of them whole and ok');
my @pmem = records("$dir/pmem.img");
is_deeply([@pmem[0 .. $#r]], \@r, 'pmem holds them too');
my $report = `$wis report $dir/virtio.wis $dir/pmem.img 2>&1`;
isnt($? >> 8, 0, 'wis report fails on it');
like($report, qr/incomplete/, '... and calls the run incomplete');
like(slurp("$tmp/killed.out"), qr/incomplete/, 'qemu/run printed that report');

# --- the runner is killed outright ------------------------------------

$dir = "$tmp/orphaned";
$runner = start_logged("$tmp/orphaned", 'qemu/run', '--accel', 'tcg',
		       '--out', $dir, '--', @keys);
$qemu = wait_for(30, sub { qemu_pid($dir) });
ok($qemu && alive($qemu), 'a guest is running');
kill('KILL', $runner);
waitpid($runner, 0);
ok(wait_for(10, sub { !alive($qemu) }),
   '... and gone soon after its runner was killed with SIGKILL');
my @scratch = glob("$tmp/scratch/*");
ok(@scratch == 1, '... which left its temporary directory') or diag(@scratch);

# --- the deadline passes ---------------------------------------------

$dir = "$tmp/late";
my $start = time();
$runner = start_logged("$tmp/late", 'qemu/run', '--accel', 'tcg',
		       '--timeout', 5, '--out', $dir, '--', 'wis.tests=getppid1',
		       'wis.samples=100');
waitpid($runner, 0);
$rc = $? >> 8;
cmp_ok(time() - $start, '<', 15, 'a runner with --timeout 5 is done in time');
isnt($rc, 0, '... fails');
like(slurp("$tmp/late.err"), qr/guest i1 still running at the 5 s deadline: killed/,
     '... and says it killed its guest at the deadline')
	or diag(slurp("$tmp/late.err"));
@scratch = glob("$tmp/scratch/*");
ok(!@scratch, '... having removed the directory the killed runner left')
	or diag(@scratch);

# --- the runner gets SIGTERM -----------------------------------------

$dir = "$tmp/stopped";
$runner = start_logged("$tmp/stopped", 'qemu/run', '--accel', 'tcg',
		       '--out', $dir, '--', @keys);
$qemu = wait_for(30, sub { qemu_pid($dir) });
ok($qemu && alive($qemu), 'a second guest is running');
@scratch = glob("$tmp/scratch/*");
ok(@scratch == 1, 'its runner made one temporary directory');
kill('TERM', $runner);
waitpid($runner, 0);
is($?, 143 << 8, 'the runner exits with 128 + SIGTERM');
ok(wait_for(5, sub { !alive($qemu) }), '... its guest is gone');
@scratch = glob("$tmp/scratch/*");
ok(!@scratch, '... and so are its temporary files') or diag(@scratch);
ok(-d $dir, 'the results directory stays');
like(slurp("$tmp/stopped.err"), qr/TERM: stopping the guests/,
     'the runner says why it stopped');

done_testing();
