#!/usr/bin/perl
# README.md and docs/ name only what exists: every repository path, file
# link and section they refer to, every wis command and flag they show
# (the command's --help lists it) and every wis.* key (the key table).
use strict;
use warnings;
use Test::More;

# The host's wis: the image's commands and the store's (import, history).
(my $wis = $ENV{WIS} // 'out/rootfs/bin/wis') =~ s{/rootfs/bin/wis$}{/bin/wis};
my @docs = ('README.md', glob('docs/*.md'));
my @top = qw(bench tests qemu init rootfs kconfig docs .ci);
my %help;	# subcommand -> its --help text

sub slurp {
	my ($path) = @_;
	open(my $fh, '<', $path) or die "$path: $!";
	local $/;
	return <$fh>;
}

sub help_of {
	my ($cmd) = @_;
	$help{$cmd} //= `'$wis' $cmd --help 2>&1`;
	return $help{$cmd};
}

# GitHub's anchor of a heading.
sub anchor {
	my ($title) = @_;
	$title = lc $title;
	$title =~ s/[^\w\- ]//g;
	$title =~ tr/ /-/;
	return $title;
}

sub headings {
	my ($path) = @_;
	return () unless -f $path;
	return map { s/^#+\s*//r } grep { /^#+ / } split /\n/, slurp($path);
}

# A placeholder (NAME, N, ...), a glob or an elision stands for files.
sub placeholder {
	my ($path) = @_;
	return $path =~ /[A-Z]{1,}(?![a-z])|\*|\.\.\.|[<>{}]/;
}

my %keys = map { /^\| `(wis\.[a-z_]+)`/ ? ($1 => 1) : () }
	   split /\n/, `'$wis' sweep --help-keys 2>&1`;
ok(keys %keys > 10, 'the key table lists the keys');

my (@bad_paths, @bad_links, @bad_sections, @bad_flags, @bad_keys);
for my $doc (@docs) {
	my $text = slurp($doc);
	(my $dir = $doc) =~ s{[^/]*$}{};
	my $top = join '|', map { quotemeta } @top;

	# Repository paths, in code or prose: not part of a longer path.
	while ($text =~ m{(?<![\w./-])((?:$top)/[\w./+-]*)}g) {
		(my $path = $1) =~ s/[.,:]+$//;
		next if placeholder($path) || -e $path;
		push @bad_paths, "$doc: $path";
	}
	# Links to files of the tree, and their #anchors.
	while ($text =~ m{\]\(([^)\s]+)\)}g) {
		my $link = $1;
		next if $link =~ m{^[a-z]+:};
		my ($file, $frag) = split /#/, $link, 2;
		$file = $file eq '' ? $doc : "$dir$file";
		if (!-e $file) {
			push @bad_links, "$doc: $link";
		} elsif (defined $frag &&
			 !grep { anchor($_) eq $frag } headings($file)) {
			push @bad_links, "$doc: $link (no such section)";
		}
	}
	# Sections named in prose: (README, "Title") or see "Title".
	while ($text =~ m{(README|[\w/-]+\.md),?\s+"([^"]+)"}g) {
		my ($file, $title) = ($1, $2);
		$title =~ s/\s+/ /g;
		$file = $file eq 'README' ? 'README.md' :
			-e "$dir$file" ? "$dir$file" : $file;
		push @bad_sections, "$doc: $file, \"$title\""
			unless grep { $_ eq $title } headings($file);
	}
	# wis command lines, in code blocks or inline code.
	my @lines = ($text =~ /`([^`\n]+)`/g);
	my $in_block = 0;
	for (split /\n/, $text) {
		$in_block = !$in_block if /^```/;
		push @lines, $_ if $in_block;
	}
	for my $line (@lines) {
		next unless $line =~ m{(?:^|[\s(]|bin/)wis\s+([a-z]+)\b(.*)};
		my ($cmd, $rest) = ($1, $2);
		next unless help_of('') =~ /^  $cmd\b/m;
		$rest =~ s/\s(?:[|;>#]|&&|2>).*//;
		for my $word (split /\s+/, $rest) {
			next unless $word =~ /^(--?[a-zA-Z][\w-]*)/;
			my $flag = $1;
			push @bad_flags, "$doc: wis $cmd $flag"
				unless help_of($cmd) =~ /(?<![\w-])\Q$flag\E(?![\w-])/;
		}
	}
	# wis.* keys, not file names such as wis.h.
	while ($text =~ /(?<![\w.\/-])(wis\.[a-z_]+)(?![\w-]|\.[a-z])/g) {
		my $key = $1;
		# wis.results: the virtio-serial port's name.
		next if $key =~ /^wis\.(?:h|c|mk|wis|t|results)$/;
		push @bad_keys, "$doc: $key" unless $keys{$key};
	}
}

# The C blocks of writing-tests.md compile as the suite's tests do.
my $n = 0;
for my $c (slurp('docs/writing-tests.md') =~ /^```c\n(.*?)^```/msg) {
	my $src = "/tmp/wis-docs-$$-" . $n++ . '.c';
	open(my $fh, '>', $src) or die "$src: $!";
	print $fh $c;
	close($fh);
	my $err = `cc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -fsyntax-only -Ibench/harness -Ibench/base $src 2>&1`;
	unlink $src;
	is($err, '', "writing-tests.md: C block $n compiles");
}
ok($n >= 2, 'writing-tests.md: a template with set-up and one without');

# A page a reader finishes, each one reachable from the README's list.
my $readme = slurp('README.md');
my @long = grep { (() = slurp($_) =~ /\n/g) > 600 } glob('docs/*.md');
my $readme_lines = () = $readme =~ /\n/g;
ok($readme_lines <= 220, "README.md is at most 220 lines ($readme_lines)");
my @unlisted = grep { index($readme, "]($_)") < 0 } glob('docs/*.md');

sub none {
	my ($what, @bad) = @_;
	is(join("\n", @bad), '', $what);
}
none('every repository path named exists', @bad_paths);
none('every file link and its section exist', @bad_links);
none('every section named in prose exists', @bad_sections);
none("every wis command's flag shown is in its --help", @bad_flags);
none('every wis.* key shown is in the key table', @bad_keys);
none('no page of docs/ is over 600 lines', @long);
none("every page of docs/ is linked from README.md", @unlisted);
done_testing();
