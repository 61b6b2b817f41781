#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-only
# newer-options.pl IN OUT - IN, an uncompressed version 7 trace.dat, with the options
# trace-cmd 3.4 added: BTF_FILE (23) and MODULES_FILE (25), each pointing to a section
# of its own, and LAST_BOOT_INFO (24), text, in an options section chained after the
# last one (spec §4.4, §5). They cannot be recorded on the test machine (they need
# function arguments or a boot-mapped buffer), so the tests make them this way.
use strict;
use warnings;

my ($in, $out) = @ARGV;
die "usage: newer-options.pl IN OUT\n" unless defined $out;
open(my $f, '<:raw', $in) or die "$in: $!\n";
my $d = do { local $/; <$f> };
close $f;

# §1, §4.1: magic (3), "tracing", version string, endian, long size, page size,
# compression name and version, then the offset of the first options section
my $p = index($d, "\0", 10) + 1 + 1 + 1 + 4;
$p = index($d, "\0", $p) + 1 for 1 .. 2;
my $next = unpack('Q<', substr($d, $p, 8));

# follow the DONE chain to the last DONE value (§4.4)
my $done;
while ($next) {
	my ($id, undef, undef, $size) = unpack('v v V Q<', substr($d, $next, 16));
	die "$in: section at $next is not an options section\n" if $id != 0;
	my ($q, $end) = ($next + 16, $next + 16 + $size);
	$next = 0;
	while ($q + 6 <= $end) {
		my ($oid, $osize) = unpack('v V', substr($d, $q, 6));
		if ($oid == 0) {
			$done = $q + 6;
			$next = unpack('Q<', substr($d, $done, 8));
			last;
		}
		$q += 6 + $osize;
	}
}
die "$in: no DONE option\n" unless defined $done;

sub section { my ($id, $body) = @_; return pack('v v V Q<', $id, 0, 0, length $body) . $body; }
sub option { my ($id, $body) = @_; return pack('v V', $id, length $body) . $body; }

my $btf_off = length $d;
my $btf = section(23, pack('v C C V V V V V', 0xeb9f, 1, 0, 24, 0, 0, 0, 0));
my $mod_off = $btf_off + length $btf;
my $mods = section(25, "tm_fake 16384 0 - Live 0xffffffffc0000000\n\0");
my $opts_off = $mod_off + length $mods;
my $opts = section(0, option(23, pack('Q<', $btf_off)) .
		      option(24, "tmB:ffffffff81000000\t[kernel]\n\0") .
		      option(25, pack('Q<', $mod_off)) .
		      option(0, pack('Q<', 0)));
substr($d, $done, 8) = pack('Q<', $opts_off);
open(my $o, '>:raw', $out) or die "$out: $!\n";
print $o $d, $btf, $mods, $opts or die "$out: $!\n";
close $o or die "$out: $!\n";
