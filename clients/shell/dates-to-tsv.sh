#!/usr/bin/env bash
# Dates in (one YYYY-MM-DD per line on stdin), a TSV of their box offices out: date, rank, rank change, title,
# audience, total audience. One worker for all of them; answers in request order (--ordered), so rows follow the
# dates, and each day's rows are written as soon as it is answered. Arguments go to the worker (`--offline`).
#
#   printf '2023-04-23\n2023-04-26\n' | bash clients/shell/dates-to-tsv.sh > boxoffice.tsv
#
# A day the worker cannot answer has no rows, and is named on stderr with the worker's message and reason; the
# good days' rows are still written (a TSV is often read by people, and the days are independent), but the exit
# status is then 1, so a job that needs every day fails and can rerun (days already fetched are cached). To keep
# a file only when complete: `... > boxoffice.tsv.part && mv boxoffice.tsv.part boxoffice.tsv`. The worker's own
# log lines go to stderr, never hidden. Exit status:
#   0    every day's rows written
#   1    a day failed (named on stderr), or the worker exited non-zero; the other days' rows are written
#   127  the worker or jq not found (nothing written, not even the header)
#
# BOXOFFICE_WORKER names the worker: a full path, or a name looked up on PATH (default boxoffice-worker).
set -euo pipefail
me=dates-to-tsv.sh

# jq and the worker, found as bo.sh finds them for its calls (the same messages, exit 127 when either is missing).
# bo.sh is beside this file (a link to it, as the .deb and npm install it, is followed), or, installed from the
# wheel, is boxoffice-bo.sh beside it.
here="$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")"
if [[ -f "$here/bo.sh" ]]; then
    # shellcheck source=bo.sh
    . "$here/bo.sh"
else
    # shellcheck source=bo.sh
    . "$here/boxoffice-bo.sh"
fi
found="$(_bo_worker "$me")" || exit 127

work="$(mktemp -d "${TMPDIR:-/tmp}/boxoffice-tsv.XXXXXX")"
trap 'rm -rf "$work"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

printf 'date\trank\tchange\ttitle\taudience\ttotal\n'
# The requests (id: the line number, so a date given twice is asked twice) and the answers are kept for the check.
# `tee -p`: a worker that exits without reading (a bad flag) closes the pipe; plain tee then died of SIGPIPE before
# it wrote the request to its file, and the day went unnamed (one run in three with the release binary, which exits
# sooner). With -p it keeps writing the file and exits 0 (the worker's own status says what happened).
set +e
jq -Rc 'select(length > 0) | {jsonrpc:"2.0", id:input_line_number, method:"boxoffice.daily", params:{date:.}}' |
    tee -p "$work/requests" |
    "$found" --ordered "$@" |
    tee "$work/answers" |
    jq -rR 'fromjson? | select(type == "object" and (.result.entries? | type) == "array") | .result as $office
        | $office.entries[] | [$office.range.start, .rank, .display.rankChange, .title, .audience.count, .audience.total]
        | @tsv'
statuses=("${PIPESTATUS[@]}")
set -e

# Every date must have been answered with its box office: name each that was not, with the worker's error or why.
failed="$(jq -nrR --rawfile answers "$work/answers" '
    [$answers | split("\n")[] | select(length > 0) | (try fromjson catch null)
        | select(type == "object" and (has("method") | not))]
    | map({key: (.id | tostring), value: .}) | from_entries as $by
    | inputs | select(length > 0) | fromjson as $request | $request.params.date as $day
    | $by[$request.id | tostring] as $a
    | if $a == null then "\($day): no answer from the worker"
      elif ($a.result | type) == "object" and $a.result.range.start? == $day then empty
      elif $a.error != null then
          "\($day): \($a.error.message // "an error") (\($a.error.data.reason? // $a.error.code // "no reason"))"
      else "\($day): an answer that is not the box office of that day" end' "$work/requests")"

status=0
if [[ -n "$failed" ]]; then
    while IFS= read -r line; do echo "$me: $line"; done <<<"$failed" >&2
    echo "$me: $(wc -l <<<"$failed") of $(grep -c . "$work/requests") days failed; the other days' rows are written" >&2
    status=1
fi
if [[ "${statuses[2]}" != 0 ]]; then
    echo "$me: the worker exited with status ${statuses[2]}" >&2
    status=1
fi
if [[ "${statuses[0]}" != 0 || "${statuses[1]}" != 0 || "${statuses[3]}" != 0 || "${statuses[4]}" != 0 ]]; then
    echo "$me: reading the dates or writing the rows failed (statuses ${statuses[*]})" >&2
    status=1
fi
exit "$status"
