#!/usr/bin/perl
# Several guests from one runner: each gets its own directory (DIR/iN)
# and instance label (wis.id=ID-iN), and the runner reports each.  With
# --console their consoles, records left out, show on stderr, a line
# each under the guest's name.
use strict;
use warnings;
use File::Temp qw(tempdir);
use Test::More;
use lib 'tests/lib';
use WisBoot;

require_image();

my @keys = ('wis.tests=getppid1', 'wis.tasks=1', 'wis.interval=100',
	    'wis.samples=1', 'wis.warmup=0', 'wis.id=ci');

my $tmp = tempdir(CLEANUP => 1);
my $dir = "$tmp/results";
my $rc = run_logged("$tmp/run", 'qemu/run', '--accel', 'tcg', '--smp', 1,
		    '--instances', 2, '--console', '--out', $dir, '--', @keys);
is($rc, 0, 'qemu/run with two guests exits 0') or diag(slurp("$tmp/run.err"));
my %runs;
for my $i (1, 2) {
	my @r = records("$dir/i$i/virtio.wis");
	is($r[0]{id} // '', "ci-i$i", "guest i$i reports as ci-i$i");
	is(($r[-1]{type} // '') . ' ' . ($r[-1]{status} // ''), 'end ok',
	   '... its run ends ok');
	is(scalar(grep { $_->{type} eq 'point' } @r), 1, '... with its point');
	$runs{$r[0]{run} // ''} = 1;
}
is(scalar(keys %runs), 2, 'two distinct runs');
like(slurp("$tmp/run.out"), qr/^== i1\n.*^== i2\n/ms,
     'the runner prints a report for each guest');
like(slurp("$tmp/run.out"), qr/\bci-i2\b/, '... naming its instance');

my $err = slurp("$tmp/run.err");
like($err, qr/^i1\| .*Power down/m, "guest i1's console is shown");
like($err, qr/^i2\| .*Power down/m, "guest i2's console is shown");
unlike($err, qr/WIS1 /, '... without the records');

done_testing();
