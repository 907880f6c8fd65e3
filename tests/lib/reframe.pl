#!/usr/bin/perl
# reframe.pl CODE <IN >OUT: every WIS1 frame of IN with its payload
# (in $_) rewritten by the Perl CODE, framed again with the CRC-32 of
# the new payload (docs/records.md); other lines unchanged.  $n counts
# the frames, from 0.  For tests that plant changes in real records.
use strict;
use warnings;
use Compress::Zlib qw(crc32);

my $code = shift // die "usage: reframe.pl CODE <IN >OUT\n";
my $edit = eval "sub { our \$n; $code }" or die $@;
our $n = 0;
while (my $line = <STDIN>) {
	if ($line =~ /^(.*?)WIS1 [0-9a-f]{8} (\{.*\})\n\z/s) {
		my $head = $1;
		local $_ = $2;
		$edit->();
		printf "%sWIS1 %08x %s\n", $head, crc32($_), $_;
		$n++;
	} else {
		print $line;
	}
}
