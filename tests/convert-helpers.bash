# SPDX-License-Identifier: GPL-2.0-only
# convert-helpers.bash - checks of `tracemap convert` output shared by convert.bats
# (fixtures) and convert-record.bats (fresh recordings): protoc decodes the Perfetto
# file, jq reads the Chrome JSON, and both are compared with `tracemap report`.

TM_PROTO=$TM_ROOT/lib/emit/trace.proto

# Per event name: "count name" lines of what report prints (its --json form).
report_counts() {
	"$TRACEMAP" report --json "$1" | jq -r .event | sort | uniq -c | awk '{print $1, $2}' | sort -k2
}

# The Perfetto trace as protoc decodes it with trace.proto (protoc fails on anything
# malformed): compact_sched as it is, described generic events as bare numbers.
pf_decode_raw() {
	protoc --proto_path="$TM_ROOT/lib/emit" --decode=perfetto.protos.Trace "$TM_PROTO" <"$1"
}

# The decoded Perfetto trace as trace_processor reads it: described generic events
# decoded by the descriptors the trace carries (a member named like the event),
# compact_sched written out as the sched_switch / sched_waking events it stands for.
pf_decode() {
	local dir
	dir=$(mktemp -d "${TM_TMP:-/tmp}/pfdec.XXXXXX") || return 1
	pf_decode_raw "$1" >"$dir/raw.txt" &&
		perl "$TM_ROOT/tests/pf-expand.pl" --proto "$TM_PROTO" <"$dir/raw.txt" \
			>"$dir/trace.proto" &&
		protoc --proto_path="$dir" --decode=perfetto.protos.Trace "$dir/trace.proto" \
			<"$1" >"$dir/typed.txt" &&
		perl "$TM_ROOT/tests/pf-expand.pl" --compact <"$dir/typed.txt"
	local rc=$?
	rm -rf "$dir"
	return $rc
}

# pf_convert FILE TXT: FILE converted to Perfetto, decoded into TXT.
pf_convert() {
	"$TRACEMAP" convert "$1" -o "$TM_TMP/pf.pftrace" && pf_decode "$TM_TMP/pf.pftrace" >"$2"
}

