#!/usr/bin/perl
# wis report --kcidb: every field it writes checked against the records
# it came from (tests/fixtures, and records derived from them: a second
# kernel, an unsupported point with a hostile test name, a starved
# point, a long reason, one kernel release built from two commits and
# two configs, named by the store's labels)
# and against what KCIDB I/O v5 allows (kcidb-io's
# kcidb_io/schema/v05_*.py): ids "ORIGIN:...", the path pattern, the
# status names, number's fields, log_excerpt's length, git_commit_hash's
# and git_repository_url's patterns, start_time's date-time, no null.
use strict;
use warnings;
use Compress::Zlib qw(crc32);
use JSON::PP;
use Test::More;
use lib 'tests/lib';
use WisReport;

my $fx = 'tests/fixtures';

# The fixture FILE as NAME.wis with each payload passed through EDIT,
# framed again with its CRC.
sub derive {
	my ($name, $file, $edit) = @_;
	open(my $o, '>', "$tmp/$name.wis") or die;
	for (split(/\n/, slurp($file))) {
		my ($p) = /^WIS1 \S{8} (\{.*\})$/ or next;
		$p = $edit->($p);
		printf $o "WIS1 %08x %s\n", crc32($p), $p;
	}
	close($o) or die;
	return "$tmp/$name.wis";
}

# What KCIDB v5 allows, as kcidb-io's schema states it.
my $path_re = qr/^([a-zA-Z0-9_-]+(\.[a-zA-Z0-9_-]+)*)?$/;
my %statuses = map { $_ => 1 } qw(FAIL ERROR MISS PASS DONE SKIP);

sub has_null {
	my ($v) = @_;
	return 1 unless defined $v;
	return scalar(grep { has_null($_) } @$v) if ref($v) eq 'ARRAY';
	return scalar(grep { has_null($_) } values %$v) if ref($v) eq 'HASH';
	return 0;
}

