#!/usr/bin/env bash
# Dates in (one YYYY-MM-DD per line on stdin), a TSV of their box offices out: date, rank, rank change, title,
# audience, total audience. One worker for all of them; answers in request order (--ordered), so rows follow the
# dates. A day the worker cannot answer is reported on stderr and skipped.
#
#   printf '2023-04-23\n2023-04-26\n' | bash clients/shell/dates-to-tsv.sh > boxoffice.tsv
set -euo pipefail
worker="${BOXOFFICE_WORKER:-boxoffice-worker}"
printf 'date\trank\tchange\ttitle\taudience\ttotal\n'
jq -Rc 'select(length > 0) | {jsonrpc:"2.0", id:., method:"boxoffice.daily", params:{date:.}}' |
    "$worker" --ordered "$@" 2>/dev/null |
    jq -r 'if .error then "!error\t\(.id): \(.error.message)"
           else .result as $office | $office.entries[] |
               [$office.range.start, .rank, .display.rankChange, .title, .audience.count, .audience.total] | @tsv
           end' |
    awk -F '\t' '$1 == "!error" { print $2 > "/dev/stderr"; next } { print }'
