#!/usr/bin/env bash
# A parallel backfill: every day from FROM to TO fetched by JOBS workers at once (GNU parallel when installed,
# else xargs -P), all sharing one cache directory and so one KOBIS quota; a day already cached costs no call, so
# running it again is free and an interrupted run resumes. Writes one JSON line per day (the box office) to stdout,
# in date order (each batch writes its own file, joined at the end: lines this long would interleave if several
# workers wrote them to one pipe).
#
#   bash clients/shell/backfill.sh 2023-03-01 2023-03-31 4 > march.ndjson
set -euo pipefail
from="$1" to="$2" jobs="${3:-4}"
worker="${BOXOFFICE_WORKER:-boxoffice-worker}"
export BOXOFFICE_WORKER="$worker"
BACKFILL_OUT="$(mktemp -d)"
export BACKFILL_OUT
trap 'rm -rf "$BACKFILL_OUT"' EXIT

days() {
    local day="$from"
    while [[ ! "$day" > "$to" ]]; do
        echo "$day"
        day="$(date -u -d "$day + 1 day" +%F)"
    done
}

# One worker per batch of days (at most 7, and spread over all JOBS), so a worker's start is shared by several calls.
count="$(days | wc -l)"
batch=$(((count + jobs - 1) / jobs))
((batch > 7)) && batch=7
((batch < 1)) && batch=1

fetch_batch() {
    jq -Rc '{jsonrpc:"2.0", id:., method:"boxoffice.daily", params:{date:.}}' < <(printf '%s\n' "$@") |
        "$BOXOFFICE_WORKER" --ordered 2>/dev/null | jq -c 'select(.result) | .result' > "$BACKFILL_OUT/$1.ndjson"
}
export -f fetch_batch

if command -v parallel >/dev/null 2>&1; then
    days | parallel --will-cite -j "$jobs" -N "$batch" fetch_batch
else
    days | xargs -P "$jobs" -n "$batch" bash -c 'fetch_batch "$@"' _
fi
cat "$BACKFILL_OUT"/*.ndjson
