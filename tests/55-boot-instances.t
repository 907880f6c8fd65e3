#!/usr/bin/perl
# Several guests from one runner: each gets its own directory (DIR/iN)
# and instance label (wis.id=ID-iN), and the runner reports each.  With
# --console their consoles, records left out, show on stderr, a line
# each under the guest's name.
use strict;
use warnings;
use File::Temp qw(tempdir);
use JSON::PP;
use Test::More;

my $out = $ENV{OUT} // 'out';
my $wis = "$out/rootfs/bin/wis";
plan skip_all => "$out/vmlinuz not built" unless -f "$out/vmlinuz";
BAIL_OUT("$wis not built") unless -x $wis;

my @keys = ('wis.tests=getppid1', 'wis.tasks=1', 'wis.interval=100',
	    'wis.samples=1', 'wis.warmup=0', 'wis.id=ci');

# Runs a command with stdout and stderr in LOG.out and LOG.err.
sub run_logged {
	my ($log, @cmd) = @_;
	my $pid = fork() // die "fork: $!";
	if (!$pid) {
		open(STDOUT, '>', "$log.out") or die;
		open(STDERR, '>', "$log.err") or die;
		exec(@cmd) or die "exec $cmd[0]: $!";
	}
	waitpid($pid, 0);
	return $? >> 8;
}

sub slurp {
	open(my $fh, '<', $_[0]) or return '';
	local $/;
	return <$fh>;
}

# The records wis report finds in one file, in order; its verdict on
# them (stderr) is not what these tests look at.
sub records {
	my $pid = open(my $fh, '-|') // die "fork: $!";
	if (!$pid) {
		open(STDERR, '>', '/dev/null') or die;
		exec($wis, 'report', '--json', $_[0]) or die "exec $wis: $!";
	}
	my @r = map { decode_json($_) } <$fh>;
	close($fh);
	return @r;
}

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
