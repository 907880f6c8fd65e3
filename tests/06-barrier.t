#!/usr/bin/perl
# Instances released together (wis.barrier): host sweeps sharing one
# barrier file run every point with overlapping windows; an instance that
# never arrives, one that stops half-way, one whose sweep differs and one
# taking an index already in use end the others with an error naming it;
# a campaign left by a killed run is never taken for a peer.
use strict;
use warnings;
use File::Temp qw(tempdir);
use List::Util qw(max min);
use Test::More;
use lib 'tests/lib';
use WisBoot;

BAIL_OUT("$wis not built") unless -x $wis;

my $tmp = tempdir(CLEANUP => 1);
my $barrier = "$tmp/barrier";
my @sweep = ('wis.tests=getppid1,futex4,unlink1', 'wis.tasks=1',
	     'wis.samples=2', 'wis.warmup=1', 'wis.interval=100',
	     'wis.instances=2', "wis.barrier=$barrier");

# Starts instance INDEX as NAME with extra keys; its records go to NAME.wis.
sub start {
	my ($name, $index, @keys) = @_;
	return start_logged("$tmp/$name", $wis, 'sweep', @sweep,
			    "wis.instance=$index", "wis.id=$name",
			    "wis.out=file:$tmp/$name.wis", @keys);
}

# Waits until NAME has written its run record: it has joined the campaign.
sub joined {
	for (my $n = 0; $n < 600 && !records("$tmp/$_[0].wis"); $n++) {
		select(undef, undef, undef, 0.05);
	}
}

sub status_of {
	waitpid($_[0], 0);
	return $? >> 8;
}

sub points { grep { $_->{type} eq 'point' } @_ }

# An instance's exit status, 0 for 3 when its end record counts points a
# busy host left noisy or starved (whole, but not measured).
sub whole {
	my ($status, $name) = @_;
	my ($end) = grep { $_->{type} eq 'end' } records("$tmp/$name.wis");

	return $status == 3 && $end && ($end->{noisy} || $end->{starved}) ?
	       0 : $status;
}

# The overlap rule of docs/architecture.md: windows as offsets from each instance's release overlap
# when the latest start, plus the largest skew, comes before the
# earliest end.
sub overlap {
	my @p = @_;
	my $start = max(map { $_->{window_start_ns} - $_->{barrier_release_ns} } @p);
	my $end = min(map { $_->{window_end_ns} - $_->{barrier_release_ns} } @p);
	return $start + max(map { $_->{barrier_skew_ns} } @p) < $end;
}

# Two sweeps, one barrier file.
my $a = start('a', 0);
my $b = start('b', 1);
is(whole(status_of($a), 'a'), 0, 'instance 0 exits 0 (3 with points not measured)');
is(whole(status_of($b), 'b'), 0, 'instance 1 exits 0 (likewise)');
my @a = records("$tmp/a.wis");
my @b = records("$tmp/b.wis");
is($a[0]{barrier_campaign}, $b[0]{barrier_campaign},
   'both run records name the same campaign');
