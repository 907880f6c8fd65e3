#!/usr/bin/perl
# The arm64 image on qemu-system-aarch64 -machine virt (TCG): the smoke
# preset, every test at 1 and 2 tasks, on two NUMA nodes of two CPUs;
# records through virtio-serial and the console (the aarch64 QEMU has
# no virtio-pmem), and two tasks fill node 0 before node 1 is touched.
use strict;
use warnings;
use File::Temp qw(tempdir);
use Test::More;
use lib 'tests/lib';
use WisBoot;

plan skip_all => "$out/arm64/vmlinuz not built (./build.sh --arch arm64)"
	unless -f "$out/arm64/vmlinuz";
BAIL_OUT("$wis not built") unless -x $wis;

my $tmp = tempdir(CLEANUP => 1);
my $dir = "$tmp/results";
my $rc = run_logged("$tmp/run", 'qemu/run', '--arch', 'arm64', '--smp', 4,
		    '--numa', 2, '--mem', 512, '--out', $dir, '--',
		    'wis.preset=smoke');
my $err = slurp("$tmp/run.err");
is($rc, 0, 'qemu/run --arch arm64 exits 0') or diag($err);
unlike($err, qr/deadline: killed/, 'the guest powered off by itself');
like(slurp("$tmp/run.out"), qr/end ok/, 'it prints the report');

my @virtio = records("$dir/virtio.wis");
my $run = $virtio[0];
my @points = grep { $_->{type} eq 'point' } @virtio;
is($run->{machine}, 'aarch64', 'the guest is an aarch64 one');
like($run->{cpu_model}, qr/^QEMU max r\d+p\d+$/, 'its CPU is named from MIDR_EL1');
is($run->{cpu_midr}, '0x000f0510', '... which the record keeps');
is($virtio[-1]{type} . ' ' . $virtio[-1]{status}, 'end ok', 'the run ends ok');
my @tests = split(' ', `$wis list --names`);
is(scalar(@points), 2 * @tests, 'every test has a point at 1 and 2 tasks');
is(join(' ', map { "$_->{test}:$_->{status}" }
	grep { $_->{status} !~ /^(ok|unsupported)$/ } @points), '',
   'every point is ok or unsupported');
like($run->{nodes}, qr/^node0 cpus 0-1 .*; node1 cpus 2-3 /,
     'two NUMA nodes of two CPUs');
is_deeply([map { join(',', @{$_->{cpus}}) }
	   grep { $_->{test} eq 'page_fault1' } @points], ['0', '0,1'],
	  'two tasks fill node 0 first');
is_deeply([records("$dir/console.log")], \@virtio,
	  'the console log holds the same records');
done_testing();
