#!/usr/bin/env bash
# The lint step of action.yml: run `dynalint lint --format sarif` on the inputs (passed as environment variables, never
# spliced into the script), write the SARIF file, and say whether the job should fail at the chosen severity.
#   DYNALINT       the command (default: npx --yes dynalint@$DYNALINT_VERSION)
#   INPUT_PATHS    files, directories or globs, whitespace-separated (default: .)
#   INPUT_CONFIG   a .dynalintrc.json for every file (optional)
#   INPUT_SEVERITY error (fail on errors), warning (fail on errors or warnings), none (never fail)
#   SARIF_FILE     where the SARIF log goes
# Writes `exit-code` and `fail` to $GITHUB_OUTPUT when set; exits 0 unless dynalint could not run (exit 2).
set -uo pipefail

severity="${INPUT_SEVERITY:-error}"
case "$severity" in
  error | warning | none) ;;
  *) echo "::error::dynalint action: severity must be error, warning or none (got \"$severity\")"; exit 2 ;;
esac

read -r -a paths <<< "${INPUT_PATHS:-.}"
[ "${#paths[@]}" -eq 0 ] && paths=(.)
args=(lint --format sarif)
[ -n "${INPUT_CONFIG:-}" ] && args+=(--config "$INPUT_CONFIG")
[ "$severity" = warning ] && args+=(--max-warnings 0)

read -r -a cmd <<< "${DYNALINT:-npx --yes dynalint@${DYNALINT_VERSION:-latest}}"
"${cmd[@]}" "${args[@]}" -- "${paths[@]}" > "${SARIF_FILE:-dynalint.sarif}"
code=$?

fail=false
if [ "$code" -eq 2 ]; then
  echo "::error::dynalint could not run (exit 2): see the messages above"
  fail=true
elif [ "$code" -eq 1 ] && [ "$severity" != none ]; then
  fail=true
fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  echo "exit-code=$code" >> "$GITHUB_OUTPUT"
  echo "fail=$fail" >> "$GITHUB_OUTPUT"
fi
[ "$code" -eq 2 ] && exit 2
exit 0
