#!/usr/bin/perl
# The arm64 network boot as an ARM server does it: QEMU's UEFI firmware
# for aarch64 fetches out/arm64/pxe/grubnetaa64.efi over user-net TFTP,
# GRUB its grub.cfg, the kernel and the initramfs, and the sweep runs.
use strict;
use warnings;
use File::Temp qw(tempdir);
use Test::More;
use lib 'tests/lib';
use WisBoot;

plan skip_all => "$out/arm64/pxe not built (./build.sh --arch arm64)"
	unless -f "$out/arm64/pxe/grubnetaa64.efi";
BAIL_OUT("$wis not built") unless -x $wis;

my @keys = ('wis.tests=getppid1,page_fault1', 'wis.tasks=1,2',
	    'wis.interval=100', 'wis.samples=1', 'wis.warmup=0');
my $tmp = tempdir(CLEANUP => 1);
my $dir = "$tmp/results";
my $rc = run_logged("$tmp/pxe", 'qemu/pxe', '--arch', 'arm64', '--out', $dir,
		    '--', @keys);
is($rc, 0, 'qemu/pxe --arch arm64 exits 0') or diag(slurp("$tmp/pxe.err"));
my $qemu = slurp("$dir/qemu.cmd");
ok($qemu =~ /bootfile=grubnetaa64\.efi/ && $qemu =~ /if=pflash/ &&
   $qemu !~ /-kernel/,
   'QEMU was given UEFI firmware and a TFTP boot file, no kernel');

my @virtio = records("$dir/virtio.wis");
my $run = $virtio[0];
is($virtio[-1]{type} . ' ' . $virtio[-1]{status}, 'end ok',
   'the run arrives through virtio and ends ok');
is_deeply([map { "$_->{test} $_->{tasks} $_->{status}" }
	   grep { $_->{type} eq 'point' } @virtio],
	  ['getppid1 1 ok', 'getppid1 2 ok', 'page_fault1 1 ok',
	   'page_fault1 2 ok'], 'every point is there and ok');
like($run->{cmdline}, qr{^BOOT_IMAGE=/vmlinuz console=ttyAMA0 panic=-1 },
     "GRUB booted the kernel with grub.cfg's words");
like($run->{cmdline}, qr/(^|\s)\Q$_\E(\s|$)/, "... and the run's $_")
	for @keys;
done_testing();
