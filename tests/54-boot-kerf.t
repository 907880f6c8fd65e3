#!/usr/bin/perl
# wis-init's kerf path in a real kernel: a stand-in PID 1 (qemu/kerf-
# stand-in.c, added to the image as a second initramfs archive) mounts
# what kerf's init mounts and runs /sbin/wis-init with kerf.entrypoint=
# on the command line.  wis-init must leave ID.wis and the ID.done marker
# in /results and exit; the stand-in copies them to the console.
use strict;
use warnings;
use File::Temp qw(tempdir);
use Test::More;
use lib 'tests/lib';
use WisBoot;

require_image();

my @keys = ('rdinit=/kerf-stand-in', 'kerf.entrypoint=/sbin/wis-init',
	    'wis.tests=getppid1,open1', 'wis.tasks=1', 'wis.interval=100',
	    'wis.samples=1', 'wis.warmup=0', 'wis.id=spawn');

sub spew {
	open(my $fh, '>', $_[0]) or die "$_[0]: $!";
	print $fh $_[1];
	close($fh);
}

# The image plus a second archive holding the stand-in: the kernel
# unpacks both, and rdinit= picks the stand-in as PID 1.
sub derived_initramfs {
	my ($tmp) = @_;
	mkdir("$tmp/extra") or die;
	system('musl-gcc', '-static', '-O2', '-std=c11', '-D_GNU_SOURCE',
	       '-Wall', '-Wextra', '-Werror', '-o', "$tmp/extra/kerf-stand-in",
	       'qemu/kerf-stand-in.c') == 0 or return;
	system("cd $tmp/extra && echo kerf-stand-in | " .
	       'cpio --quiet -o -H newc -R 0:0 | gzip -n >../extra.cpio.gz') == 0
		or return;
	system("cat $out/initramfs.cpio.gz $tmp/extra.cpio.gz " .
	       ">$tmp/initramfs.cpio.gz") == 0 or return;
	return "$tmp/initramfs.cpio.gz";
}

# The files the stand-in copied out of /results: name => text.
sub copied_files {
	my %files;
	my $name;
	for (split(/\r?\n/, $_[0])) {
		if (/^kerf-stand-in: file (\S+)$/) {
			$name = $1;
			$files{$name} = '';
		} elsif (/^kerf-stand-in: /) {
			undef $name;
		} elsif (defined($name)) {
			$files{$name} .= "$_\n";
		}
	}
	return %files;
}

my $tmp = tempdir(CLEANUP => 1);
my $initrd = derived_initramfs($tmp);
ok($initrd, 'the stand-in builds into a derived initramfs');
my $dir = "$tmp/results";
run_logged("$tmp/run", 'qemu/run', '--accel', 'tcg', '--initrd', $initrd,
	   '--out', $dir, '--', @keys);
my $console = slurp("$dir/console.log");
unlike(slurp("$tmp/run.err"), qr/deadline: killed/,
       'the stand-in powered the guest off');
like($console, qr/^kerf-stand-in: exit 0\r?$/m, 'wis-init exits 0')
	or diag($console);
like($console, qr/^kerf-stand-in: end\r?$/m, 'every file was copied out');

my %files = copied_files($console);
ok(exists($files{'spawn.wis'}), 'wis-init wrote /results/spawn.wis')
	or diag(join(' ', sort keys %files));
ok(exists($files{'spawn.done'}), '... and the /results/spawn.done marker');
spew("$tmp/spawn.wis", $files{'spawn.wis'} // '');
my @r = records("$tmp/spawn.wis");
my @points = grep { $_->{type} eq 'point' } @r;
is($r[0]{type} // '', 'run', 'the file opens with the run record');
is($r[0]{id} // '', 'spawn', '... of instance spawn');
is(join(' ', map { "$_->{test}:$_->{status}" } @points),
   'getppid1:ok open1:ok', 'one ok point a test');
is(($r[-1]{type} // '') . ' ' . ($r[-1]{status} // ''), 'end ok',
   'the file closes with end ok');

done_testing();
