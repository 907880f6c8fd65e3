#!/usr/bin/perl
# series.pl TEMPLATE.wis DIR RUNS [TEST:TASKS[=RATE] CV SEED [CHANGE...]]...
#
# For tests of wis history's detection on generated series made from
# real records: RUNS record files DIR/r001.wis ... , each TEMPLATE's run
# record (its own run id, dated a minute after the one before) and point
# records, framed with their CRC.  Each series named (a test and a task
# count of TEMPLATE, processes mode) moves along the runs: its point's
# rates (average, per_task) are RATE (1e6 when not given) times a level
# times 1 + CV N(0, 1), N from a generator seeded with SEED: never the
# template's measured rate, since the p-values' permutations are seeded
# from the values and a machine's rate would make a test's answer its own.  The level starts
# at 1; a CHANGE RUN:FACTOR multiplies it by FACTOR from run RUN (1 is
# the first) on; ramp:FROM:TO:TOTAL moves it straight from run FROM to
# run TO by TOTAL (-0.15: 15 % lower at TO).  Points of other series keep
# the template's rates.  Arguments after RUNS come in groups: a series'
# three, then its changes, up to the next TEST:TASKS.
use strict;
use warnings;
use Compress::Zlib qw(crc32);

my $usage = "usage: series.pl TEMPLATE.wis DIR RUNS [TEST:TASKS[=RATE] CV SEED [CHANGE...]]...\n";
my $key_re = qr/^([A-Za-z][\w-]*:\d+)(?:=([\d.]+))?$/;
my ($template, $dir, $runs, @spec) = @ARGV;
die $usage unless defined $runs && $runs =~ /^\d+$/;

# Park and Miller's minimal standard generator, exact in doubles: the
# same draws on every machine; uniform in (0, 1).
sub uniform {
	my ($state) = @_;
	$$state = (16807 * $$state) % 2147483647;
	return $$state / 2147483647;
}

# Box and Muller's normal draw.
sub normal {
	my ($state) = @_;
	my ($u, $v) = (uniform($state), uniform($state));
	return sqrt(-2 * log($u)) * cos(6.283185307179586 * $v);
}

my (%factor, %rate);	# "test:tasks" => [factor per run], its rate
while (@spec) {
	my ($arg, $cv, $seed) = splice(@spec, 0, 3);
	die $usage unless defined $seed && $arg =~ $key_re;
	my $key = $1;
	$rate{$key} = $2 // 1e6;
	my @level = (1) x $runs;
	while (@spec && $spec[0] !~ $key_re) {
		my $c = shift @spec;
		if ($c =~ /^(\d+):([\d.]+)$/) {
			$level[$_] *= $2 for $1 - 1 .. $runs - 1;
		} elsif ($c =~ /^ramp:(\d+):(\d+):([-\d.]+)$/) {
			my ($from, $to, $total) = ($1 - 1, $2 - 1, $3);
			for my $r (0 .. $runs - 1) {
				my $k = $r < $from ? 0 : $r > $to ? 1 : ($r - $from) / ($to - $from);
				$level[$r] *= 1 + $total * $k;
			}
		} else {
			die "series.pl: $c: not RUN:FACTOR or ramp:FROM:TO:TOTAL\n";
		}
	}
	my $state = $seed % 2147483646 + 1;
	$factor{$key} = [ map { $level[$_] * (1 + $cv * normal(\$state)) } 0 .. $runs - 1 ];
}

open(my $in, '<', $template) or die "series.pl: $template: $!\n";
my @payloads = map { /^WIS1 [0-9a-f]{8} (\{.*\})$/ ? $1 : () } <$in>;
close($in);
die "series.pl: $template holds no records\n" unless @payloads;

for my $r (0 .. $runs - 1) {
	my $run = sprintf('series-%03d', $r + 1);
	my $path = sprintf('%s/r%03d.wis', $dir, $r + 1);
	open(my $out, '>', $path) or die "series.pl: $path: $!\n";
	for my $payload (@payloads) {
		my $p = $payload;
		$p =~ s/^\{"run":"[^"]*"/{"run":"$run"/;
		$p =~ s/"date":"[^"]*"/sprintf('"date":"2026-01-01T%02d:%02d:00Z"', $r \/ 60, $r % 60)/e;
		# The rates are the generator's: a template point the machine
		# starved or made noisy is taken as measured.
		$p =~ s/"status":"(noisy|starved)","message":"[^"]*"/"status":"ok"/;
		if ($p =~ /"type":"point"/ && $p =~ /"test":"([^"]*)","mode":"processes","tasks":(\d+)/ &&
		    $factor{"$1:$2"}) {
			my ($key, $tasks) = ("$1:$2", $2);
			my $f = $factor{$key}[$r];
			my $avg = $rate{$key};
			$p =~ s/"average":[-0-9.e+]+/sprintf('"average":%.17g', $avg * $f)/e;
			$p =~ s/"per_task":[-0-9.e+]+/sprintf('"per_task":%.17g', $avg * $f \/ $tasks)/e;
		}
		printf $out "WIS1 %08x %s\n", crc32($p), $p;
	}
	close($out) or die "series.pl: $path: $!\n";
}
