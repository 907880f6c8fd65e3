# Set-up shared by the boot tests (tests/5*.t): where the build is, the
# skip when no kernel was built, running the QEMU runners with their
# output in files, and reading back the records the guests wrote.
package WisBoot;
use strict;
use warnings;
use Exporter qw(import);
use JSON::PP;
use Test::More;

our @EXPORT = qw($out $wis require_image start_logged run_logged slurp
		 records wait_for measured);

our $out = $ENV{OUT} // 'out';
our $wis = "$out/rootfs/bin/wis";

# Skips the whole test without a kernel to boot; without wis there is
# no reading what the guest wrote, so that stops the run.
sub require_image {
	plan skip_all => "$out/vmlinuz not built" unless -f "$out/vmlinuz";
	BAIL_OUT("$wis not built") unless -x $wis;
}

# Starts a command with stdout and stderr in LOG.out and LOG.err.
sub start_logged {
	my ($log, @cmd) = @_;
	my $pid = fork() // die "fork: $!";
	return $pid if $pid;
	open(STDOUT, '>', "$log.out") or die;
	open(STDERR, '>', "$log.err") or die;
	exec(@cmd) or die "exec $cmd[0]: $!";
}

# Runs a command the same way; returns its exit status.
sub run_logged {
	waitpid(start_logged(@_), 0);
	return $? >> 8;
}

# Polls until CHECK returns true or SECONDS pass; returns CHECK's value.
sub wait_for {
	my ($seconds, $check) = @_;
	my $end = time() + $seconds;
	while (time() < $end) {
		my $v = $check->();
		return $v if $v;
		select(undef, undef, undef, 0.1);
	}
	return $check->();
}

sub slurp {
	open(my $fh, '<', $_[0]) or return '';
	local $/;
	return <$fh>;
}

# The records wis report finds in one file, in order; its verdict on
# them (stderr) is not what these tests look at.
sub records {
	my $pid = open(my $fh, '-|') // die "fork: $!";
	if (!$pid) {
		open(STDERR, '>', '/dev/null') or die;
		exec($wis, 'report', '--json', $_[0]) or die "exec $wis: $!";
	}
	my @r = map { decode_json($_) } <$fh>;
	close($fh);
	return @r;
}

# A point that measured (ok, every task ran, a rate), or one a busy host
# starved (TCG vCPUs are host threads), which says which task and sample
# and the load, or one others' work made noisy, which gives their share
# above 10 % beyond its resolution: never ok without a task's operations.
sub measured {
	my ($p) = @_;
	return defined $p->{starved_task} && defined $p->{starved_sample} &&
	       defined $p->{procs_running}
		if $p->{status} eq 'starved';
	return defined $p->{others_pct} &&
	       $p->{others_pct} - $p->{others_res_pct} > 10
		if $p->{status} eq 'noisy';
	return $p->{status} eq 'ok' && $p->{average} > 0 &&
	       !grep({ $_ <= 0 } @{$p->{min} // [0]});
}


1;
