#!/usr/bin/perl
# LAVA's own dispatcher runs the QEMU job of ./build.sh lava (TCG) on the
# device dictionary of tests/lava/qemu.yaml.  Its results: one test case
# per point, a pass with the point record's rate in ops/s, a fail for a
# point that failed (open4 on a path that cannot be created), and a job
# that passes; a sweep stopped early keeps its finished points and fails
# the job.  wis report reads the dispatcher's log into the same table as
# the records the guest wrote to its virtio-serial port.
use strict;
use warnings;
use Cwd qw(getcwd);
use File::Temp qw(tempdir);
use Test::More;
use lib 'tests/lib';
use WisBoot;

require_image();
plan skip_all => 'lava-dispatcher not installed (./build.sh test installs it)'
	unless -x '/usr/bin/lava-run';
plan skip_all => 'lava-run runs as root' if $> != 0;

my $root = getcwd();
my $tmp = tempdir(CLEANUP => 1);
my @quick = ('wis.tasks=1', 'wis.samples=1', 'wis.warmup=0');

# The job ./build.sh lava writes for KEYS, copied to DIR/job.yaml.
sub make_job {
	my ($dir, @keys) = @_;
	mkdir($dir) or die "$dir: $!";
	is(run_logged("$dir/build", './build.sh', 'lava', @keys), 0,
	   "./build.sh lava @keys") or diag(slurp("$dir/build.err"));
	system('cp', "$out/lava/qemu.yaml", "$dir/job.yaml") == 0 or die;
}

# lava-run in DIR (QEMU writes virtio.wis there), its log in DIR/output.yaml;
# returns its exit status.
sub lava_run {
	my ($dir, $id) = @_;
	my $pid = fork() // die "fork: $!";
	if (!$pid) {
		chdir($dir) or die;
		open(STDOUT, '>', 'lava-run.out') or die;
		open(STDERR, '>', 'output.yaml') or die;
		exec('timeout', '1200', 'lava-run', '--job-id', $id,
		     '--output-dir', "$dir/out", '--device',
		     "$root/tests/lava/qemu.yaml", 'job.yaml') or die;
	}
	waitpid($pid, 0);
	return $? >> 8;
}

# The entries of a LAVA log, read with LAVA's YAML loader: "results"
# entries as {definition, case, result, measurement, units, error_msg},
# "error" entries as {error => message}.
sub lava_log {
	my $pid = open(my $fh, '-|') // die "fork: $!";
	if (!$pid) {
		exec('/usr/bin/python3', '-c', <<'EOF', $_[0]) or die;
import json, sys, yaml
for line in open(sys.argv[1], encoding="utf-8"):
    entry = yaml.load(line, Loader=yaml.CSafeLoader)[0] if line.startswith("- ") \
        else yaml.load(line, Loader=yaml.CSafeLoader)
    if entry["lvl"] == "results":
        print(json.dumps({k: entry["msg"].get(k) for k in
            ("definition", "case", "result", "measurement", "units", "error_msg")}))
    elif entry["lvl"] == "error":
        print(json.dumps({"error": entry["msg"]}))
EOF
	}
	my @e = map { JSON::PP::decode_json($_) } <$fh>;
	close($fh);
	return @e;
}

sub wis_cases { return grep { ($_->{definition} // '') eq 'wis' } @_ }

# --- a sweep with a failing point ------------------------------------------

my $a = "$tmp/a";
make_job($a, 'wis.tests=getppid1,open4', 'wis.mode=both', @quick,
	 'wis.interval=100', 'wis.shared=/proc/wis-none');
is(lava_run($a, "$$" . '1'), 0, 'lava-run exits 0')
	or diag(slurp("$a/output.yaml"));
like(slurp("$a/out/result.yaml"), qr/^result: pass$/m,
     "LAVA's result.yaml: the job passed");
my @log = lava_log("$a/output.yaml");
is_deeply([grep { $_->{error} } @log], [], 'no LAVA error in the log');
my @lava = grep { ($_->{definition} // '') eq 'lava' } @log;
is_deeply([grep { $_->{result} ne 'pass' } @lava], [],
	  "every one of LAVA's own steps passed (" .
	  join(', ', map { $_->{case} } @lava) . ')');

my @records = records("$a/virtio.wis");
my @points = grep { $_->{type} eq 'point' } @records;
is(scalar(@points), 4, 'the guest wrote 4 point records');
is($records[-1]{type}, 'end', '... and its end record');
my %case = map { $_->{case} => $_ } wis_cases(@log);
is(scalar(wis_cases(@log)), 4, 'one test case per point');
for my $p (@points) {
	my $name = "$p->{test}_$p->{mode}_$p->{tasks}";
	my $c = $case{$name};
	ok($c, "$name: a test case") or next;
	if ($p->{status} eq 'ok') {
		is($c->{result}, 'pass', "$name: pass");
		is($c->{measurement}, sprintf('%.0f', $p->{average}),
		   "$name: its measurement is the record's rate");
		is($c->{units}, 'ops/s', "$name: in ops/s");
	} else {
		is($c->{result}, 'fail', "$name ($p->{status}): fail");
		is($c->{measurement}, undef, "$name: no measurement");
	}
}
is(scalar(grep { $_->{result} eq 'pass' } wis_cases(@log)), 2,
   'getppid1 in both modes passed');

my $direct = `$wis report $a/virtio.wis 2>/dev/null`;
my $via_lava = `$wis report $a/output.yaml 2>$a/report.err`;
like($via_lava, qr/^getppid1 /m, 'wis report reads the LAVA log');
is($via_lava, $direct,
   "the LAVA log's table is the virtio-serial records' table");
unlike(slurp("$a/report.err"), qr/corrupt/, 'no frame of the log rejected');

# --- a sweep stopped early -------------------------------------------------

my $b = "$tmp/b";
make_job($b, 'wis.tests=getppid1', 'wis.mode=both', @quick,
	 'wis.interval=1500', 'wis.timeout=1');
isnt(lava_run($b, "$$" . '2'), 0, 'stopped early: lava-run fails the job');
like(slurp("$b/out/result.yaml"), qr/^result: fail$/m,
     "... as LAVA's result.yaml says");
@log = lava_log("$b/output.yaml");
my @cases = wis_cases(@log);
is_deeply([map { "$_->{case} $_->{result}" } @cases],
	  ['getppid1_processes_1 pass'], '... with the point it finished');
my ($monitor) = grep { ($_->{case} // '') eq 'lava-test-monitor' } @log;
is($monitor && $monitor->{result}, 'fail',
   '... its monitors action failed: no end marker');

system("cat $a/output.yaml $b/output.yaml >$tmp/fleet.yaml") == 0 or die;
my $fleet = `$wis report $tmp/fleet.yaml 2>/dev/null`;
is(scalar(() = $fleet =~ /^run /mg), 2,
   'both jobs\' logs in one file: two runs in one report');

done_testing();
