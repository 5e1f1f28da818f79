#!/usr/bin/env bash
# Times sovviz and FCL 0.7 on the same pairs of paper 000 §5.1's battery, one
# after the other: `sovviz bench` (the default solver, cold queries only), then
# FCL's mesh distance and yes/no collision test on the paper's 290-vertex
# meshes of the same shapes and poses. Installs what is missing (as root).
#
# usage: scripts/fclbench/run.sh [-n 10000] [-seed 1] [-repeat 3]
set -euo pipefail
cd "$(dirname "$0")/../.."
n=10000 seed=1 repeat=3
usage() { echo "usage: scripts/fclbench/run.sh [-n N] [-seed S] [-repeat R]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || usage
  case "$1" in
    -n) n="$2" ;;
    -seed) seed="$2" ;;
    -repeat) repeat="$2" ;;
    *) usage ;;
  esac
  shift 2
done
scripts/deps.sh fcl
go build -o bin/sovviz ./cmd/sovviz
go build -o bin/fclpairs ./scripts/fclbench/pairs
scripts/fclbench/build.sh bin/fclbench
bin/sovviz bench -n "$n" -seed "$seed" -repeat "$repeat" -guess support -method implicit -warm-steps 0
echo
bin/fclpairs -n "$n" -seed "$seed" | bin/fclbench -repeat "$repeat"
