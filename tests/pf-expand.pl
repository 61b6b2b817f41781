#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-only
# pf-expand.pl - helps the tests read a Perfetto trace as trace_processor does.
#
#   pf-expand.pl --proto TRACE.proto < decoded.txt > with-generic.proto
#       the trace's generic_event_descriptors (protoc text) made into messages:
#       TRACE.proto with one FtraceEvent member per described event, named like
#       the event, so protoc decodes those events with their field names.
#   pf-expand.pl --compact < decoded.txt > expanded.txt
#       every bundle's compact_sched written out as sched_switch / sched_waking
#       events, the prev_* fields of a switch and the pid of both taken from
#       the CPU's previous switch (ftrace_sched_event_tracker.cc); events of a
#       bundle then sorted by time (compact ones first on a tie, as the tokenizer
#       pushes them first). A compact switch with no previous switch on its CPU
#       (which trace_processor drops) is printed with "prev_pid: ?". The times
#       of a bundle in a local or global clock are converted to boot time by its
#       packet sequence's ftrace/boot pair, as trace_processor's clock tracker
#       does (ts - ftrace_timestamp + boot_timestamp).
#   pf-expand.pl --machine N < trace.pftrace > machine.pftrace
#       the packets of one machine (machine_id N; 0: the packets without one),
#       as they are: trace_processor reads each machine in a context of its own
#       (multi_machine_trace_manager.cc), generic event descriptors included.
use strict;
use warnings;

my $mode = shift // '';

sub unesc1 {
	my ($e) = @_;
	my %c = (n => "\n", r => "\r", t => "\t", '"' => '"', "'" => "'", '\\' => '\\');
	return chr(oct($e)) if $e =~ /^[0-7]{3}$/;
	return chr(hex(substr($e, 1))) if $e =~ /^x[0-9a-fA-F]{2}$/;
	return $c{$e} // $e;
}

sub unescape {
	my ($s) = @_;
	$s =~ s/\\([0-7]{3}|x[0-9a-fA-F]{2}|.)/unesc1($1)/ge;
	return $s;
}

sub varint {
	my ($b, $i) = @_;
	my ($v, $sh) = (0, 0);
	while (1) {
		my $c = ord(substr($$b, $$i++, 1));
		$v |= ($c & 0x7f) << $sh;
		last unless $c & 0x80;
		$sh += 7;
	}
	return $v;
}

# A message's fields: [number, wire type, value or bytes].
sub fields {
	my ($b) = @_;
	my ($i, @f) = (0);
	while ($i < length $b) {
		my $tag = varint(\$b, \$i);
		my ($n, $w) = ($tag >> 3, $tag & 7);
		if ($w == 0) {
			push @f, [$n, $w, varint(\$b, \$i)];
		} elsif ($w == 2) {
			my $len = varint(\$b, \$i);
			push @f, [$n, $w, substr($b, $i, $len)];
			$i += $len;
		} else {
			die "pf-expand: wire type $w in a descriptor\n";
		}
	}
	return @f;
}