like($a[0]{barrier_campaign} // '', qr/^[0-9a-f]{8}$/, '... an 8-digit hex tag');
is($a[0]{sweep_hash}, $b[0]{sweep_hash}, 'both carry the same sweep_hash');
my @pa = points(@a);
my @pb = points(@b);
is(scalar(@pa), 3, 'instance 0 recorded its three points');
is(scalar(@pb), 3, 'instance 1 recorded its three points');
is(join(',', map { $_->{barrier_gen} } @pa), '1,2,3',
   'generations number the points from 1');
for my $i (0 .. $#pa) {
	ok(overlap($pa[$i], $pb[$i]),
	   "$pa[$i]{test}: the two windows overlap");
}
is(join(' ', map { $_->{type} } @a), 'run point point point end',
   'the stream holds run, points and end');

# A peer that never arrives.
my $alone = start('alone', 0, 'wis.barrier_timeout=1');
is(status_of($alone), 1, 'an instance left alone exits 1');
my @alone = records("$tmp/alone.wis");
is(join(' ', map { $_->{type} } @alone), 'run error end',
   '... with run, error and end records');
like($alone[1]{message} // '', qr/^wis\.barrier: instance 1 never joined/,
     '... the error names the missing instance');
is(join(',', map { $_->{seq} } @alone), '0,1,2', '... in an intact stream');
like(slurp("$tmp/alone.err"), qr/instance 1 never joined/,
     '... and says so on stderr');

# A peer that stops after its first point.
my $stays = start('stays', 0, 'wis.barrier_timeout=2');
my $stops = start('stops', 1, 'wis.barrier_timeout=2');
for (my $n = 0; $n < 600 && !points(records("$tmp/stops.wis")); $n++) {
	select(undef, undef, undef, 0.05);
}
kill('KILL', $stops);
waitpid($stops, 0);
is(status_of($stays), 1, 'the instance whose peer died exits 1');
my @stays = records("$tmp/stays.wis");
ok(scalar(points(@stays)) >= 1, '... keeping the points measured before');
my ($err) = grep { $_->{type} eq 'error' } @stays;
like($err->{message} // '', qr/instance 1 \('stops'\) did not (arrive at|leave) point/,
     '... its error names the instance that stopped');
is($stays[-1]{type}, 'end', '... and the stream ends with end');

# Different sweeps: the second refuses, the first is told why.
my $first = start('first', 0, 'wis.barrier_timeout=30');
joined('first');
my $odd = start('odd', 1, 'wis.barrier_timeout=30', 'wis.mode=threads');
is(status_of($odd), 2, 'an instance whose sweep differs exits 2');
like(slurp("$tmp/odd.err"), qr/wis\.barrier: sweep mismatch: .*same points/,
     '... naming the mismatch');
is(status_of($first), 1, 'the instance it met exits 1');
like(slurp("$tmp/first.err"), qr/instance 1 \('odd'\) refused the campaign/,
     '... saying who refused');

# Two instances claiming one index.
my $one = start('one', 0, 'wis.barrier_timeout=60');
joined('one');
my $twin = start('twin', 0);
is(status_of($twin), 2, 'a second instance 0 exits 2');
like(slurp("$tmp/twin.err"), qr/wis\.instance: 0 is already taken .* 'one'/,
     '... naming the instance that has it');
kill('TERM', $one);
status_of($one);

# A killed run's campaign is outwaited, never joined.
my $killed = start('killed', 0, 'wis.barrier_timeout=60');
joined('killed');
kill('KILL', $killed);
waitpid($killed, 0);
my $late = start('late', 1);
my $new = start('new', 0);
is(whole(status_of($late), 'late'), 0, 'after a killed run, instance 1 exits 0');
is(whole(status_of($new), 'new'), 0, '... and so does the new instance 0');
my $old_campaign = (records("$tmp/killed.wis"))[0]{barrier_campaign};
my @late = records("$tmp/late.wis");
isnt($late[0]{barrier_campaign}, $old_campaign,
     '... in a fresh campaign, not the killed one');
is($late[0]{barrier_campaign}, (records("$tmp/new.wis"))[0]{barrier_campaign},
   '... which both joined');

# Keys without their partners.
for my $case (
	[ 'wis.instances without wis.barrier', 'wis.instances: 2 instances need wis.barrier',
	  'wis.tests=getppid1', 'wis.instances=2' ],
	[ 'wis.instances without wis.instance', 'wis.instance: missing',
	  'wis.tests=getppid1', 'wis.instances=2', "wis.barrier=$barrier" ],
	[ 'wis.instance out of range', 'wis.instance: 2 is not below wis.instances=2',
	  'wis.tests=getppid1', 'wis.instances=2', 'wis.instance=2',
	  "wis.barrier=$barrier" ],
	[ 'a bad barrier spec', "wis.barrier: bad value 'tcp:x'",
	  'wis.tests=getppid1', 'wis.instances=2', 'wis.instance=1',
	  'wis.barrier=tcp:x' ],
	[ 'a block device', 'want a device-dax character device',
	  'wis.tests=getppid1', 'wis.barrier=pmem:/dev/loop0' ]) {
	my ($what, $msg, @keys) = @$case;
	SKIP: {
		skip('no /dev/loop0', 2) if $keys[-1] =~ /loop0/ && ! -b '/dev/loop0';
		my $rc = run_logged("$tmp/bad", $wis, 'sweep', @keys,
				    'wis.out=console');
		is($rc, 2, "$what: exit 2");
		like(slurp("$tmp/bad.err"), qr/\Q$msg\E/, "... '$msg'");
	}
}

done_testing();
