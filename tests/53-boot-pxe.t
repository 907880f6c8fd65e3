#!/usr/bin/perl
# The PXE artefacts booted as bare metal boots them: iPXE fetches
# boot.ipxe, the kernel and the initramfs over TFTP (QEMU's built-in
# server), and the sweep reports through the same sinks as qemu/run's.
use strict;
use warnings;
use File::Temp qw(tempdir);
use Test::More;
use lib 'tests/lib';
use WisBoot;

require_image();

my @tests = qw(getppid1 open1 page_fault1);
my @keys = ('wis.preset=smoke', 'wis.tests=' . join(',', @tests),
	    'wis.tasks=1,2', 'wis.mode=processes', 'wis.interval=100',
	    'wis.samples=1', 'wis.warmup=1');

my $tmp = tempdir(CLEANUP => 1);
my $dir = "$tmp/results";
my $rc = run_logged("$tmp/pxe", 'qemu/pxe', '--accel', 'tcg', '--out', $dir,
		    '--', @keys);
is($rc, 0, 'qemu/pxe exits 0') or diag(slurp("$tmp/pxe.err"));
unlike(slurp("$tmp/pxe.err"), qr/deadline: killed/,
       'the guest powered off by itself');
my $qemu = slurp("$dir/qemu.cmd");
ok($qemu =~ /tftp=/ && $qemu =~ /-boot n/ && $qemu !~ /-kernel/,
   'QEMU was given a TFTP root and a network boot, no kernel');

my @virtio = records("$dir/virtio.wis");
my $run = $virtio[0];
my @points = grep { $_->{type} eq 'point' } @virtio;
is($run->{type}, 'run', 'a run arrives through virtio');
is($virtio[-1]{type} . ' ' . $virtio[-1]{status}, 'end ok', '... and ends ok');
is_deeply([map { "$_->{test} $_->{tasks} $_->{status}" } @points],
	  [map { ("$_ 1 ok", "$_ 2 ok") } @tests],
	  'every test at 1 and 2 tasks has an ok point');

# boot.ipxe's own words stay; its wis.* keys give way to the run's.
my ($line) = slurp("$out/pxe/boot.ipxe") =~ /^kernel\s+\S+\s+(.*)$/m;
my @own = grep { !/^wis\./ } split(' ', $line // '');
ok(@own, "boot.ipxe's kernel line has words of its own");
like($run->{cmdline}, qr/(^|\s)\Q$_\E(\s|$)/, "the kernel got boot.ipxe's $_")
	for @own;
like($run->{cmdline}, qr/(^|\s)\Q$_\E(\s|$)/, "... and the run's $_")
	for @keys;

is_deeply([records("$dir/pmem.img")], \@virtio,
	  'the pmem region holds the same records');
is_deeply([records("$dir/console.log")], \@virtio,
	  'the console log holds the same records');

done_testing();