# The schema's rules over a whole document; the names of what broke.
sub schema_faults {
	my ($doc, $origin) = @_;
	my @bad;
	my $id_re = qr/^\Q$origin\E:/;
	push(@bad, 'version') unless $doc->{version}{major} == 5 && $doc->{version}{minor} >= 0;
	push(@bad, 'null') if has_null($doc);
	push(@bad, 'top-level key') if grep { !/^(version|checkouts|builds|tests)$/ } keys %$doc;
	for my $o (@{$doc->{checkouts}}, @{$doc->{builds}}, @{$doc->{tests}}) {
		push(@bad, "id $o->{id}") unless $o->{id} =~ $id_re && $o->{origin} eq $origin;
	}
	for my $c (@{$doc->{checkouts}}) {
		push(@bad, "git_commit_hash $c->{git_commit_hash}")
			if exists $c->{git_commit_hash} && $c->{git_commit_hash} !~ /^[0-9a-f]{40}$/;
		push(@bad, "git_repository_url $c->{git_repository_url}")
			if exists $c->{git_repository_url} && $c->{git_repository_url} !~ m{^https://[^\0\s]*$};
	}
	for my $b (@{$doc->{builds}}) {
		push(@bad, "checkout_id $b->{checkout_id}") unless $b->{checkout_id} =~ $id_re;
	}
	for my $t (@{$doc->{tests}}) {
		push(@bad, "path $t->{path}") unless $t->{path} =~ $path_re;
		push(@bad, "status $t->{status}") unless $statuses{$t->{status}};
		push(@bad, "build_id $t->{build_id}") unless $t->{build_id} =~ $id_re;
		push(@bad, 'log_excerpt length') if length($t->{log_excerpt} // '') > 16384;
		push(@bad, "start_time $t->{start_time}") if exists $t->{start_time} &&
			$t->{start_time} !~ /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
		next unless $t->{number};
		push(@bad, 'number') if grep { !/^(value|unit|prefix)$/ } keys %{$t->{number}};
		push(@bad, 'prefix') if ($t->{number}{prefix} // 'metric') !~ /^(metric|binary)$/;
	}
	return @bad;
}

# 1. A run with two failed points, field by field against its records.
my @recs = records("$fx/failed.wis");
my ($head) = grep { $_->{type} eq 'run' } @recs;
my @points = grep { $_->{type} eq 'point' } @recs;
is(wis('report', '--kcidb', "$fx/failed.wis"), 1, 'a run with failed points: exit 1, as wis report');
my $doc = eval { decode_json($out) };
ok($doc, '... the output is one JSON document') or diag($@);
is_deeply([schema_faults($doc, 'wis')], [], '... within what KCIDB v5 allows');
is(scalar(@{$doc->{checkouts}}), 1, '... one checkout');
is($doc->{checkouts}[0]{id}, "wis:$head->{kernel}", '... named by the kernel release');
is(scalar(@{$doc->{builds}}), 1, '... one build');
my $build = $doc->{builds}[0];
is($build->{checkout_id}, $doc->{checkouts}[0]{id}, '... the build of that checkout');
# An id's field as the id carries it: percent-encoded, a URL path segment.
sub id_part {
	my ($s) = @_;
	$s =~ s/([^A-Za-z0-9_.~-])/sprintf('%%%02X', ord($1))/ge;
	return $s;
}

is($build->{id}, join(':', 'wis', map { id_part($_) } @$head{qw(kernel kernel_version machine)}),
   '... named by release, version and architecture, each encoded');
is($build->{architecture}, $head->{machine}, '... its architecture the run\'s machine');
is(scalar(@{$doc->{tests}}), scalar(@points), '... one test per point');
my %ids = map { $_->{id} => 1 } @{$doc->{tests}};
is(scalar(keys %ids), scalar(@points), '... each with its own id');

my ($done, $fail) = (0, 0);
for my $i (0 .. $#points) {
	my ($p, $t) = ($points[$i], $doc->{tests}[$i]);
	my $what = "$p->{test} $p->{mode} $p->{tasks}";
	is($t->{path}, "will-it-scale.$p->{test}.$p->{mode}.$p->{tasks}", "$what: its path");
	is($t->{build_id}, $build->{id}, "$what: the build");
	is($t->{environment}{misc}{id}, $head->{id}, "$what: the machine's wis.id");
	is($t->{environment}{misc}{cpu_model}, $head->{cpu_model}, "$what: the CPU model");
	is($t->{misc}{run}, $p->{run}, "$what: the run id");
	if ($p->{status} eq 'ok') {
		$done++;
		is($t->{status}, 'DONE', "$what: DONE");
		ok(abs($t->{number}{value} - $p->{average}) <= 1e-12 * $p->{average},
		   "$what: number is the average rate");
		is("$t->{number}{unit} $t->{number}{prefix}", 'ops/s metric', "$what: in ops/s, metric prefix");
		ok(!exists $t->{log_excerpt}, "$what: no log excerpt");
	} else {
		$fail++;
		is($t->{status}, 'FAIL', "$what: FAIL");
		is($t->{log_excerpt}, "$p->{status}: $p->{message}", "$what: the reason in log_excerpt");
		ok(!exists $t->{number}, "$what: no number");
	}
}
ok($done && $fail, "both kinds seen ($done done, $fail failed)");

# 2. The origin given.
is(wis('report', '--kcidb', '--origin', 'lab_2', "$fx/clean.wis"), 0, '--origin lab_2: exit 0');
$doc = decode_json($out);
is_deeply([schema_faults($doc, 'lab_2')], [], '... every id and origin is lab_2\'s');
for my $bad ('Lab', 'a-b', 'a:b', '') {
	is(wis('report', '--kcidb', '--origin', $bad, "$fx/clean.wis"), 2, "--origin '$bad': exit 2");
	like($err, qr/bad value '\Q$bad\E' for --origin/, '... naming the value');
}
is(wis('report', '--origin', 'lab', "$fx/clean.wis"), 2, '--origin without --kcidb: usage, exit 2');
is(wis('report', '--kcidb', '--compare', "$fx/base.wis", "$fx/clean.wis"), 2,
   '--kcidb with --compare: usage, exit 2');

# 3. Two kernels, an unsupported point with a name the path cannot hold,
# a starved point,
# and a reason longer than the schema allows, cut before a character.
my $long = ('x' x 16376) . "\xc3\xa9\xc3\xa9" . ('y' x 100);
my $other = derive('other', "$fx/clean.wis", sub {
	my ($p) = @_;
	$p =~ s/"kernel":"[^"]*"/"kernel":"7.0.0-next"/;
	$p =~ s/"run":"[^"]*"/"run":"other-1"/;
	$p =~ s/"test":"getppid1","mode":"processes","tasks":1,/"test":"a.b c\/d","mode":"processes","tasks":1,/;
	$p =~ s/("test":"a\.b c\/d".*)"status":"ok"/$1"status":"unsupported","message":"no O_DIRECT here"/;
	$p =~ s/("test":"getppid1","mode":"processes","tasks":2,.*)"status":"ok"/$1"status":"error","message":"$long"/;
	$p =~ s/("test":"open1","mode":"processes","tasks":1,.*)"status":"ok"/$1"status":"starved","message":"task 1 did no operation in sample 2"/;
	return $p;
});
wis('report', '--kcidb', "$fx/clean.wis", $other);
$doc = decode_json($out);
is_deeply([schema_faults($doc, 'wis')], [], 'two kernels: within what KCIDB v5 allows');
is_deeply([sort map { $_->{id} } @{$doc->{checkouts}}],
	  ['wis:6.18.44-fc-v782', 'wis:7.0.0-next'], '... a checkout each');
is(scalar(@{$doc->{builds}}), 2, '... a build each');
my ($skip) = grep { $_->{misc}{test} eq 'a.b c/d' } @{$doc->{tests}};
is($skip->{path}, 'will-it-scale.a_b_c_d.processes.1', '... a hostile test name: _ in the path');
is($skip->{status}, 'SKIP', '... an unsupported point: SKIP');
is($skip->{log_excerpt}, 'unsupported: no O_DIRECT here', '... with its reason');
ok($skip->{build_id} =~ /^wis:7\.0\.0-next:/, '... of its own kernel\'s build');
my ($starved) = grep { $_->{misc}{run} eq 'other-1' && $_->{misc}{test} eq 'open1' && $_->{path} =~ /\.processes\.1$/ } @{$doc->{tests}};
is($starved->{status}, 'ERROR', '... a starved point: ERROR, not measured');
is($starved->{log_excerpt}, 'starved: task 1 did no operation in sample 2', '... with its reason');
ok(!exists $starved->{number}, '... and no number');
my ($cut) = grep { $_->{misc}{run} eq 'other-1' && ($_->{log_excerpt} // '') =~ /^error: x/ } @{$doc->{tests}};
is(length($cut->{log_excerpt}), 16383, '... a long reason cut within 16384 characters, before the split character');

# 4. Ids are fields encoded, never joined with spaces: kernel "6.1 A"
# with version "B" and kernel "6.1" with version "A B" are two builds of
# two checkouts; a run id's colon is encoded in its tests' ids.
my @ids = map {
	my ($kernel, $version, $run) = @$_;
	derive("ids-$run", "$fx/clean.wis", sub {
		my ($p) = @_;
		$p =~ s/"kernel":"[^"]*"/"kernel":"$kernel"/;
		$p =~ s/"kernel_version":"[^"]*"/"kernel_version":"$version"/;
		$p =~ s/"run":"[^"]*"/"run":"$run"/;
		return $p;
	});
} (['6.1 A', 'B', 'r1'], ['6.1', 'A B', 'r1:1']);
wis('report', '--kcidb', @ids);
$doc = decode_json($out);
is_deeply([schema_faults($doc, 'wis')], [], 'colliding fields: within what KCIDB v5 allows');
is(scalar(@{$doc->{builds}}), 2, '... kernel "6.1 A" version "B" and kernel "6.1" version "A B": two builds');
is(scalar(keys %{{ map { $_->{id} => 1 } @{$doc->{builds}} }}), 2, '... of two ids');
is_deeply([sort map { $_->{checkout_id} } @{$doc->{builds}}],
	  ['wis:6.1', 'wis:6.1%20A'], '... each of its own checkout');
