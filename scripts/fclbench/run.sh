#!/usr/bin/env bash
# Times sovviz and FCL 0.7 on the same pairs, one after the other. By default
# the pairs of paper 000 §5.1's battery: `sovviz bench` (the default solver,
# cold queries only), then FCL's mesh distance and yes/no collision test on
# the paper's 290-vertex meshes of the same shapes and poses. With -scene, a
# scene's broad-phase pairs (the pairs the visualizer queries every frame):
# `sovviz query -timing R` on them, then FCL. Installs what is missing (as
# root).
#
# usage: scripts/fclbench/run.sh [-n 10000] [-seed 1] [-repeat 3] [-scene FILE]
set -euo pipefail
cd "$(dirname "$0")/../.."
n=10000 seed=1 repeat=3 scene=""
usage() { echo "usage: scripts/fclbench/run.sh [-n N] [-seed S] [-repeat R] [-scene FILE]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || usage
  case "$1" in
    -n) n="$2" ;;
    -seed) seed="$2" ;;
    -repeat) repeat="$2" ;;
    -scene) scene="$2" ;;
    *) usage ;;
  esac
  shift 2
done
scripts/deps.sh fcl
go build -o bin/sovviz ./cmd/sovviz
go build -o bin/fclpairs ./scripts/fclbench/pairs
scripts/fclbench/build.sh bin/fclbench
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
if [ -n "$scene" ]; then
  bin/fclpairs -scene "$scene" -jsonl "$tmp/q.jsonl" > "$tmp/pairs.bin"
  bin/sovviz query -timing "$repeat" -in "$tmp/q.jsonl" > "$tmp/answers.jsonl"
  bin/fclbench -repeat "$repeat" < "$tmp/pairs.bin" | tee "$tmp/fcl"
  echo
  # sovviz's per-pair times (each the median of R cold repetitions in a row)
  # against FCL's (the median of R passes over all pairs): per pair and per
  # frame (the sum over the pairs, for FCL from its groups' means).
  awk -F'|' -v scene="$scene" '
    FNR == 1 { file++ }
    file == 1 {
      if (match($0, /"time_ns": [0-9]+/) == 0) { print "run.sh: an answer without time_ns: " $0 > "/dev/stderr"; bad = 1; exit 1 }
      t[++nt] = substr($0, RSTART + 11, RLENGTH - 11) / 1000; sum += t[nt]
      if (match($0, /"distance": [-0-9.eE+]+/)) {
        d = substr($0, RSTART + 12, RLENGTH - 12) + 0
        if (nt == 1 || d < dmin) dmin = d
        if (nt == 1 || d > dmax) dmax = d
      }
    }
    file == 2 && $2 ~ /^ (mesh distance|collision test)/ {
      q = ($2 ~ /mesh distance/) ? "dist" : "coll"
      split($4, ms, " ")
      tot[q] += ms[1] * $3; cnt[q] += $3
      if ($3 > 0) meds[q] = meds[q] (meds[q] == "" ? "" : ", ") sprintf("%.2f (%s)", $5, ($2 ~ /overlapping/) ? "overlapping" : "separated")
    }
    END {
      if (bad) exit 1
      if (nt == 0 || cnt["dist"] != nt || cnt["coll"] != nt) { print "run.sh: could not read both reports" > "/dev/stderr"; exit 1 }
      for (i = 1; i <= nt; i++) for (j = i + 1; j <= nt; j++) if (t[j] < t[i]) { x = t[i]; t[i] = t[j]; t[j] = x }
      med = (nt % 2) ? t[(nt + 1) / 2] : (t[nt / 2] + t[nt / 2 + 1]) / 2
      printf "## sovviz against FCL on the %d broad-phase pairs of %s (µs)\n\n", nt, scene
      print "| query | median per pair | per frame (all pairs) |"
      print "|---|---|---|"
      printf "| sovviz, exact query (cold) | %.2f | %.1f |\n", med, sum
      printf "| FCL, mesh distance | %s | %.1f |\n", meds["dist"], tot["dist"]
      printf "| FCL, collision test (yes/no) | %s | %.1f |\n", meds["coll"], tot["coll"]
      printf "\nThe signed distances of the pairs (sovviz): from %.6g to %.6g.\n", dmin, dmax
    }' "$tmp/answers.jsonl" "$tmp/fcl"
  exit 0
fi
bin/sovviz bench -n "$n" -seed "$seed" -repeat "$repeat" -guess support -method implicit -warm-steps 0 | tee "$tmp/sovviz"
echo
bin/fclpairs -n "$n" -seed "$seed" | bin/fclbench -repeat "$repeat" | tee "$tmp/fcl"
echo
# The two reports' medians and p99s side by side (sovviz's Tables 1 and 2
# are its overlapping and separated rows, in that order).
awk -F'|' '
  FNR == 1 { file++ }
  file == 1 && $2 ~ /^ supportImplicit / && n1 < 2 { k = (n1++ == 0) ? "ovl" : "sep"; med["sovviz", k] = $6 + 0; p99["sovviz", k] = $7 + 0 }
  file == 2 && $2 ~ /^ (mesh distance|collision test)/ {
    q = ($2 ~ /mesh distance/) ? "dist" : "coll"; k = ($2 ~ /overlapping/) ? "ovl" : "sep"
    med[q, k] = $5 + 0; p99[q, k] = $6 + 0
  }
  END {
    if (med["sovviz", "sep"] == 0 || med["dist", "sep"] == 0 || med["coll", "sep"] == 0) { print "run.sh: could not read both reports" > "/dev/stderr"; exit 1 }
    print "## sovviz against FCL on the same pairs (µs; times: FCL median over sovviz median)"
    print ""
    print "| query | overlapping median | p99 | separated median | p99 | times (overlapping, separated) |"
    print "|---|---|---|---|---|---|"
    n = split("sovviz dist coll", qs, " ")
    name["sovviz"] = "sovviz, exact query"; name["dist"] = "FCL, mesh distance"; name["coll"] = "FCL, collision test (yes/no)"
    for (i = 1; i <= n; i++) {
      q = qs[i]
      r = (q == "sovviz") ? "1, 1" : sprintf("%.1f, %.1f", med[q, "ovl"] / med["sovviz", "ovl"], med[q, "sep"] / med["sovviz", "sep"])
      printf "| %s | %.2f | %.2f | %.2f | %.2f | %s |\n", name[q], med[q, "ovl"], p99[q, "ovl"], med[q, "sep"], p99[q, "sep"], r
    }
  }' "$tmp/sovviz" "$tmp/fcl"
