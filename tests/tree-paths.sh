#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tree-paths.sh - the repository stands alone: no file of the build, the tests,
# the benches, the code or the docs reads or names a path outside it. A line
# fails when it names
#   - the folder "shared" beside the repository, where the fixtures once were;
#   - an absolute path of the machine it was written on (/work);
#   - a relative path whose ".." steps climb above the top of the tree. Such a
#     path counts from the file's own folder after $(dirname "$0"),
#     $BATS_TEST_DIRNAME, "shellcheck source=", a Markdown link or an #include;
#     from the top after $TM_ROOT (or another *ROOT variable); from the top
#     when it starts a word, as make, the tests and the benches run there.
# Not paths of the tree, so not checked: a symlink's target (made, read back or
# compared: it counts from the link's folder) and the "../" event name
# tests/list.bats has tracemap refuse. A ".." with no slash beside it is no path.
# The data of tests/fixtures*/ and tests/regress/ is input, not read as text;
# this file, which must spell out what it looks for, is not read either.
#
# Usage: tests/tree-paths.sh [ROOT]   Exit 0 with one summary line, or 1 with
# one line per violation (FILE:LINE: what: the line).
set -u -o pipefail
cd "${1:-$(dirname "$0")/..}" || exit 2

where=(Makefile README tests bench docs lib cmd man completions .ci)
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	list() { git ls-files -co --exclude-standard -z -- "${where[@]}"; }
else
	list() { find "${where[@]}" -type f -print0 2>/dev/null; }
fi

list | perl -0ne '
	chomp;
	next if m{^tests/(fixtures[^/]*|regress)/} && !/\.md$/ || $_ eq "tests/tree-paths.sh";
	push @files, $_;
	END {
		my ($n, $bad) = (0, 0);
		$/ = "\n";	# -0 read the NUL-separated names; the files are lines
		for my $f (@files) {
			open(my $fh, "<", $f) or next;
			next if -B $f;	# binary: no text to read
			$n++;
			my $dir = $f =~ m{^(.*)/} ? $1 : "";
			my $depth = $dir eq "" ? 0 : scalar(split m{/}, $dir);
			while (my $line = <$fh>) {
				chomp $line;
				my $why = check($line, $depth);
				next unless $why;
				(my $text = $line) =~ s/^\s+//;
				print "$f:$.: $why: $text\n";
				$bad++;
			}
		}
		print $bad ? "$bad line(s) name a path outside the repository\n"
			   : "tree paths: $n files, none outside the repository\n";
		exit($bad ? 1 : 0);
	}
	# the reason LINE of a file DEPTH folders below the top fails, or ""
	sub check {
		my ($line, $depth) = @_;
		# written so that a grep for the sibling folder does not find this line
		return "names ../" . "shared, outside the repository" if $line =~ m{\.\.\/shared\b};
		return "an absolute path of the machine it was written on" if $line =~ m{(?<![\w.~-])/work\b};
		return "" if $line =~ m{\bln -s|\bsymlink\(|\breadlink\b|\(target, "\.\./|\blist -F \.\./};
		# ".." steps next to a slash: a path, not a range or a word
		while ($line =~ m{(?<![\w.])(\.\.(?:/\.\.)*)(?=[/"\x27\s)`;:]|$)}g) {
			my ($steps, $before) = ($1, substr($line, 0, $-[1]));
			my $ups = ($steps =~ tr/.//) / 2;
			my $from;
			next unless $before =~ m{/$} || substr($line, $+[1], 1) eq "/";
			if ($before =~ m{(dirname "\$(0|\{?BASH_SOURCE[^"]*)"\)/|\$\{?BATS_TEST_DIRNAME\}?/|shellcheck source=|\]\(|#\s*include\s*")$}) {
				$from = $depth;
			} elsif ($before =~ m{\$\{?\w*ROOT\}?/$}) {
				$from = 0;
			} elsif ($before =~ m{[\w.\$\}-]/$}) {
				next;	# below another folder: not counted from the tree
			} else {
				$from = 0;
			}
			return "climbs $ups folder(s) up from " . ($from ? "its folder" : "the top")
				. ", outside the repository" if $ups > $from;
		}
		return "";
	}
'
