#!/usr/bin/perl
# The appliance's own kernel: ./build.sh kernel builds it from
# kconfig/wis.config (or takes it from its cache), every option of the
# fragment is in its config, an image for it carries no module, and the
# smoke preset runs on it under TCG with every point ok (as on Debian's
# kernel, but read3 and read4: tmpfs has no O_DIRECT) and the very same
# records through the virtio-serial port, the pmem region and the console.
# Its vmlinux boots on QEMU's microvm at the PVH entry, with the TSC as
# its clock (qemu/run tells it the host's TSC rate under TCG).
use strict;
use warnings;
use File::Temp qw(tempdir);
use Test::More;
use lib 'tests/lib';
use WisBoot;

require_image();

my $tmp = tempdir(CLEANUP => 1);
my $kdir = "$out/kernel";

my $rc = run_logged("$tmp/kernel", './build.sh', '--out', $out, 'kernel');
is($rc, 0, './build.sh kernel succeeds')
	or BAIL_OUT("no kernel: " . slurp("$tmp/kernel.err"));
like(slurp("$tmp/kernel.err"), qr{kernel: \S*/kernel/bzImage \d+ bytes, release \S+},
     'it names the bzImage, its size and release');
like(slurp("$kdir/config"), qr/^# CONFIG_MODULES is not set$/m,
     'the kernel has no module support');
like(`kconfig/check $kdir/config 2>&1`, qr/: all \d+ options present$/,
     'kconfig/check finds every option of the fragment in its config');

# An image for it beside the main one, from the binaries already built,
# by the commands docs/qemu.md and docs/performance-boot.md give, as written
# (with OUT for out/): a fresh out/own has no busybox of its own, and the
# image step takes the one built in the cache.
my @steps = grep { m{^(mkdir -p out/own |\./build\.sh --out out/own )} }
	split(/\n/, slurp('docs/qemu.md'));
is(scalar(@steps), 2, 'docs/qemu.md gives the own image in two commands');
is_deeply([grep { my $l = $_; grep { $_ eq $l } @steps }
	   split(/\n/, slurp('docs/performance-boot.md'))], \@steps,
	  '... and docs/performance-boot.md the same two');
my $img = "$out/own";
system('rm', '-rf', $img) == 0 or die;
$rc = run_logged("$tmp/image", 'env', '-u', 'BUSYBOX', 'sh', '-ec',
		 join("\n", map { s{\bout/}{$out/}gr } @steps));
is($rc, 0, 'an image for it is made') or diag(slurp("$tmp/image.err"));
my $manifest = slurp("$img/MANIFEST");
like($manifest, qr/^input modules none$/m,
     '... without modules: its config says it has no module support');
like($manifest, qr/^kernel-build \S+ config [0-9a-f]{12} x86_64 base tinyconfig patches apic-calibrate-ms$/m,
     '... and the MANIFEST names its source and configuration');
is(-s "$img/rootfs/etc/wis/modules", 0, '... and an empty module list');

# Under TCG with two vCPUs this kernel died in 1 boot of 40 of a stray
# int3 while it unpacked its initramfs beside the patching of its static
# keys (docs/qemu.md); unpacking first took that to none in 160 boots.
# These boots check what the kernel runs, not how soon, so they take it.
my @sync_unpack = ('initramfs_async=0');

my $dir = "$tmp/results";
$rc = run_logged("$tmp/run", 'env', "OUT=$img", 'qemu/run', '--accel', 'tcg',
		 '--smp', 2, '--out', $dir, '--', 'wis.preset=smoke',
		 @sync_unpack);
is($rc, 0, 'qemu/run boots it with the smoke preset')
	or diag(slurp("$tmp/run.err"), slurp("$dir/console.log"));

my @virtio = records("$dir/virtio.wis");
# A point measured again (a noisy or starved try) has a record a try:
# its last one counts.
my (%last, @points);
for my $p (grep { $_->{type} eq 'point' } @virtio) {
	my $key = "$p->{test}/$p->{mode}/$p->{tasks}";
	push(@points, $key) unless $last{$key};
	$last{$key} = $p;
}
@points = map { $last{$_} } @points;
my @tests = split(/,/, (grep { /^wis\.tests=/ }
	split(/\n/, slurp('rootfs/etc/wis/presets/all')))[0] =~ s/^wis\.tests=//r);
is(scalar(@points), 2 * @tests, 'one point per test at 1 and 2 tasks');
# tmpfs takes no O_DIRECT, on Debian's kernel as on this one.  A point
# the busy TCG host left noisy or starved ran all the same.
is(join(' ', map { "$_->{test}/$_->{tasks}:$_->{status}" }
	grep { $_->{status} !~ /^(ok|noisy|starved)$/ } @points),
   'read3/1:unsupported read3/2:unsupported read4/1:unsupported read4/2:unsupported',
   'every point ran but O_DIRECT reads of tmpfs');
is(($virtio[-1]{type} // '') . ' ' . ($virtio[-1]{status} // ''), 'end ok',
   'the run ends ok');
my ($release) = $manifest =~ /^kernel-release (\S+)$/m;
is($virtio[0]{kernel}, $release, 'the guest ran the own kernel');
is_deeply([records("$dir/pmem.img")], \@virtio,
	  'the pmem region holds the same records');
is_deeply([records("$dir/console.log")], \@virtio,
	  'the console carries the same records');

my $micro = "$tmp/microvm";
$rc = run_logged("$tmp/microvm", 'env', "OUT=$img", 'qemu/run', '--accel',
		 'tcg', '--machine', 'microvm', '--kernel', "$kdir/vmlinux",
		 '--out', $micro, '--', 'wis.tests=getppid1,open1',
		 'wis.tasks=1,2', 'wis.samples=1', 'wis.warmup=0',
		 'wis.interval=100', @sync_unpack);
is($rc, 0, 'qemu/run --machine microvm boots its vmlinux')
	or diag(slurp("$tmp/microvm.err"), slurp("$micro/console.log"));
my @micro = records("$micro/virtio.wis");
is(join(' ', map { "$_->{test}/$_->{tasks}:$_->{status}" }
	grep { $_->{type} eq 'point' } @micro),
   'getppid1/1:ok getppid1/2:ok open1/1:ok open1/2:ok',
   '... every point ok through the virtio-mmio serial port');
like($micro[0]{clocksource} // '', qr/^tsc/, '... on the TSC, not jiffies');
like($micro[0]{cmdline} // '', qr/(^| )apic_calibrate_ms=20( |$)/,
     '... told to time its APIC timer over 20 ms (the patch its build names)');
is_deeply([records("$micro/console.log")], \@micro,
	  '... and the console carries the same records');

done_testing();
