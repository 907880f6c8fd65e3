#!/usr/bin/perl
# Boots the image under TCG with a short smoke sweep on two NUMA nodes:
# every test yields a point, and the very same records arrive through
# the virtio-serial port, the virtio-pmem region and the console.
use strict;
use warnings;
use File::Temp qw(tempdir);
use Test::More;
use lib 'tests/lib';
use WisBoot;

require_image();

my @tests = qw(getppid1 open1 page_fault1);
my @keys = ('wis.preset=smoke', 'wis.tests=' . join(',', @tests),
	    'wis.tasks=1,2', 'wis.mode=both', 'wis.interval=100',
	    'wis.samples=1', 'wis.warmup=1', 'lsm=capability,yama');

my $tmp = tempdir(CLEANUP => 1);
my $dir = "$tmp/results";
my $rc = run_logged("$tmp/run", 'qemu/run', '--accel', 'tcg', '--smp', 2,
		    '--numa', 2, '--out', $dir, '--', @keys);
my $err = slurp("$tmp/run.err");
is($rc, 0, 'qemu/run exits 0') or diag($err, slurp("$dir/console.log"));
like($err, qr/results in \Q$dir\E/, 'it names the results directory');
unlike($err, qr/deadline: killed/, 'the guest powered off by itself');
like(slurp("$tmp/run.out"), qr/end ok/, 'it prints the report');
like(slurp("$tmp/run.out"), qr/^TCG: figures are functional only/m,
     '... under the TCG banner');
unlike(slurp("$tmp/run.out"), qr/^warning: LSMs/m,
       'lsm=capability,yama: no LSM warning for open1');
like($err, qr/^qemu\/run: --mem 336: what the sweep needs at --smp 2/m,
     'page_fault1 at 2 tasks: memory grows to 2 x 128 + 80 MB');

my @virtio = records("$dir/virtio.wis");
my @points = grep { $_->{type} eq 'point' } @virtio;
is($virtio[0]{type}, 'run', 'the run record comes first');
is($virtio[-1]{type}, 'end', 'the end record comes last');
is($virtio[-1]{status}, 'ok', 'the run ends ok');
is(scalar(@points), 12, '3 tests x 2 modes x 2 task counts: 12 points');
for my $test (@tests) {
	for my $mode (qw(processes threads)) {
		for my $tasks (1, 2) {
			my @p = grep { $_->{test} eq $test &&
				       $_->{mode} eq $mode &&
				       $_->{tasks} == $tasks } @points;
			ok(@p == 1 && measured($p[0]),
			   "$test $mode $tasks: one ok point with a rate, or starved")
				or diag($p[0]{status}, ' ', $p[0]{message} // '');
		}
	}
}

my $run = $virtio[0];
is($run->{numa_nodes}, 2, 'the guest sees two NUMA nodes');
is($run->{packages}, 2, '... one package each');
is($run->{cpus_online}, '0-1', 'and two CPUs');
is($run->{lsm}, 'lockdown,capability,yama',
   'lsm=capability,yama: no AppArmor, no TOMOYO (lockdown comes first always)');
cmp_ok($run->{mem_total_kb}, '<=', 336 * 1024, 'in 336 MB of memory');
cmp_ok($run->{mem_total_kb}, '>', 256 * 1024, '... more than the 256 MB default');
my $host_libc = 'glibc ' . `getconf GNU_LIBC_VERSION` =~ s/^glibc //r =~ s/\s+$//r;
is($run->{libc}, $host_libc, 'the suite ran on the image\'s libc, the host\'s');
like($run->{cmdline}, qr/\Q$_\E/, "the command line carries $_")
	for @keys;
# wis.out is auto: every sink there is, so every module of the list but
# those for a device this machine lacks (no NFIT table, no memmap=).
my $list = slurp('out/rootfs/etc/wis/modules');
my @listed = $list =~ m{([^/\s.]+)\.ko \S+$}mg;
my @for_devices = $list =~ m{([^/\s.]+)\.ko \S+ /sys/}mg;
my @unrecorded = grep {
	my $t = $run->{"boot_module_$_"};
	!defined($t) || $t < $run->{boot_mounts} || $t > $run->{boot_modules}
} @listed;
is("@unrecorded", '',
   'the run record has the uptime each module of the list was loaded at, in the module step');
is(join(' ', grep { defined $run->{"boot_module_$_"} } @for_devices), '',
   '... and none of those for a device the machine lacks (' .
   join(' ', @for_devices) . ')');

is_deeply([records("$dir/pmem.img")], \@virtio,
	  'the pmem region holds the same records');
is_deeply([records("$dir/console.log")], \@virtio,
	  'the console log holds the same records');

done_testing();
