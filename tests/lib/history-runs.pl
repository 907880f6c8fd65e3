#!/usr/bin/perl
# history-runs.pl [OPTIONS] TEMPLATE DIR: a generated history, for tests whose
# answer is a decision (a step, an alarm) and so must not depend on the
# machine's load.  Each of --runs runs is TEMPLATE's records (a real
# run, tests/fixtures/) with every point's rates scaled: by a factor
# drawn from a normal law of sd --noise around 1 (Perl's generator,
# seeded by --seed: the same options give the same files, and run i's
# draws are the same whatever --runs is), by --scale, and by each
# --step TEST:RUN:CHANGE (TEST's rates times 1 + CHANGE from run RUN
# on; TEST '*' is every test, as a machine that slowed down).  Run i
# goes to DIR/NNN.wis (i from 1, three digits) with the run id
# PREFIX-i (--id, gen), its date --hour plus i hours after
# 2026-01-01T00:00Z, and each --set KEY=VALUE in its run record; the
# frames are made again with their CRC (docs/records.md).
use strict;
use warnings;
use Compress::Zlib qw(crc32);
use Getopt::Long;

my ($runs, $seed, $noise, $scale, $prefix, $hour0) = (20, 1, 0.01, 1, 'gen', 0);
my (@steps, @sets);
GetOptions('runs=i' => \$runs, 'seed=i' => \$seed, 'noise=f' => \$noise,
	   'scale=f' => \$scale, 'step=s' => \@steps, 'set=s' => \@sets,
	   'id=s' => \$prefix, 'hour=i' => \$hour0)
	and @ARGV == 2 or die "usage: history-runs.pl [OPTIONS] TEMPLATE DIR\n";
my ($template, $dir) = @ARGV;

open(my $in, '<', $template) or die "$template: $!\n";
my @frames = grep { defined } map { /^WIS1 [0-9a-f]{8} (\{.*\})$/ ? $1 : undef } <$in>;
close($in);
my $points = grep { /"type":"point"/ } @frames;

# A standard normal draw (Box-Muller); two uniform draws each.
sub normal {
	my $u = 1 - rand();
	return sqrt(-2 * log($u)) * cos(2 * 3.14159265358979 * rand());
}

sub frame {
	my ($fh, $payload) = @_;
	printf $fh "WIS1 %08x %s\n", crc32($payload), $payload;
}

srand($seed);
for my $i (1 .. $runs) {
	my $id = "$prefix-$i";
	my $h = $hour0 + $i;
	my $date = sprintf("2026-%02d-%02dT%02d:00:00Z", 1 + int($h / 24 / 28),
			   1 + int($h / 24) % 28, $h % 24);
	# Every run draws once per point, measured or not: run i's draws
	# never depend on how many runs follow.
	my @factor = map { 1 + $noise * normal() } 1 .. $points;
	my $k = 0;
	open(my $out, '>', sprintf("%s/%03d.wis", $dir, $i)) or die "$dir: $!\n";
	for (@frames) {
		my $p = $_;
		$p =~ s/^\{"run":"[^"]*"/{"run":"$id"/;
		if ($p =~ /"type":"run"/) {
			$p =~ s/"date":"[^"]*"/"date":"$date"/;
			for my $set (@sets) {
				my ($key, $value) = split(/=/, $set, 2);
				my $json = $value =~ /^-?[0-9.]+$/ ? $value : "\"$value\"";
				$p =~ s/"$key":("[^"]*"|[^,}]*)/"$key":$json/
					or $p =~ s/\}$/,"$key":$json}/;
			}
		} elsif ($p =~ /"type":"point"/) {
			my ($test) = $p =~ /"test":"([^"]*)"/;
			my $f = $scale * $factor[$k++];
			for my $step (@steps) {
				my ($t, $from, $change) = split(/:/, $step);
				$f *= 1 + $change if ($t eq '*' || $t eq $test) && $i >= $from;
			}
			$p =~ s{"(average|per_task)":([0-9.e+-]+)}{sprintf('"%s":%.15g', $1, $2 * $f)}ge;
			$p =~ s{"(total|min|max)":\[([^\]]*)\]}{qq{"$1":[} . join(",", map { int($_ * $f) } split(/,/, $2)) . "]"}ge;
		}
		frame($out, $p);
	}
	close($out) or die "$dir: $!\n";
}
