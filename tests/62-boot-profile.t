#!/usr/bin/perl
# Boots the image under TCG with wis.profile=cpu,stat,lock: each point
# comes back with kernel symbols (names, not addresses), counters per op
# and the lock kind (wis-init mounts tracefs), through the virtio-serial
# port and the pmem region alike.  A second, one-point boot gives the
# CPU the hypervisor bit without a hypervisor leaf.
use strict;
use warnings;
use File::Temp qw(tempdir);
use Test::More;
use lib 'tests/lib';
use WisBoot;

require_image();

my @keys = ('wis.tests=lock2', 'wis.tasks=1,2', 'wis.interval=100',
	    'wis.samples=1', 'wis.warmup=0', 'wis.profile=cpu,stat,lock');
my $tmp = tempdir(CLEANUP => 1);
my $dir = "$tmp/results";
my $rc = run_logged("$tmp/run", 'qemu/run', '--accel', 'tcg', '--smp', 2,
		    '--out', $dir, '--', @keys);
is($rc, 0, 'qemu/run exits 0')
	or diag(slurp("$tmp/run.err"), slurp("$dir/console.log"));

my @virtio = records("$dir/virtio.wis");
my @points = grep { $_->{type} eq 'point' } @virtio;
is(scalar(@points), 2, 'two points');
for my $p (@points) {
	my $at = "lock2 at $p->{tasks}";
	ok(measured($p), "$at: ok, or starved by a busy host")
		or diag($p->{status}, ' ', $p->{message} // '');
	is($p->{profile}, 'cpu,stat,lock', "$at: every kind taken")
		or diag($p->{profile_why} // 'no reason given');
	like($p->{prof_event} // '', qr/^(cycles|cpu-clock)$/,
	     "$at: the event is named");
	cmp_ok($p->{prof_samples} // 0, '>', 0, "$at: kernel samples taken");
	my @syms = split / /, $p->{prof_self} // '';
	ok(@syms && !grep({ !/^[A-Za-z_][A-Za-z0-9_.]*$/ || /^0x/ } @syms),
	   "$at: samples resolve to symbol names") or diag("@syms");
	like($p->{prof_chain} // '', qr/^[A-Za-z_]\w*(;[A-Za-z_][\w.]*)+/,
	     "$at: call chains of names");
	like($p->{stat} // '', qr/^cpu-clock context-switches cpu-migrations page-faults/,
	     "$at: software counters per op");
	# qemu/run clears the hypervisor bit: virt_spin_lock stays off.
	ok(defined $p->{lock_contentions}, "$at: lock contentions counted")
		or diag($p->{profile_why} // 'no reason given');
	cmp_ok($p->{profile_rate} // 0, '>', 0,
	       "$at: the profiled interval's rate is kept");
}
is_deeply([records("$dir/pmem.img")], \@virtio,
	  'the pmem region holds the same records');

# A CPU with the hypervisor bit but no hypervisor leaf (QEMU's TCG with
# tcg-cpuid=off): its kernel takes contended spinlocks through
# virt_spin_lock(), before the tracepoint, so the lock kind may count no
# total; it says so rather than record a count of mutexes alone.
my $qemu = "$tmp/qemu-no-leaf";
open(my $fh, '>', $qemu) or die "$qemu: $!";
print $fh "#!/bin/sh\n", <<'SH';
for arg; do
	shift
	[ "$arg" != max,hypervisor=off ] || arg=max,tcg-cpuid=off
	set -- "$@" "$arg"
done
exec qemu-system-x86_64 "$@"
SH
close($fh);
chmod(0755, $qemu) or die "$qemu: $!";
{
	local $ENV{QEMU_X86_64} = $qemu;
	$rc = run_logged("$tmp/leafless", 'qemu/run', '--accel', 'tcg',
			 '--smp', 2, '--out', "$tmp/leafless", '--',
			 'wis.tests=lock2', 'wis.tasks=2', 'wis.interval=100',
			 'wis.samples=1', 'wis.warmup=0', 'wis.profile=lock');
}
is($rc, 0, 'qemu/run exits 0 with the hypervisor bit and no leaf')
	or diag(slurp("$tmp/leafless.err"));
my ($leafless) = grep { $_->{type} eq 'point' }
		 records("$tmp/leafless/virtio.wis");
ok($leafless && !defined $leafless->{lock_contentions} &&
   ($leafless->{profile_why} // '') =~ /virt_spin_lock/,
   'no leaf: no contention total, virt_spin_lock named')
	or diag(explain($leafless));

done_testing();
