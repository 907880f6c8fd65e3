# Set-up shared by the reader's tests: the wis under test, a scratch
# directory, running wis with its output captured, and the records of a
# file.
package WisReport;
use strict;
use warnings;
use Exporter qw(import);
use File::Spec;
use File::Temp qw(tempdir);
use JSON::PP;

our @EXPORT = qw($wis $tmp $out $err slurp wis records);

# Absolute, so a test may run it from another directory.
our $wis = File::Spec->rel2abs($ENV{WIS} // 'out/rootfs/bin/wis');
our $tmp = tempdir(CLEANUP => 1);
our ($out, $err);

sub slurp {
	my ($path) = @_;
	open(my $f, '<', $path) or return '';
	local $/;
	return scalar(<$f>) // '';
}

# wis ARGS: the exit status; stdout in $out, stderr in $err.
sub wis {
	my (@args) = @_;
	my $pid = fork() // die "fork: $!";
	if (!$pid) {
		open(STDOUT, '>', "$tmp/out") or die;
		open(STDERR, '>', "$tmp/err") or die;
		exec($wis, @args) or exit 127;
	}
	waitpid($pid, 0);
	($out, $err) = (slurp("$tmp/out"), slurp("$tmp/err"));
	return $? >> 8;
}

# The payloads of a file's frames, decoded.
sub records {
	my ($path) = @_;
	return map { /^WIS1 \S{8} (\{.*\})$/ ? decode_json($1) : () }
	       split(/\n/, slurp($path));
}

1;
