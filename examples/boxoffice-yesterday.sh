#!/bin/sh
# Writes yesterday's box office (Asia/Seoul) to $BOXOFFICE_OUT/daily-YYYY-MM-DD.json (default: the current folder),
# atomically (a temporary file, then a rename). Exit status: 0 written; 1 the worker answered an error (on stderr).
# Used by the cron line, the systemd service and the workflow beside this file. Needs jq and boxoffice-worker.
set -eu
out="${BOXOFFICE_OUT:-.}"
worker="${BOXOFFICE_WORKER:-boxoffice-worker}"
mkdir -p "$out"
tmp="$(mktemp "$out/.daily.XXXXXX")"
trap 'rm -f "$tmp"' EXIT
printf '{"jsonrpc":"2.0","id":1,"method":"boxoffice.daily"}\n' | "$worker" 2>/dev/null |
    jq -ce 'if .error then (.error.message + "\n" | halt_error(1)) else .result end' > "$tmp"
day="$(jq -r .range.start "$tmp")"
mv "$tmp" "$out/daily-$day.json"
trap - EXIT
echo "$out/daily-$day.json"
