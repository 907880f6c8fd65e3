#!/usr/bin/perl
# test-names.pl NAMES FILE...: "FILE:LINE: NAME" for every test name (one
# a line in NAMES) that FILE's code holds.  C: the string literals, the
# comments stripped.  JavaScript: the code, the comments stripped.  Any
# other file (shell, Perl, make, Kconfig): the lines that are not
# comments, less the value of a wis.tests= word (a sweep's workload, a
# command line as a preset is one) and the library a Ruby require loads.
use strict;
use warnings;

my $names = shift(@ARGV) // die "usage: test-names.pl NAMES FILE...\n";
open(my $fh, '<', $names) or die "$names: $!\n";
chomp(my @names = <$fh>);
close($fh);
my $name_re = join('|', map { quotemeta } @names);
$name_re = qr/(?<![\w.])($name_re)(?![\w])/;

# The text with every comment's characters blanked, newlines kept, so
# that line numbers still count.  Strings are kept whole.
sub strip_c_comments {
	my ($text) = @_;
	$text =~ s{
		("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`)
		| (/\*.*?\*/|//[^\n]*)
	}{ defined $2 ? ($2 =~ tr/\n//cr =~ tr/\n/ /cr) : $1 }gsex;
	return $text;
}

sub report {
	my ($file, $text, $pos, $name) = @_;
	my $line = 1 + (substr($text, 0, $pos) =~ tr/\n//);
	print "$file:$line: $name\n";
}

for my $file (@ARGV) {
	next if -B $file;
	open(my $in, '<', $file) or die "$file: $!\n";
	my $text = do { local $/; <$in> };
	close($in);
	if ($file =~ /\.[ch]$|\.def$/) {
		$text = strip_c_comments($text);
		while ($text =~ /"((?:\\.|[^"\\\n])*)"/g) {
			my ($lit, $at) = ($1, $-[1]);
			report($file, $text, $at, $1) while $lit =~ /$name_re/g;
		}
	} elsif ($file =~ /\.js$/) {
		$text = strip_c_comments($text);
		report($file, $text, $-[1], $1) while $text =~ /$name_re/g;
	} else {
		my $n = 0;
		for my $line (split(/\n/, $text)) {
			$n++;
			next if $line =~ /^\s*#/;
			$line =~ s/\bwis\.tests=[^\s"']*//g;
			$line =~ s/^\s*require\s+'\w+'//;
			print "$file:$n: $1\n" while $line =~ /$name_re/g;
		}
	}
}
