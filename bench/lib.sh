# SPDX-License-Identifier: GPL-2.0-only
# lib.sh - what the bench/ scripts share (sourced after their cd to the top).

# median: the median of the numbers on stdin, one a line.
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
