#!/bin/sh
# Issue 16, "the kill and concurrency tests pass 100 times in a row": runs
# tests/reliability/test_save_safety.py with N iterations of each test (default 100; CI runs 10)
# and prints the outcome and the time. docs/RELIABILITY.md records a run.
set -e
cd "$(dirname "$0")/.."
runs=${1:-100}
start=$(date +%s)
GROGNARD_SAVE_RUNS=$runs uv run pytest tests/reliability/test_save_safety.py -q -s \
    -p no:cacheprovider --durations=3
echo "save safety: $runs kill -9 runs and $runs concurrent pairs, all passing, in $(( $(date +%s) - start )) s"
