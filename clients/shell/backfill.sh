#!/usr/bin/env bash
# A parallel backfill: every day from FROM to TO fetched by JOBS workers at once (GNU parallel when installed,
# else xargs -P), all sharing one cache directory and so one KOBIS quota; a day already cached costs no call, so
# running it again is free and an interrupted run resumes. Writes one JSON line per day (the box office) to stdout,
# in date order (each batch writes its own file, joined at the end: lines this long would interleave if several
# workers wrote them to one pipe). Arguments after JOBS go to every worker (`--kobis-daily-limit 500`, `--offline`).
#
#   bash clients/shell/backfill.sh 2023-03-01 2023-03-31 4 > march.ndjson.part && mv march.ndjson.part march.ndjson
#
# All or nothing: stdout gets every day or nothing. Lines are written only once every day has been answered with
# its box office and every worker has exited 0. Otherwise nothing at all goes to stdout, each failed day is named on
# stderr with the worker's message and reason (or why there was no answer), and the exit status is non-zero. So
# `> march.ndjson` never ends with a success exit over partial data, though the shell has already created the
# file (empty) by then: write to a temporary name and rename it on success, as above. Run it again after a
# failure: the days that succeeded are cached and cost no call. The workers' own log lines go to stderr, never
# hidden. Exit status:
#   0    every day written
#   1    a day failed (named on stderr); nothing written
#   2    usage: bad dates or JOBS
#   127  the worker or jq not found
#
# BOXOFFICE_WORKER names the worker: a full path, or a name looked up on PATH (default boxoffice-worker).
set -euo pipefail
me=backfill.sh

usage() {
    echo "usage: bash backfill.sh FROM TO [JOBS] [worker flags...]   (dates YYYY-MM-DD, FROM <= TO; JOBS default 4)" >&2
    [ $# -eq 0 ] || echo "$me: $*" >&2
    exit 2
}

(($# >= 2)) || usage
from="$1" to="$2"
shift 2
jobs=4
if (($# >= 1)) && [[ "$1" =~ ^[0-9]+$ ]]; then
    jobs="$1"
    shift
fi
((jobs >= 1)) || usage "JOBS must be 1 or more"
for day in "$from" "$to"; do
    [[ "$day" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ && "$(date -u -d "$day" +%F 2>/dev/null)" == "$day" ]] ||
        usage "not a date: $day"
done
[[ ! "$from" > "$to" ]] || usage "FROM ($from) is after TO ($to)"

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

days=()
day="$from"
while [[ ! "$day" > "$to" ]]; do
    days+=("$day")
    day="$(date -u -d "$day + 1 day" +%F)"
done

BACKFILL_WORK="$(mktemp -d "${TMPDIR:-/tmp}/boxoffice-backfill.XXXXXX")"
BACKFILL_WORKER="$found"
export BACKFILL_WORK BACKFILL_WORKER
trap 'rm -rf "$BACKFILL_WORK"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
# The worker flags, one a line, for the batches (an array cannot be exported).
if (($#)); then printf '%s\n' "$@"; fi >"$BACKFILL_WORK/flags"

# One worker per batch of days (at most 7, and spread over all JOBS), so a worker's start is shared by several calls.
count="${#days[@]}"
batch=$(((count + jobs - 1) / jobs))
((batch > 7)) && batch=7
((batch < 1)) && batch=1

# A batch keeps its requests, the worker's answers and its exit status; the checks come after every batch is done.
fetch_batch() {
    local first="$1" flags=() status=0
    mapfile -t flags <"$BACKFILL_WORK/flags"
    printf '%s\n' "$@" | jq -Rc '{jsonrpc:"2.0", id:., method:"boxoffice.daily", params:{date:.}}' \
        >"$BACKFILL_WORK/$first.requests"
    "$BACKFILL_WORKER" --ordered ${flags[@]+"${flags[@]}"} <"$BACKFILL_WORK/$first.requests" \
        >"$BACKFILL_WORK/$first.answers" || status=$?
    echo "$status" >"$BACKFILL_WORK/$first.status"
}
export -f fetch_batch

runner=0
if command -v parallel >/dev/null 2>&1; then
    printf '%s\n' "${days[@]}" | parallel --will-cite -j "$jobs" -N "$batch" fetch_batch || runner=$?
else
    printf '%s\n' "${days[@]}" | xargs -P "$jobs" -n "$batch" bash -c 'fetch_batch "$@"' _ || runner=$?
fi

# Every day must have exactly its box office: name each that has not, with the worker's error or why there is none.
shopt -s nullglob
answers=("$BACKFILL_WORK"/*.answers)
failed="$(cat ${answers[@]+"${answers[@]}"} /dev/null | jq -nrR --args '
    [inputs | select(length > 0) | (try fromjson catch null) | select(type == "object" and (has("method") | not))]
    | map({key: (.id | tostring), value: .}) | from_entries as $by
    | $ARGS.positional[] as $day | $by[$day] as $a
    | if $a == null then "\($day): no answer from the worker"
      elif ($a.result | type) == "object" and $a.result.range.start? == $day then empty
      elif $a.error != null then
          "\($day): \($a.error.message // "an error") (\($a.error.data.reason? // $a.error.code // "no reason"))"
      else "\($day): an answer that is not the box office of that day" end' "${days[@]}")"
statuses=""
for file in "$BACKFILL_WORK"/*.status; do
    status="$(<"$file")"
    if [[ "$status" != 0 ]]; then
        statuses+="$me: the worker for the days from $(basename "$file" .status) exited with status $status"$'\n'
    fi
done
if [[ -n "$failed" || -n "$statuses" || "$runner" != 0 ]]; then
    if [[ -n "$failed" ]]; then
        while IFS= read -r line; do echo "$me: $line"; done <<<"$failed" >&2
    fi
    printf '%s' "$statuses" >&2
    [[ "$runner" == 0 ]] || echo "$me: running the batches failed (status $runner)" >&2
    if [[ -n "$failed" ]]; then
        echo "$me: $(wc -l <<<"$failed") of $count days failed; nothing written to stdout (run it again: the days that succeeded are cached)" >&2
    else
        echo "$me: nothing written to stdout" >&2
    fi
    exit 1
fi

# Every day answered: the results in date order (batch files by their first day; --ordered within a batch), put
# together in a file first so that stdout gets all of it or nothing.
jq -cR 'fromjson? | select(type == "object" and .result != null) | .result' "${answers[@]}" >"$BACKFILL_WORK/all.ndjson"
written="$(wc -l <"$BACKFILL_WORK/all.ndjson")"
if ((written != count)); then
    echo "$me: $written box offices for $count days; nothing written to stdout" >&2
    exit 1
fi
cat "$BACKFILL_WORK/all.ndjson"
