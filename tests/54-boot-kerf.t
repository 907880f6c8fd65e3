#!/usr/bin/perl
# wis-init's kerf path in a real kernel, booted the way kerf boots a
# spawn: a stand-in PID 1 (qemu/kerf-stand-in.c, added to the image as a
# second initramfs archive) mounts only what kerf's init mounts, runs
# /sbin/wis-init with kerf.entrypoint= on the command line in a session of
# its own on the console, with no environment, on a root that is not
# tmpfs (kerf's rootfstype=daxfs makes the kernel unpack the initramfs
# into ramfs), and never powers off.  wis-init must leave ID.wis and the
# ID.done marker in /results and exit; the stand-in copies them to the
# console, where the host waits for them before it stops the guest.  The
# sweep is profiled (wis.profile), as a spawn kernel's can be.
use strict;
use warnings;
use File::Temp qw(tempdir);
use Test::More;
use POSIX qw(WNOHANG);
use Time::HiRes qw(sleep time);
use lib 'tests/lib';
use WisBoot;

require_image();

my @keys = ('rootfstype=daxfs', 'rdinit=/kerf-stand-in',
	    'kerf.entrypoint=/sbin/wis-init',
	    'wis.tests=getppid1,open1,fallocate1', 'wis.tasks=1',
	    'wis.interval=100', 'wis.samples=1', 'wis.warmup=0',
	    'wis.id=spawn', 'wis.profile=cpu,stat,lock');
my $TMPFS_MAGIC = '0x1021994';

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
	system("cat $out/initramfs.cpio.zst $tmp/extra.cpio.gz " .
	       ">$tmp/initramfs") == 0 or return;
	return "$tmp/initramfs";
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
my $runner = start_logged("$tmp/run", 'qemu/run', '--accel', 'tcg',
			  '--initrd', $initrd, '--out', $dir, '--', @keys);
# As kerf's host waits for the marker: here, for the stand-in to have
# copied it out (or for the end record on the console).
my $copied = wait_for(300, sub {
	slurp("$dir/console.log") =~ /^kerf-stand-in: end\r?$/m });
ok($copied, 'the stand-in copied /results out after wis-init exited');
my $alive = kill(0, $runner) && waitpid($runner, WNOHANG) == 0;
ok($alive, '... and the guest still runs: nothing powered it off');
kill('TERM', $runner);
waitpid($runner, 0);
is($? >> 8, 143, 'the runner stops it on SIGTERM');
my $console = slurp("$dir/console.log");
like($console, qr/^kerf-stand-in: root 0x[0-9a-f]+\r?$/m,
     'the stand-in saw its root file system');
unlike($console, qr/^kerf-stand-in: root $TMPFS_MAGIC\r?$/m,
       '... which is not tmpfs');
unlike($console, qr/^kerf-stand-in: console as controlling tty/m,
       'wis-init ran with the console as its controlling tty');
# Exit 3 and the marker unmeasured: points the busy TCG host left noisy
# or starved after their tries; the records are whole all the same.
my ($exit) = $console =~ /^kerf-stand-in: exit (\d+)\r?$/m;
ok(defined($exit) && ($exit == 0 || $exit == 3), 'wis-init exits 0 (or 3)')
	or diag($console);

my %files = copied_files($console);
ok(exists($files{'spawn.wis'}), 'wis-init wrote /results/spawn.wis')
	or diag(join(' ', sort keys %files));
is($files{'spawn.done'} // '', ($exit // 0) == 3 ? "unmeasured\n" : "ok\n",
   '... and the /results/spawn.done marker: ok (unmeasured with exit 3)');
spew("$tmp/spawn.wis", $files{'spawn.wis'} // '');
my @r = records("$tmp/spawn.wis");
my @points = grep { $_->{type} eq 'point' } @r;
is($r[0]{type} // '', 'run', 'the file opens with the run record');
is($r[0]{id} // '', 'spawn', '... of instance spawn');
is($r[0]{tmp_fs} // '', 'tmpfs', '... /tmp is a tmpfs wis-init mounted');
like($r[0]{lsm} // 'unknown', qr/^(?!unknown$)./,
     '... the active LSMs are named (securityfs is mounted)')
	or diag($r[0]{lsm} // 'no lsm field');
is($r[0]{hostname} // '', 'wis', '... the host is named from /etc/hostname');
like($r[0]{sweep} // '', qr/ wis\.out=file:\/results\/spawn\.wis,console( |$)/,
     '... its sweep names the sinks the records went to');
is(join(' ', map { "$_->{test}:$_->{status}" } @points),
   'getppid1:ok open1:ok fallocate1:ok',
   'one ok point a test, fallocate1 with a /dev/shm');
is(($r[-1]{type} // '') . ' ' . ($r[-1]{status} // ''), 'end ok',
   'the file closes with end ok');
# wis.profile under kerf: wis-init mounted tracefs, samples have names.
is(join(' ', map { $_->{profile} // '-' } @points),
   'cpu,stat,lock cpu,stat,lock cpu,stat,lock',
   'every point profiled, every kind taken')
	or diag(join("\n", map { $_->{profile_why} // '' } @points));
ok(!grep({ ($_->{prof_self} // '') !~ /^[A-Za-z_][\w.]*( [A-Za-z_][\w.]*)*$/ }
	 @points), '... their kernel samples resolved to symbol names');

done_testing();
