#!/usr/bin/perl
# A bad command line boots, says what is wrong in an error record and
# powers off at once.  Two runners go at the same time: they share
# nothing, and each guest reports its own mistake.
use strict;
use warnings;
use File::Temp qw(tempdir);
use Test::More;
use lib 'tests/lib';
use WisBoot;
use Time::HiRes qw(time);

require_image();

my $tmp = tempdir(CLEANUP => 1);
my %cases = (
	key => { words => ['wis.tests=getppid1', 'wis.bogus=1'],
		 says => qr/wis\.bogus/ },
	test => { words => ['wis.tests=getppid1,no_such_test'],
		  says => qr/no_such_test/ },
);
# A guest that powers off at once is done in seconds; the deadline only
# bounds one that would not, with room for TCG on a busy machine.
my $deadline = 240;
my $start = time();
for my $name (sort keys %cases) {
	my $c = $cases{$name};
	$c->{pid} = start_logged("$tmp/$name", 'qemu/run', '--accel', 'tcg',
				 '--timeout', $deadline, '--out',
				 "$tmp/$name", '--', @{$c->{words}});
}
for my $name (sort keys %cases) {
	waitpid($cases{$name}{pid}, 0);
	$cases{$name}{rc} = $? >> 8;
}
cmp_ok(time() - $start, '<', $deadline, 'both guests are done before the deadline');

my %runs;
for my $name (sort keys %cases) {
	my $c = $cases{$name};
	my $err = slurp("$tmp/$name.err");
	my @r = records("$tmp/$name/virtio.wis");
	my @errors = grep { $_->{type} eq 'error' } @r;
	isnt($c->{rc}, 0, "unknown $name: qemu/run fails") or diag($err);
	unlike($err, qr/deadline: killed/, "... the guest powered off by itself");
	ok(@errors && $errors[0]{message} =~ $c->{says},
	   '... an error record names the bad word')
		or diag(slurp("$tmp/$name/console.log"));
	is($r[-1]{type} . ' ' . $r[-1]{status}, 'end error',
	   '... the run ends in error');
	ok(!grep({ $_->{type} eq 'point' } @r), '... and measures nothing');
	like(slurp("$tmp/$name/console.log"), $c->{says},
	     '... the console says what is wrong');
	$runs{$name}{$_->{run}} = 1 for @r;
}
my @ids = map { join(' ', sort keys %{$runs{$_}}) } sort keys %runs;
ok(@ids == 2 && $ids[0] !~ / / && $ids[1] !~ / / && $ids[0] ne $ids[1],
   'each directory holds its own run only') or diag(@ids);
done_testing();
