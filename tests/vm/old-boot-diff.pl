#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-only
# old-boot-diff.pl TC TM OLD_TEXT NEW_TEXT KALLSYMS PRINT_IPS - trace-cmd 3.1.6's report
# (TC) and tracemap's --compat=3.1 report (TM) of a file of a previous boot's events
# must differ only at that boot's kernel addresses: a stack frame "=> ADDR" or
# "=> NAME0 (ADDR)" that TM prints "=> NAME (ADDR)", a print event's "0xADDR:" or
# "NAME0:" that TM prints "NAME:". NAME0, where TC has one, must be what KALLSYMS (this
# boot's, the file's) has at ADDR as it is (3.1.6 knows of no other boot); NAME what
# KALLSYMS has at ADDR - OLD_TEXT + NEW_TEXT (the two boots' _text: KASLR's move).
# PRINT_IPS: "HEXIP<tab>BUF" lines, the print events' raw ip by their text. Prints
# what it checked; exits non-zero at the first other difference.
use strict;
use warnings;
no warnings 'portable';

my ($tc_file, $tm_file, $old, $new, $ksyms, $ips) = @ARGV;
die "usage: old-boot-diff.pl TC TM OLD_TEXT NEW_TEXT KALLSYMS PRINT_IPS\n" unless defined $ips;
$old = hex($old);
$new = hex($new);

sub lines {
	open(my $f, '<', $_[0]) or die "$_[0]: $!\n";
	my @l = <$f>;
	chomp @l;
	return @l;
}
my @tc = lines($tc_file);
my @tm = lines($tm_file);
die "trace-cmd prints " . @tc . " lines, tracemap " . @tm . "\n" unless @tc == @tm;

my %ip_of;
for (lines($ips)) {
	my ($ip, $buf) = split(/\t/, $_, 2);
	next unless defined $buf && $ip =~ /^[0-9a-f]+$/;
	$buf =~ s/\\n$//;
	$ip_of{$buf} = $ip;
}

# this boot's symbols (every type: libtraceevent reads them all), by address
my %at;
open(my $k, '<', $ksyms) or die "$ksyms: $!\n";
while (<$k>) {
	my ($addr, $type, $name) = split;
	push @{$at{hex($addr)}}, $name if defined $name;
}
my @addrs = sort { $a <=> $b } grep { $_ } keys %at;
sub symbols_at {
	my ($x) = @_;
	my ($lo, $hi) = (0, $#addrs);
	return () if $x < $addrs[0];
	while ($lo < $hi) {
		my $mid = int(($lo + $hi + 1) / 2);
		if ($addrs[$mid] <= $x) { $lo = $mid } else { $hi = $mid - 1 }
	}
	return @{$at{$addrs[$lo]}};
}

my ($frames, $prints, $hex, $wrong) = (0, 0, 0, 0);	# hex, wrong: addresses
my %seen;
# line n: TC showed $shown (hex or a name) for $addr, TM $name
sub check {
	my ($n, $addr, $shown, $name) = @_;
	my $x = hex($addr);
	if ($shown =~ /^(0x)?\Q$addr\E$/) {
		$hex++;
	} else {
		my @as_is = symbols_at($x);
		die "line $n: trace-cmd's $shown for $addr is not this boot's symbol there (@as_is)\n"
			unless grep { $_ eq $shown } @as_is;
		$wrong++;
	}
	die "line $n: $addr is below the previous boot's _text\n" if $x < $old;
	my @moved = symbols_at($x - $old + $new);
	die "line $n: tracemap's $name for $addr; this boot's kallsyms have @moved there\n"
		unless grep { $_ eq $name } @moved;
	$seen{$addr} = 1;
}

my %checked;
for my $i (0 .. $#tc) {
	my ($a, $b, $n) = ($tc[$i], $tm[$i], $i + 1);
	next if $a eq $b;
	# (static patterns, each address's check once: this runs under TCG)
	if ($a =~ /^(.*)=> (?:(\S+) \()?([0-9a-f]+)\)?$/) {
		my ($pre, $shown, $addr) = ($1, $2 // $3, $3);
		if ($b =~ /^(.*)=> (\S+) \(([0-9a-f]+)\)$/ && $1 eq $pre && $3 eq $addr) {
			check($n, $addr, $shown, $2) unless $checked{"$addr $shown $2"}++;
			$frames++;
			next;
		}
	}
	if ($a =~ /^(.*? print: +)(\S+): (.*)$/) {
		my ($pre, $shown, $post) = ($1, $2, $3);
		if ($b =~ /^(.*? print: +)(\S+): (.*)$/ && $1 eq $pre && $3 eq $post &&
		    exists $ip_of{$post}) {
			my $addr = $ip_of{$post};
			check($n, $addr, $shown, $2) unless $checked{"$addr $shown $2"}++;
			$prints++;
			next;
		}
	}
	die "line $n differs otherwise:\n  trace-cmd: $a\n  tracemap:  $b\n";
}
die "no stack frame of the previous boot that tracemap resolves\n" unless $frames;
printf "%d lines differ (%d stack frames, %d print events) at %d addresses of the previous "
	. "boot: trace-cmd 3.1.6 prints %d of them as hex, %d as this boot's symbol there; "
	. "tracemap each as this boot's symbol %+d bytes away\n", $frames + $prints, $frames, $prints,
	scalar(keys %seen), $hex, $wrong, $new - $old;
