#!/bin/sh
# Writes yesterday's box office to $BOXOFFICE_OUT/daily-YYYY-MM-DD.json (default: the current folder) and prints the
# file's path. What the cron line, the systemd service and the workflow beside this file run.
#
#   BOXOFFICE_OUT=/srv/boxoffice sh boxoffice-yesterday.sh [worker flags...]
#
# Needs jq and the worker. BOXOFFICE_WORKER names the worker: a full path, or a name looked up on PATH (default
# boxoffice-worker). Job runners start with a short PATH (cron's is /usr/bin:/bin, and scripts/install puts the
# worker in /usr/local/bin), so set PATH or BOXOFFICE_WORKER there. Arguments go to the worker, e.g.
# `--kobis-daily-limit 1000` for this machine's share of the key's quota.
#
# Yesterday is the day before BOXOFFICE_TODAY when that is set (the worker reads it too), else the day before today
# in Seoul (UTC+9, no daylight saving time); to replay a day, set BOXOFFICE_TODAY (not the worker's --today). The
# day is sent to the worker, so every message can name it.
#
# All or nothing. The answer goes to a temporary file in $BOXOFFICE_OUT, which is renamed to daily-DAY.json only
# when the worker answered with that day's box office and exited 0. On any failure no file is added or changed (an
# earlier file of the day stays as it was), and nothing is left behind. What failed (the day, the worker's message
# and reason) goes to stderr beside the worker's own log lines, which are never hidden. Exit status:
#   0    written (its path on stdout)
#   1    the worker answered an error, or no usable answer (crashed, exited non-zero, wrote something else)
#   2    a bad setting: BOXOFFICE_TODAY not a date, $BOXOFFICE_OUT not a folder this job can write in
#   127  the worker or jq not found
set -eu
me=boxoffice-yesterday

fail() {
    status="$1"
    shift
    printf '%s: %s\n' "$me" "$*" >&2
    exit "$status"
}

command -v jq >/dev/null 2>&1 || fail 127 "jq is not on PATH ($PATH); install it (apt-get install jq)"

# The worker: a path when BOXOFFICE_WORKER holds a slash, else a name on PATH; it must be an executable file.
worker="${BOXOFFICE_WORKER:-boxoffice-worker}"
case "$worker" in
    */*) found="$worker" ;;
    *) found="$(command -v -- "$worker" || :)" ;;
esac
if [ -z "$found" ] || [ ! -f "$found" ] || [ ! -x "$found" ]; then
    case "$worker" in
        */*) fail 127 "the worker $worker (BOXOFFICE_WORKER) is not an executable file: set BOXOFFICE_WORKER to the worker's full path, or unset it to look boxoffice-worker up on PATH" ;;
        *) fail 127 "the worker '$worker' is not on PATH ($PATH): set BOXOFFICE_WORKER to its full path, or add its folder to PATH" ;;
    esac
fi

day="$(jq -nr --arg today "${BOXOFFICE_TODAY:-}" '
    (if $today == "" then now + 9 * 3600 | strftime("%Y-%m-%d") else $today end) as $t
    | ($t | strptime("%Y-%m-%d") | mktime) as $seconds
    | if ($seconds | strftime("%Y-%m-%d")) == $t then $seconds - 86400 | strftime("%Y-%m-%d") else error("") end' \
    2>/dev/null)" || fail 2 "BOXOFFICE_TODAY is not a date (YYYY-MM-DD): ${BOXOFFICE_TODAY:-}"

out="${BOXOFFICE_OUT:-.}"
answer=""
tmp=""
cleanup() {
    if [ -n "$answer" ]; then rm -f -- "$answer"; fi
    if [ -n "$tmp" ]; then rm -f -- "$tmp"; fi
}
trap cleanup EXIT
# A signal ends the script through exit, so the EXIT trap removes the temporary files (systemd stops with SIGTERM).
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

mkdir -p -- "$out" || fail 2 "cannot make the output folder $out (BOXOFFICE_OUT)"
answer="$(mktemp "$out/.daily-$day.answer.XXXXXX")" || fail 2 "cannot write in the output folder $out (BOXOFFICE_OUT)"
tmp="$(mktemp "$out/.daily-$day.json.XXXXXX")" || fail 2 "cannot write in the output folder $out (BOXOFFICE_OUT)"

# The worker's stdout is the answer; its stderr (log lines) goes where this script's goes.
status=0
printf '{"jsonrpc":"2.0","id":1,"method":"boxoffice.daily","params":{"date":"%s"}}\n' "$day" |
    "$found" "$@" >"$answer" || status=$?

# Exactly one line, the answer to request 1, with that day's box office; else what it was instead.
verdict="$(jq -Rrs --arg day "$day" '
    [split("\n")[] | select(length > 0)] as $lines
    | if ($lines | length) == 0 then "no answer from the worker"
      elif ($lines | length) > 1 then "\($lines | length) lines from the worker where one answer was expected"
      else ($lines[0] | (try fromjson catch null)) as $a
        | if ($a | type) != "object" or $a.id != 1 then "an answer that is not JSON-RPC: \($lines[0][:200])"
          elif $a.error != null then
              "\($a.error.message // "an error") (\($a.error.data.reason? // $a.error.code // "no reason"))"
          elif ($a.result | type) != "object" or $a.result.range.start? != $day
              or ($a.result.entries? | type) != "array" then "an answer that is not the box office of \($day)"
          else "ok" end
      end' "$answer")" || verdict="an answer jq could not read"

if [ "$verdict" != ok ]; then
    if [ "$status" -ne 0 ]; then verdict="$verdict; the worker exited with status $status"; fi
    fail 1 "the box office of $day: $verdict; nothing written"
fi
if [ "$status" -ne 0 ]; then
    fail 1 "the box office of $day: the worker exited with status $status after answering; nothing written"
fi

jq -c .result "$answer" >"$tmp"
# mktemp makes the file private (0600); give it the mode a plain `> file` would have.
chmod "$(printf '%o' $((0666 & ~0$(umask))))" "$tmp"
mv -f -- "$tmp" "$out/daily-$day.json"
tmp=""
printf '%s\n' "$out/daily-$day.json"