ok(scalar(grep { $_->{id} =~ /^wis:r1%3A1:\d+$/ } @{$doc->{tests}}),
   '... a test\'s id holds its run id encoded (r1:1 as r1%3A1)');

# 5. Tests start when their point's tasks were released: the run's date
# plus the uptime from its audit to the point's first sample.
use Time::Local qw(timegm);
wis('report', '--kcidb', "$fx/clean.wis");
$doc = decode_json($out);
my ($clean_head, @clean_points) = grep { $_->{type} =~ /^(run|point)$/ } records("$fx/clean.wis");
my ($y, $mo, $d, $h, $mi, $s) = $clean_head->{date} =~ /^(\d+)-(\d+)-(\d+)T(\d+):(\d+):(\d+)Z$/;
my %start = map { ($_->{id} =~ /:(\d+)$/)[0] => $_->{start_time} } @{$doc->{tests}};
my $late = 0;
for my $p (@clean_points) {
	my $after = $p->{first_sample_uptime} - $clean_head->{boot_sweep};
	my @t = gmtime(timegm($s, $mi, $h, $d, $mo - 1, $y) + int($after));
	my $want = sprintf('%04d-%02d-%02dT%02d:%02d:%02d.%03dZ', $t[5] + 1900, $t[4] + 1, @t[3, 2, 1, 0],
			   int(($after - int($after)) * 1000));
	$late++ if ($start{$p->{seq}} // '') ne $want;
}
is($late, 0, 'every test has start_time: date + first_sample_uptime - boot_sweep');

# 6. The store's labels: commit=, repo=, branch= and config= fill the
# checkout's git fields and the build's config name; runs of one kernel
# release (the same uname -r) from two commits and two configs are two
# checkouts and three builds.
my $host = $wis =~ s{/rootfs/bin/wis$}{/bin/wis}r;
my ($sha_a, $sha_b) = ('a' x 40, '0123456789abcdef0123456789abcdef01234567');
my $url = 'https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git';
my %runs = (
	a => [ "commit=$sha_a", "repo=$url", 'branch=master', 'config=defconfig' ],
	b => [ "commit=$sha_b", "repo=$url", 'branch=next', 'config=defconfig' ],
	c => [ "commit=$sha_b", "repo=$url", 'branch=next', 'config=debug' ],
	d => [],
);
{
	local $WisReport::wis = $host;
	for my $r (sort keys %runs) {
		my $f = derive("run-$r", "$fx/clean.wis", sub {
			my ($p) = @_;
			$p =~ s/"run":"[^"]*"/"run":"run-$r"/;
			return $p;
		});
		is(wis('import', "$tmp/labels.db", map({ ('--label', $_) } @{$runs{$r}}), $f), 0,
		   "run $r imported with " . (join(' ', @{$runs{$r}}) || 'no label'));
	}
	wis('report', '--db', "$tmp/labels.db", '--kcidb');
}
$doc = decode_json($out);
is_deeply([schema_faults($doc, 'wis')], [], 'labels: within what KCIDB v5 allows');
my %co = map { $_->{id} => $_ } @{$doc->{checkouts}};
is_deeply([sort keys %co], [sort("wis:$sha_a", "wis:$sha_b", "wis:$clean_head->{kernel}")],
	  '... a checkout per commit, and the release\'s for the run without one');