sub proto_mode {
	my ($proto) = @_;
	my (%desc, $id);
	while (<STDIN>) {
		$id = $1 if /^\s+field_id: (\d+)$/;
		$desc{$id} = unescape($1) if /^\s+event_descriptor: "(.*)"$/ && defined $id;
	}
	my %type = (3 => 'int64', 4 => 'uint64', 9 => 'string');
	my ($members, $msgs, %used) = ('', '');
	for my $fid (sort { $a <=> $b } keys %desc) {
		my ($name, @flds) = ('');
		for my $f (fields($desc{$fid})) {
			$name = $f->[2] if $f->[0] == 1;
			next unless $f->[0] == 2;
			my %fd = map { $_->[0] => $_->[2] } fields($f->[2]);
			push @flds, "  optional " . ($type{$fd{5}} // 'bytes') . " $fd{1} = $fd{3};\n";
		}
		$name .= '_' . $fid if $used{$name}++;
		my $msg = "Described_$fid";
		$members .= "    $msg $name = $fid;\n";
		$msgs .= "message $msg {\n" . join('', @flds) . "}\n";
	}
	open(my $in, '<', $proto) or die "pf-expand: $proto: $!\n";
	while (<$in>) {
		print;
		print $members if /GenericFtraceEvent generic = 327;/;
	}
	print $msgs;
}

# ---- --compact ----

my %run;	# cpu => [pid, prio, comm] the CPU's last switch left running

sub put_switch {
	my ($cpu, $ts, $state, $pid, $prio, $comm) = @_;
	my $r = $run{$cpu};
	my @prev = $r ? @$r : ('?', '?', '?');
	$run{$cpu} = [$pid, $prio, $comm];
	return "    event {\n      timestamp: $ts\n      pid: $prev[0]\n      sched_switch {\n" .
		"        prev_comm: \"$prev[2]\"\n        prev_pid: $prev[0]\n" .
		"        prev_prio: $prev[1]\n        prev_state: $state\n" .
		"        next_comm: \"$comm\"\n        next_pid: $pid\n        next_prio: $prio\n" .
		"      }\n      compact: true\n    }\n";
}

sub put_waking {
	my ($cpu, $ts, $pid, $tcpu, $prio, $comm, $flags) = @_;
	my $r = $run{$cpu};
	my $waker = $r ? $r->[0] : '?';
	return "    event {\n      timestamp: $ts\n      pid: $waker\n      sched_waking {\n" .
		"        comm: \"$comm\"\n        pid: $pid\n        prio: $prio\n" .
		"        target_cpu: $tcpu\n      }\n      common_flags: $flags\n" .
		"      compact: true\n    }\n";
}

# t + off as int64 arithmetic (a time before the clock's base is a negative int64,
# printed by protoc as a uint64 above 2^63).
sub add_off {
	my ($t, $off) = @_;
	return $t + $off if length($t) < 19;
	require Math::BigInt;
	my $v = Math::BigInt->new($t);
	$v -= Math::BigInt->new(2)**64 if $v >= Math::BigInt->new(2)**63;
	return ($v + $off)->bstr();
}

# One bundle's lines (inside "  ftrace_events {"), times moved by off: expanded.
sub bundle {
	my ($off, @lines) = @_;
	my ($cpu, @ev, @other, %cs, $cur, $in_cs) = (0);
	for my $l (@lines) {
		if ($l =~ /^    cpu: (\d+)$/) {
			$cpu = $1;
			push @other, $l;
		} elsif ($l =~ /^    previous_bundle_end_timestamp: (\d+)$/) {
			# trace_processor converts it by the bundle's clock, as the events
			push @other, "    previous_bundle_end_timestamp: " . add_off($1, $off) . "\n";
		} elsif ($l =~ /^    event \{$/) {
			$cur = $l;
		} elsif (defined $cur) {
			$l =~ s/^(      timestamp: )(\d+)$/$1 . add_off($2, $off)/e;
			$cur .= $l;
			if ($l =~ /^    \}$/) {
				my ($ts) = $cur =~ /^      timestamp: (\d+)$/m;
				push @ev, [$ts, 1, $cur];
				undef $cur;
			}
		} elsif ($l =~ /^    compact_sched \{$/) {
			$in_cs = 1;
		} elsif ($in_cs) {
			if ($l =~ /^    \}$/) {
				$in_cs = 0;
			} elsif ($l =~ /^      (\w+): (.*)$/) {
				my ($k, $v) = ($1, $2);
				$v =~ s/^"(.*)"$/unescape($1)/e if $k eq 'intern_table';
				push @{$cs{$k}}, $v;
			}
		} else {
			push @other, $l;
		}
	}
	my @c;
	my $t = 0;
	for my $i (0 .. $#{$cs{switch_timestamp} // []}) {
		$t = add_off($cs{switch_timestamp}[$i], $t + ($i ? 0 : $off));
		push @c, [$t, 0, 's', $i];
	}
	$t = 0;
	for my $i (0 .. $#{$cs{waking_timestamp} // []}) {
		$t = add_off($cs{waking_timestamp}[$i], $t + ($i ? 0 : $off));
		push @c, [$t, 0, 'w', $i];
	}
	my $out = '';
	for my $e (sort { $a->[0] <=> $b->[0] || $a->[1] <=> $b->[1] } (@c, @ev)) {
		if ($e->[1]) {
			$out .= $e->[2];
			# a full switch sets the state too
			if ($e->[2] =~ /sched_switch \{.*next_comm: "(.*?)"\n.*next_pid: (-?\d+)\n.*next_prio: (-?\d+)/s) {
				$run{$cpu} = [$2, $3, $1];
			}
			next;
		}
		my $i = $e->[3];
		if ($e->[2] eq 's') {
			$out .= put_switch($cpu, $e->[0], $cs{switch_prev_state}[$i],
					   $cs{switch_next_pid}[$i], $cs{switch_next_prio}[$i],
					   $cs{intern_table}[$cs{switch_next_comm_index}[$i]]);
		} else {
			$out .= put_waking($cpu, $e->[0], $cs{waking_pid}[$i],
					   $cs{waking_target_cpu}[$i], $cs{waking_prio}[$i],
					   $cs{intern_table}[$cs{waking_comm_index}[$i]],
					   $cs{waking_common_flags}[$i] // 0);
		}
	}
	my $first = shift @other;
	return ($first // '') . $out . join('', @other);
}

my %clock_off;	# "machine/sequence" => boot_timestamp - ftrace_timestamp of its pair

# One packet's lines: its bundle expanded, its times in boot time.
sub packet {
	my (@lines) = @_;
	my ($seq, $machine, $ft, $boot, $clk) = (0, 0);
	for (@lines) {
		$seq = $1 if /^  trusted_packet_sequence_id: (\d+)$/;
		$machine = $1 if /^  machine_id: (\d+)$/;
		$ft = $1 if /^    ftrace_timestamp: (-?\d+)$/;
		$boot = $1 if /^    boot_timestamp: (-?\d+)$/;
		$clk = 1 if /^    ftrace_clock: FTRACE_CLOCK_(LOCAL|GLOBAL)$/;
	}
	$clock_off{"$machine/$seq"} = $boot - $ft if defined $ft && defined $boot;
	my $off = $clk ? $clock_off{"$machine/$seq"} // 0 : 0;
	my ($in, @b, $out) = (0, (), '');
	for my $l (@lines) {
		if ($l =~ /^  ftrace_events \{$/) {
			$in = 1;
			$out .= $l;
			@b = ();
		} elsif ($in && $l =~ /^  \}$/) {
			$in = 0;
			$out .= bundle($off, @b) . $l;
		} elsif ($in) {
			push @b, $l;
		} else {
			$out .= $l;
		}
	}
	return $out;
}

sub compact_mode {
	my @p;
	while (my $l = <STDIN>) {
		push @p, $l;
		next unless $l =~ /^\}$/;
		print packet(@p);
		@p = ();
	}
	print @p;
}

# The machine_id (98) of one packet's bytes; 0 without one.
sub packet_machine {
	my ($p) = @_;
	my $i = 0;
	while ($i < length $p) {
		my $tag = varint(\$p, \$i);
		my ($n, $w) = ($tag >> 3, $tag & 7);
		if ($w == 0) {
			my $v = varint(\$p, \$i);
			return $v if $n == 98;
		} elsif ($w == 1) {
			$i += 8;
		} elsif ($w == 2) {
			$i += varint(\$p, \$i);
		} elsif ($w == 5) {
			$i += 4;
		} else {
			die "pf-expand: wire type $w in a packet\n";
		}
	}
	return 0;
}

sub machine_mode {
	my ($want) = @_;
	binmode(STDIN);
	binmode(STDOUT);
	my $b = do { local $/; <STDIN> };
	my $i = 0;
	while ($i < length $b) {
		my $at = $i;
		my $tag = varint(\$b, \$i);
		die "pf-expand: Trace field tag $tag, not a packet\n" unless $tag == (1 << 3 | 2);
		my $len = varint(\$b, \$i);
		my $p = substr($b, $i, $len);
		$i += $len;
		print substr($b, $at, $i - $at) if packet_machine($p) == $want;
	}
}

if ($mode eq '--machine') {
	machine_mode(shift // die "pf-expand: --machine needs N\n");
} elsif ($mode eq '--proto') {
	proto_mode(shift // die "pf-expand: --proto needs TRACE.proto\n");
} elsif ($mode eq '--compact') {
	compact_mode();
} else {
	die "usage: pf-expand.pl --proto TRACE.proto | --compact | --machine N\n";
}
