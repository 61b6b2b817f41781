#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-only
# ks-shot.pl - what KernelShark windows drew, from one screenshot: Xvfb's
# framebuffer (its -fbdir file, an XWD image), cut to each window.
#
#   ks-shot.pl [--png DIR] SCREEN.xwd NAME=X,Y,W,H ...
#
# prints a line per window "NAME rows=R colored=C events=E":
#   rows     CPU rows drawn: the long black lines of the graph below its time
#            axis (each CPU row has one as its base line), the axis not counted
#   colored  saturated pixels between the axis and the last base line: the task
#            boxes drawn on the CPU rows
#   events   text lines of the event list below the graph, less two (the search
#            bar and the table's header)
# An empty window (no file loaded, an error dialog over it) has no axis: 0 0 0.
# With --png DIR each window is also written to DIR/NAME.png, to look at.
use strict;
use warnings;
use Compress::Zlib;

my $pngdir;
if (@ARGV && $ARGV[0] eq '--png') {
	shift @ARGV;
	$pngdir = shift @ARGV;
}
my ($file, @wins) = @ARGV;
die "usage: ks-shot.pl [--png DIR] SCREEN.xwd NAME=X,Y,W,H ...\n" unless @wins;

open(my $fh, '<:raw', $file) or die "ks-shot: $file: $!\n";
my $img = do { local $/; <$fh> };
close($fh);

# XWD header: 25 big-endian words, then the window name; 12 bytes per colormap
# entry follow it. Xvfb's 24-bit screen: 32 bits a pixel, least significant byte
# first, so B, G, R, pad in memory.
my @h = unpack('N25', $img);
my ($hsize, $sw, $sh, $order, $bpp, $bpl, $ncolors) = @h[0, 4, 5, 7, 11, 12, 19];
die "ks-shot: $file: not a 32-bit LSB-first XWD image\n" unless $bpp == 32 && $order == 0;
my $data = $hsize + 12 * $ncolors;

# Groups of consecutive lines for which f(y) holds: their first lines.
sub groups
{
	my ($from, $to, $f) = @_;
	my (@g, $in);

	for my $y ($from .. $to) {
		my $hit = $f->($y);
		push @g, $y if $hit && !$in;
		$in = $hit;
	}
	return @g;
}

# Saturated pixels of a row of raw pixels (B, G, R, pad): the spread of the
# channels over 80.
sub saturated
{
	my ($raw) = @_;
	my $n = 0;

	for my $v (unpack('N*', $raw)) {
		my ($b, $g, $r) = ($v >> 24, ($v >> 16) & 255, ($v >> 8) & 255);
		my ($lo, $hi) = $b < $g ? ($b, $g) : ($g, $b);
		$lo = $r if $r < $lo;
		$hi = $r if $r > $hi;
		$n++ if $hi - $lo > 80;
	}
	return $n;
}

sub write_png
{
	my ($path, $w, $rows) = @_;
	my $raw = join('', map {
		"\0" . join('', map { scalar reverse(substr($_, 0, 3)) } unpack('(a4)*', $_))
	} @$rows);
	my $chunk = sub {
		my ($type, $body) = @_;
		return pack('N', length($body)) . $type . $body . pack('N', crc32($type . $body));
	};

	open(my $out, '>:raw', $path) or die "ks-shot: $path: $!\n";
	print $out "\x89PNG\r\n\x1a\n",
		$chunk->('IHDR', pack('NNCCCCC', $w, scalar(@$rows), 8, 2, 0, 0, 0)),
		$chunk->('IDAT', compress($raw)), $chunk->('IEND', '');
	close($out);
}

sub window
{
	my ($name, $wx, $wy, $ww, $wh) = @_;
	my (@row, @black, @dark);

	$ww = $sw - $wx if $wx + $ww > $sw;
	$wh = $sh - $wy if $wy + $wh > $sh;
	# Masked, a pixel whose B, G, R are all below 64 (black) or 128 (dark:
	# text) is four zero bytes.
	my $mblack = "\xc0\xc0\xc0\x00" x $ww;
	my $mdark = "\x80\x80\x80\x00" x $ww;
	for my $y (0 .. $wh - 1) {
		my $r = substr($img, $data + ($wy + $y) * $bpl + $wx * 4, $ww * 4);
		push @row, $r;
		push @black, $r & $mblack;
		push @dark, $r & $mdark;
	}
	write_png("$pngdir/$name.png", $ww, \@row) if defined $pngdir;

	# a run of half the width of black pixels (a match off the pixel grid
	# is one pixel short at most)
	my $run = 4 * int($ww / 2);
	my @lines = groups(0, $wh - 1, sub { $black[$_[0]] =~ /\0{$run}/ });
	my ($rows, $colored, $events) = (0, 0, 0);
	if (@lines) {
		my $axis = shift @lines;
		my $last = @lines ? $lines[-1] : $axis;

		$rows = @lines;
		$colored += saturated($row[$_]) for $axis + 1 .. $last;
		# a dark pixel on the grid, away from the window's edges and scroll bar
		my @text = groups($last + 30, $wh - 1, sub {
			substr($dark[$_[0]], 40, 4 * ($ww - 40)) =~ /\A(?:.{4})*?\0\0\0\0/s
		});
		$events = @text > 2 ? @text - 2 : 0;
	}
	print "$name rows=$rows colored=$colored events=$events\n";
}

for (@wins) {
	my ($name, $geom) = split(/=/, $_, 2);
	my @g = split(/,/, $geom // '');
	die "ks-shot: bad window '$_' (NAME=X,Y,W,H)\n" unless @g == 4;
	window($name, @g);
}