is_deeply([@{$co{"wis:$sha_b"}}{qw(git_commit_hash git_repository_url git_repository_branch)}],
	  [$sha_b, $url, 'next'], '... the commit, repository and branch from the labels');
ok(!exists $co{"wis:$clean_head->{kernel}"}{git_commit_hash}, '... none where no label gave them');
my %bu = map { $_->{id} => $_ } @{$doc->{builds}};
is(scalar(keys %bu), 4, '... a build per commit and config: 4 for one uname -r');
my %config = map { $_->{checkout_id} . ' ' . ($_->{config_name} // '-') => 1 } values %bu;
is_deeply([sort keys %config], [sort("wis:$sha_a defconfig", "wis:$sha_b defconfig", "wis:$sha_b debug",
				      "wis:$clean_head->{kernel} -")],
	  '... each of its checkout, with its config name');
my $wrong = 0;
for my $t (@{$doc->{tests}}) {
	my $b = $bu{$t->{build_id}} or ++$wrong and next;
	my %l = map { split(/=/, $_, 2) } @{$runs{$t->{misc}{run} =~ s/^run-//r}};
	$wrong++ if $b->{checkout_id} ne 'wis:' . ($l{commit} // $clean_head->{kernel}) ||
		    ($b->{config_name} // '') ne ($l{config} // '');
}
is($wrong, 0, '... every test of its run\'s build');

# What KCIDB cannot take is said and left out, never a schema fault.
{
	local $WisReport::wis = $host;
	my $f = derive('short', "$fx/clean.wis", sub { $_[0] =~ s/"run":"[^"]*"/"run":"short"/r });
	wis('import', "$tmp/short.db", '--label', 'commit=abc1234', '--label', 'repo=git@host:x.git', $f);
	wis('report', '--db', "$tmp/short.db", '--kcidb');
}
$doc = decode_json($out);
is_deeply([schema_faults($doc, 'wis')], [], 'a short commit and an ssh repository: still within v5');
is_deeply([@{$doc->{checkouts}[0]}{qw(id git_commit_name)}], ['wis:abc1234', 'abc1234'],
	  '... the short commit names the checkout, as git_commit_name');
ok(!exists $doc->{checkouts}[0]{git_repository_url}, '... the repository left out');
like($err, qr/commit=abc1234 is not a full commit hash.*\n.*repo=git\@host:x\.git is not an https:\/\/ URL/,
     '... both said on stderr');

# 7. No run at all: still a document.
open(my $e, '>', "$tmp/empty.wis") or die;
close($e);
is(wis('report', '--kcidb', "$tmp/empty.wis"), 1, 'no records: exit 1');
is($out, "{\"version\":{\"major\":5,\"minor\":0},\"checkouts\":[],\"builds\":[],\"tests\":[]}\n",
   '... an empty document');

done_testing();
