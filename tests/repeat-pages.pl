#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-only
# repeat-pages.pl IN COPIES OUT - IN, an uncompressed version 6 trace.dat without
# instances, with every CPU's pages repeated COPIES times: copy k has each page
# header's time stamp moved k x 10 s later, so every CPU's records still run forward
# in time (records are deltas from their page's stamp, spec §7). A big file made from
# a fixture, without recording, for tests that need work that lasts a while.
use strict;
use warnings;

my ($in, $copies, $out) = @ARGV;
die "usage: repeat-pages.pl IN COPIES OUT\n" unless defined $out && $copies =~ /^[1-9]\d*$/;
open(my $f, '<:raw', $in) or die "$in: $!\n";
my $d = do { local $/; <$f> };
close $f;

# §1: magic (3), "tracing" (7), version string, endian, long size, page size
my $v = index($d, "\0", 10);
die "$in: not a version 6 file\n" unless substr($d, 10, $v - 10) eq '6';
my $page = unpack('V', substr($d, $v + 3, 4));
# §3: the data part follows the only "flyrecord" tag; its CPU count is the u32
# just before the options tag
my $fly = index($d, "flyrecord\0");
my $opt = index($d, "options  \0");
die "$in: no flyrecord section\n" if $fly < 0 || $opt < 4;
my $ncpus = unpack('V', substr($d, $opt - 4, 4));
my $table = $fly + 10;
my @cpu = map { [unpack('Q< Q<', substr($d, $table + 16 * $_, 16))] } 0 .. $ncpus - 1;
my $clen = unpack('Q<', substr($d, $table + 16 * $ncpus, 8));
my $clock = substr($d, $table + 16 * $ncpus, 8 + $clen);
my $pos = $table + 16 * $ncpus + length($clock);
my $start = int(($pos + $page - 1) / $page) * $page;

open(my $o, '>:raw', $out) or die "$out: $!\n";
my $at = $start;
my @new;
for my $c (@cpu) {
	my $size = $c->[1] * $copies;
	push @new, $size ? [$at, $size] : [0, 0];
	$at += int(($size + $page - 1) / $page) * $page;
}
print $o substr($d, 0, $table), map({ pack('Q< Q<', @$_) } @new), $clock;
print $o "\0" x ($start - $pos);
for my $i (0 .. $#cpu) {
	my ($off, $size) = @{$cpu[$i]};
	next unless $size;
	die "$in: CPU $i data is not whole pages\n" if $size % $page;
	for my $k (0 .. $copies - 1) {
		my $blob = substr($d, $off, $size);
		for (my $p = 0; $p < $size; $p += $page) {
			my $ts = unpack('Q<', substr($blob, $p, 8));
			substr($blob, $p, 8) = pack('Q<', $ts + $k * 10_000_000_000);
		}
		print $o $blob;
	}
	my $pad = $new[$i][0] + $new[$i][1];
	print $o "\0" x ((int(($pad + $page - 1) / $page) * $page) - $pad);
}
close $o or die "$out: $!\n";
