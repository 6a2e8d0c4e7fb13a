#!/usr/bin/env bash
# The render-test gate: runs the MapLibre render tests (`make render-tests`) and fails when fewer
# of them pass than the number recorded in Tests/render-tests.passing, so a change can only keep
# or raise it. Raise the recorded number when more tests pass.
# RENDER_TESTS=DIR picks the tests folder (default Tests/RenderTests/tests, as in the Makefile).
set -uo pipefail
cd "$(dirname "$0")/.."

RENDER_TESTS="${RENDER_TESTS:-Tests/RenderTests/tests}"
RECORD=Tests/render-tests.passing

if [ ! -d "$RENDER_TESTS" ]; then
    echo "render-tests-gate: the render tests folder '$RENDER_TESTS' does not exist; set RENDER_TESTS=DIR to the folder of style.json tests" >&2
    exit 1
fi
if ! recorded=$(tr -d ' \t\r\n' < "$RECORD") || ! [[ "$recorded" =~ ^[0-9]+$ ]]; then
    echo "render-tests-gate: $RECORD must hold one whole number (the tests that must pass)" >&2
    exit 1
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
# make reports an error whenever some test fails; only the summary line matters here.
echo "render-tests-gate: running the render tests in $RENDER_TESTS (at least $recorded must pass)"
make --no-print-directory render-tests RENDER_TESTS="$RENDER_TESTS" | tee "$log"
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
if [ -z "$summary" ]; then
    echo "render-tests-gate: the render tests did not finish (no 'N passed, N failed' line)" >&2
    exit 1
fi
passed=${summary%% passed*}

if [ "$passed" -lt "$recorded" ]; then
    echo "render-tests-gate: FAILED: $passed render tests pass, fewer than the $recorded recorded in $RECORD" >&2
    exit 1
fi
echo "render-tests-gate: $passed render tests pass (recorded: $recorded)"
if [ "$passed" -gt "$recorded" ]; then
    echo "render-tests-gate: more than recorded; raise the number: echo $passed > $RECORD"
fi