# Per event name from a decoded trace: a typed member is named like its event,
# a generic one says its name in event_name.
pf_counts() {
	awk '
		/^    event \{$/ { in_ev = 1; next }
		in_ev && /^      [a-z_0-9]+ \{$/ {
			m = $1
			if (m == "generic") { gen = 1 } else { n[m]++ }
			in_ev = 0; next
		}
		gen && /^        event_name: / {
			s = $0; sub(/^        event_name: "/, "", s); sub(/"$/, "", s)
			n[s]++; gen = 0
		}
		END { for (k in n) print n[k], k }
	' "$1" | sort -k2
}

# Convert FILE to Perfetto and check the per-event-type counts against report.
check_perfetto_counts() {
	local f=$1 out=$TM_TMP/t.pftrace
	"$TRACEMAP" convert "$f" -o "$out" || return 1
	pf_decode "$out" >"$TM_TMP/t.txt" || { echo "protoc cannot decode $out" >&2; return 1; }
	report_counts "$f" >"$TM_TMP/want"
	pf_counts "$TM_TMP/t.txt" >"$TM_TMP/got"
	[ -s "$TM_TMP/want" ] || { echo "report printed no events for $f" >&2; return 1; }
	diff -u "$TM_TMP/want" "$TM_TMP/got" >&2
}

# "ts next_comm next_pid ..." of every sched_switch and sched_waking, from the
# decoded Perfetto text and from `report -N -t` text; both sorted.
pf_sched_fields() {
	awk '
		/^    event \{$/ { ts = ""; kind = ""; v = "" }
		/^      timestamp: / { ts = $2 }
		/^      (sched_switch|sched_waking) \{$/ { kind = $1; next }
		kind != "" && /^        [a-z_]+: / {
			k = $1; sub(/:$/, "", k); val = $0; sub(/^ *[a-z_]+: /, "", val); gsub(/"/, "", val)
			if (k != "prev_state") v = v " " k "=" val
		}
		kind != "" && /^      \}$/ { print ts, kind v; kind = "" }
	' "$1" | sort
}

report_sched_fields() {
	"$TRACEMAP" report -N -t "$1" | awk '
		match($0, / [0-9]+\.[0-9]+: (sched_switch|sched_waking): +/) {
			head = substr($0, RSTART + 1, RLENGTH - 1)
			split(head, h, ": ")
			ts = h[1]; sub(/\./, "", ts); sub(/^0+/, "", ts)
			kind = h[2]; sub(/:.*/, "", kind)
			rest = substr($0, RSTART + RLENGTH)
			sub(/ prev_state=[^ ]*/, "", rest); sub(/ ==>/, "", rest)
			gsub(/target_cpu=0+/, "target_cpu=", rest); sub(/target_cpu=$/, "target_cpu=0", rest)
			print ts, kind, rest
		}' | sort
}

check_perfetto_fields() {
	local f=$1
	"$TRACEMAP" convert "$f" -o "$TM_TMP/f.pftrace" || return 1
	pf_decode "$TM_TMP/f.pftrace" >"$TM_TMP/f.txt" || return 1
	pf_sched_fields "$TM_TMP/f.txt" >"$TM_TMP/got"
	report_sched_fields "$f" >"$TM_TMP/want"
	[ "$(wc -l <"$TM_TMP/want")" -gt 10 ] || { echo "too few sched events in $f" >&2; return 1; }
	diff -u "$TM_TMP/want" "$TM_TMP/got" | head -n 20 >&2
	cmp -s "$TM_TMP/want" "$TM_TMP/got"
}

# Chrome JSON: parses, X slices have dur >= 0 and never overlap on one thread,
# and there is one thread-scoped instant per record that is not a top-buffer
# sched_switch.
check_chrome() {
	local f=$1 out=$TM_TMP/t.json want got
	"$TRACEMAP" convert "$f" -o "$out" || return 1
	jq -e '.traceEvents | type == "array"' "$out" >/dev/null || return 1
	jq -e '[.traceEvents[] | select(.ph == "X" and .dur < 0)] | length == 0' "$out" >/dev/null ||
		{ echo "negative dur in $out" >&2; return 1; }
	# slices of one tid, in start order: each ends before the next starts (ns integers)
	jq -e '[.traceEvents[] | select(.ph == "X")
		| {tid, s: (.ts * 1000 | round), e: ((.ts + .dur) * 1000 | round)}]
		| group_by(.tid) | map(sort_by(.s) | [range(1; length) as $i
			| select(.[$i].s < .[$i - 1].e)] | length) | add // 0 | . == 0' "$out" >/dev/null ||
		{ echo "overlapping slices on one thread in $out" >&2; return 1; }
	# slices come from the top buffer's sched_switch (files of trace-cmd -B have none)
	if "$TRACEMAP" report --json "$f" | jq -e 'select(.event == "sched_switch" and
			(has("buffer") | not))' 2>/dev/null | grep -q .; then
		[ "$(jq '[.traceEvents[] | select(.ph == "X")] | length' "$out")" -gt 0 ] ||
			{ echo "no slices in $out" >&2; return 1; }
	fi
	want=$("$TRACEMAP" report --json "$f" |
		jq -s '[.[] | select(.event != "sched_switch" or has("buffer"))] | length')
	got=$(jq '[.traceEvents[] | select(.ph == "i" and .s == "t")] | length' "$out")
	[ "$want" = "$got" ] || { echo "instants: $got, report's other events: $want" >&2; return 1; }
}

# What Perfetto's importer needs of the ftrace/boot timestamp pairs in a decoded trace
# (a local or global clock reaches boot time only through them): on each packet
# sequence the pairs never go backwards (else Perfetto takes that clock as
# non-monotonic and drops the rest of the sequence), a sequence's first bundle with
# events of such a clock has one, and no pair repeats the previous one in the file
# (Perfetto skips those; 0 before the first). That the times the pairs give are
# report's, the tests check on the converted times (pf_decode).
check_clock_pairs() {
	awk '
		function bad(msg) { printf "packet %d (sequence %s): %s\n", n, seq, msg; err = 1 }
		/^packet \{$/ { n++; bundle = ev = 0; ft = boot = clk = seq = ""; next }
		/^  ftrace_events \{$/ { bundle = 1 }
		/^    event \{$/ { ev++ }
		/^    ftrace_clock: / { clk = $2 }
		/^    ftrace_timestamp: / { ft = $2 }
		/^    boot_timestamp: / { boot = $2 }
		/^  trusted_packet_sequence_id: / { seq = $2 }
		/^\}$/ && bundle {
			if (ft != "") {
				if (ft == last) bad("pair " ft " repeats the previous one")
				if ((seq in at) && ft + 0 < at[seq] + 0) bad("pair " ft " after " at[seq])
				at[seq] = ft; last = ft; pairs++
			}
			if (ev && clk ~ /^FTRACE_CLOCK_(LOCAL|GLOBAL)$/ && !(seq in at))
				bad("events of a " clk " bundle before any pair")
		}
		BEGIN { last = "0" }
		END { if (err) exit 1; print pairs + 0 }
	' "$1"
}

# What Perfetto's importer needs of the ProcessTree threads in a decoded trace: it
# files each thread under process `tgid`, 0 (the idle task) when the field is
# missing. trace.dat saves no tgids, so each thread must name itself as its tgid
# (a process of its own, as in the Chrome output). Prints the thread count.
check_thread_tgids() {
	awk '
		function done_thread() {
			if (!in_th) return
			if (tgid == "") { printf "thread %s: no tgid\n", tid; err = 1 }
			else if (tgid != tid) { printf "thread %s: tgid %s\n", tid, tgid; err = 1 }
			in_th = 0; n++
		}
		/^    threads \{$/ { in_th = 1; tid = tgid = ""; next }
		in_th && /^      tid: / { tid = $2 }
		in_th && /^      tgid: / { tgid = $2 }
		in_th && /^    \}$/ { done_thread() }
		END { if (err) exit 1; print n + 0 }
	' "$1"
}

# The ProcessTree processes of a decoded trace, one "pid cmdline" line each (the
# cmdline empty when the process has none).
pf_processes() {
	awk '
		/^    processes \{$/ { in_p = 1; pid = name = ""; next }
		in_p && /^      pid: / { pid = $2 }
		in_p && /^      cmdline: / { name = $2; gsub(/"/, "", name) }
		in_p && /^    \}$/ { print pid, name; in_p = 0 }
	' "$1"
}

# other_host IN OUT: IN as if recorded on another host: the hostname in its UNAME
# option replaced by one of the same length ("zz...z"). IN must keep its options
# uncompressed (v6, or a v7 file without compression): the option's text is found
# in the file's bytes, exactly once.
other_host() {
	local uname
	uname=$(trace-cmd dump --options "$1" 2>/dev/null | grep -A1 'Option UNAME' | tail -n1)
	[ -n "$uname" ] || { echo "$1: no UNAME option" >&2; return 1; }
	python3 - "$1" "$2" "$uname" <<'PY'
import sys
src, dst, uname = sys.argv[1], sys.argv[2], sys.argv[3].encode()
words = uname.split(b" ")
words[1] = b"z" * len(words[1])
data = open(src, "rb").read()
if data.count(uname + b"\0") != 1:
    sys.exit("%s: UNAME text found %d times" % (src, data.count(uname + b"\0")))
open(dst, "wb").write(data.replace(uname + b"\0", b" ".join(words) + b"\0"))
PY
}

# "ts cpu pid event fields..." of every sched_switch and sched_waking of a decoded and
# expanded trace (pf_decode), sorted: what trace_processor would read.
pf_sched_tuples() {
	awk '
		/^  ftrace_events \{$/ { cpu = "" }
		/^    cpu: / { cpu = $2 }
		/^    event \{$/ { ts = pid = kind = v = "" }
		/^      timestamp: / { ts = $2 }
		/^      pid: / { pid = $2 }
		/^      (sched_switch|sched_waking) \{$/ { kind = $1; next }
		kind != "" && /^        [a-z_]+: / {
			val = $0; sub(/^ *[a-z_]+: /, "", val); gsub(/"/, "", val); v = v " " val
		}
		kind != "" && /^      \}$/ { print ts, cpu, pid, kind v; kind = "" }
	' "$1" | sort
}

# The same from report --json (files with sched events in one buffer).
report_sched_tuples() {
	"$TRACEMAP" report --json "$1" | jq -r 'select(.event == "sched_switch" or
		.event == "sched_waking") |
		[.timestamp_ns, .cpu, .pid, .event] + (.fields | to_entries | map(.value)) |
		map(tostring) | join(" ")' | sort
}

# pf_typed TXT EVENT FIELD...: "ts pid field=value ..." of every EVENT typed message
# (a member named EVENT) in a decoded trace; repeated fields joined by commas.
pf_typed() {
	local txt=$1 ev=$2
	shift 2
	awk -v ev="$ev" -v want="$*" '
		BEGIN { n = split(want, w, " ") }
		/^    event \{$/ { ts = ""; pid = ""; on = 0; delete v }
		/^      timestamp: / { ts = $2 }
		/^      pid: / { pid = $2 }
		$0 == "      " ev " {" { on = 1; next }
		on && /^        [a-z_]+: / {
			k = $1; sub(/:$/, "", k); x = $0; sub(/^ *[a-z_]+: /, "", x); gsub(/"/, "", x)
			if (k in v) v[k] = v[k] "," x; else v[k] = x
		}
		on && /^      \}$/ {
			s = ts " " pid
			for (i = 1; i <= n; i++) s = s " " w[i] "=" ((w[i] in v) ? v[w[i]] : "")
			print s; on = 0
		}' "$txt" | sort
}

# report_typed DAT EVENT FIELD...: the same lines from report --json (arrays joined
# by commas).
report_typed() {
	local dat=$1 ev=$2 q='"\(.timestamp_ns) \(.pid)' f
	shift 2
	for f in "$@"; do
		q="$q $f=\(.fields.$f | if type == \"array\" then map(tostring) | join(\",\") else . end)"
	done
	"$TRACEMAP" report --json "$dat" | jq -r "select(.event == \"$ev\") | $q\"" | sort
}

big_round() {
	perl -pe 's/(?<![\d.])(\d{16,})(?![\d.])/sprintf("%.15e", $1)/ge'
}

# check_typed DAT TXT EVENT FIELD...: DAT's EVENT records are typed messages in TXT
# (decoded), none generic, each with report's field values.
check_typed() {
	local dat=$1 txt=$2 ev=$3
	shift 3
	# jq reads numbers as doubles: both sides compare 64-bit values at that precision
	report_typed "$dat" "$ev" "$@" | big_round >"$TM_TMP/want.$ev"
	pf_typed "$txt" "$ev" "$@" | big_round >"$TM_TMP/got.$ev"
	[ -s "$TM_TMP/want.$ev" ] || { echo "no $ev in $dat" >&2; return 1; }
	diff -u "$TM_TMP/want.$ev" "$TM_TMP/got.$ev" | head -n 20 >&2
	cmp -s "$TM_TMP/want.$ev" "$TM_TMP/got.$ev"
}

# pf_ksym_names TXT [EVENT_RE FIELD]: "ts event name" of every funcgraph event (or
# event matching EVENT_RE) in a decoded trace, its func (FIELD) looked up in the
# InternedData.kernel_symbols before it on its sequence (the iid itself when none
# names it, as trace_processor falls back to the number).
pf_ksym_names() {
	awk -v evre="^(${2:-funcgraph_(entry|exit)})\$" -v fld="${3:-func}:" '
		/^packet \{$/ { nb = 0; nsym = 0; seq = "" }
		/^  trusted_packet_sequence_id: / { seq = $2 }
		/^      iid: / { iid[++nsym] = $2 }
		/^      str: / { s = $0; sub(/^ *str: "/, "", s); sub(/"$/, "", s); str[nsym] = s }
		/^      timestamp: / { ts = $2 }
		/^      [a-z_0-9]+ \{$/ && $1 ~ evre { ev = $1; next }
		ev != "" && /^        [a-z_0-9]+: / && $1 == fld { evs[++nb] = ts " " ev " " $2; ev = "" }
		/^\}$/ {
			for (i = 1; i <= nsym; i++) sym[seq, iid[i]] = str[i]
			for (i = 1; i <= nb; i++) {
				split(evs[i], p, " ")
				print p[1], p[2], ((seq, p[3]) in sym) ? sym[seq, p[3]] : p[3]
			}
		}' "$1" | perl -lane '$F[2] = sprintf("%#x", $F[2]) if $F[2] =~ /^\d+$/; print "@F"' |
		sort
}

# report_ksym_names DAT: the same from `report -R -t`: the function name it prints.
report_ksym_names() {
	"$TRACEMAP" report -R -t "$1" | awk '
		match($0, / [0-9]+\.[0-9]+: funcgraph_(entry|exit): +func=[^ ]+/) {
			s = substr($0, RSTART + 1, RLENGTH - 1)
			split(s, h, " +")
			ts = h[1]; sub(/:$/, "", ts); sub(/\./, "", ts); sub(/^0+/, "", ts)
			ev = h[2]; sub(/:$/, "", ev)
			fn = h[3]; sub(/^func=/, "", fn)
			print ts, ev, fn
		}' | sort
}
