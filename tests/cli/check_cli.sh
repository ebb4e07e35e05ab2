#!/bin/sh
# Runs one dmltool command line and checks its exit code and output, for the CLI contract tests.
#   check_cli.sh [--one-line] EXPECTED_EXIT_CODE REGEX DMLTOOL [ARGS...]
# REGEX is an extended regular expression (grep -E) searched in stdout+stderr. --one-line also demands that the
# command print exactly one line in total (usage errors must be a single readable line, not a help dump).
one_line=0
if [ "$1" = "--one-line" ]; then
  one_line=1
  shift
fi
expected_rc=$1
regex=$2
shift 2
command="$*"
output=$("$@" 2>&1)
rc=$?
report() {
  echo "FAIL: $1" >&2
  echo "command: $command" >&2
  echo "exit code: $rc; output:" >&2
  printf '%s\n' "$output" >&2
  exit 1
}
[ "$rc" = "$expected_rc" ] || report "expected exit code $expected_rc, got $rc"
printf '%s\n' "$output" | grep -Eq -- "$regex" || report "output does not match: $regex"
case "$output" in
  *"internal error"*|*"terminate called"*) report "the tool reported an internal error" ;;
esac
if [ "$one_line" = 1 ]; then
  lines=$(printf '%s\n' "$output" | wc -l)
  [ "$lines" -eq 1 ] || report "expected a one-line message, got $lines lines"
fi
exit 0
