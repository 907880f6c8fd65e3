#!/usr/bin/perl
# Guest memory: qemu/run refuses a --mem below the floor its image's
# kernel boots in, and the guest boots at the floor and at 128 MB (which
# deadlocked on bounce buffers before swiotlb=noforce).  A guest that
# leaves no end record has its console's panic printed by the runner.
use strict;
use warnings;
use File::Temp qw(tempdir);
use Test::More;
use lib 'tests/lib';
use WisBoot;

require_image();

my $tmp = tempdir(CLEANUP => 1);
my @quick = ('wis.tests=getppid1', 'wis.tasks=1', 'wis.samples=1',
	     'wis.warmup=0', 'wis.interval=100');

my $rc = run_logged("$tmp/low", 'qemu/run', '--accel', 'tcg', '--mem', 79,
		    '--out', "$tmp/low", '--', @quick);
is($rc, 2, '--mem 79: refused with exit 2');
like(slurp("$tmp/low.err"),
     qr/^qemu\/run: --mem 79: the image's kernel needs at least 80 MB to boot$/m,
     '... naming the floor');
ok(!-e "$tmp/low", '... before anything is made');

$rc = run_logged("$tmp/small", 'qemu/run', '--accel', 'tcg', '--mem', 256,
		 '--out', "$tmp/small", '--', 'wis.preset=numa');
is($rc, 2, '--mem 256 for page_fault1 at 2 tasks: refused with exit 2');
like(slurp("$tmp/small.err"),
     qr/^qemu\/run: --mem 256 cannot hold the sweep: it needs --mem 336 or more/m,
     '... naming the size it needs');
ok(!-e "$tmp/small", '... before anything is made');

for my $mem (80, 128) {
	$rc = run_logged("$tmp/m$mem", 'qemu/run', '--accel', 'tcg', '--mem',
			 $mem, '--timeout', 300, '--out', "$tmp/m$mem", '--',
			 @quick);
	my @r = records("$tmp/m$mem/virtio.wis");
	is($rc, 0, "--mem $mem: the guest boots and its run succeeds")
		or diag(slurp("$tmp/m$mem.err"));
	is(($r[-1]{type} // '') . ' ' . ($r[-1]{status} // ''), 'end ok',
	   '... with an end ok record');
}

# Too small on purpose: the OOM killer takes page_fault1's tasks, and
# the guest's records say so.
$rc = run_logged("$tmp/oom", 'qemu/run', '--accel', 'tcg', '--mem', 200,
		 '--no-mem-check', '--timeout', 200, '--out', "$tmp/oom", '--',
		 'wis.tests=page_fault1', 'wis.tasks=2', 'wis.mode=both',
		 'wis.samples=2', 'wis.warmup=0', 'wis.interval=1500');
is($rc, 1, '--mem 200 --no-mem-check, page_fault1 x2: the run fails, exit 1')
	or diag(slurp("$tmp/oom.err"));
my @oom = grep { $_->{type} eq 'point' } records("$tmp/oom/virtio.wis");
is(join(' ', map { "$_->{mode}:$_->{status}" } @oom),
   'processes:oom-killed threads:oom-killed',
   '... both points oom-killed in the guest\'s records');
like(slurp("$tmp/oom.out"), qr/^page_fault1 +threads +2 oom-killed: killed by the OOM killer/m,
     '... and in the report');

$rc = run_logged("$tmp/panic", 'qemu/run', '--accel', 'tcg', '--timeout',
		 120, '--out', "$tmp/panic", '--', 'rdinit=/nonexistent',
		 @quick);
my $err = slurp("$tmp/panic.err");
isnt($rc, 0, 'a guest whose kernel panics: the runner fails');
like($err, qr/^qemu\/run: guest i1 wrote no end record; its console ends:$/m,
     '... says there was no end record');
like($err, qr/^  i1\| .*Kernel panic - not syncing: VFS: Unable to mount root/m,
     '... and prints the panic from the console');

done_testing();
