# boxoffice-worker from bash, with jq. Source this file:  . clients/shell/bo.sh
#
#   bo boxoffice.daily '{"date":"2023-04-26"}' | jq -r '.entries[].title'
#       one call: a worker for this call alone; prints the result
#
#   bo_start; detail="$(bo_call movie.detail '{"movieCode":"20124079"}')"; jq -r .title <<<"$detail"; bo_stop
#       one worker for a whole script (a coprocess): each bo_call writes a request and reads its answer. Call it
#       directly or as $(bo_call ...), never inside a pipeline: bash closes a coprocess's descriptors there
#
# A call prints the result (compact JSON) and returns 0, or prints nothing on stdout and returns non-zero with what
# failed on stderr: the worker's message and reason (`... (offline_unavailable)`), or why there was no answer.
# Status: 0 a result; 1 the worker answered an error, gave no answer or exited non-zero; 2 usage (PARAMS not JSON);
# 127 the worker or jq not found. The worker's own log lines go to stderr, never hidden (BOXOFFICE_LOG_LEVEL=warning
# quiets the offline notice). bo_stop returns the worker's exit status.
#
# BOXOFFICE_WORKER names the worker: a full path, or a name looked up on PATH (default boxoffice-worker); BO_FLAGS
# adds flags (an array: BO_FLAGS=(--offline)).

BOXOFFICE_WORKER="${BOXOFFICE_WORKER:-boxoffice-worker}"

# Prints the worker's path, or says on stderr why there is none (as $1) and returns 127.
_bo_worker() {
    local caller="$1" worker="${BOXOFFICE_WORKER:-boxoffice-worker}" found
    if ! command -v jq >/dev/null 2>&1; then
        echo "$caller: jq is not on PATH ($PATH); install it (apt-get install jq)" >&2
        return 127
    fi
    if [[ "$worker" == */* ]]; then found="$worker"; else found="$(type -P -- "$worker")"; fi
    if [[ -z "$found" || ! -f "$found" || ! -x "$found" ]]; then
        if [[ "$worker" == */* ]]; then
            echo "$caller: the worker $worker (BOXOFFICE_WORKER) is not an executable file: set BOXOFFICE_WORKER to the worker's full path, or unset it to look boxoffice-worker up on PATH" >&2
        else
            echo "$caller: the worker '$worker' is not on PATH ($PATH): set BOXOFFICE_WORKER to its full path, or add its folder to PATH" >&2
        fi
        return 127
    fi
    printf '%s\n' "$found"
}

# Prints the request line (method $2, params $3, id $4), or says that the params are not JSON and returns 2.
_bo_request() {
    local caller="$1" method="$2" params="$3" id="$4"
    if ! jq -cn --arg method "$method" --argjson params "$params" --arg id "$id" \
        '{jsonrpc:"2.0", id:$id, method:$method, params:$params}' 2>/dev/null; then
        echo "$caller: the params are not JSON: $params" >&2
        return 2
    fi
}

# Reads the worker's lines on stdin: prints the result of the answer to id $2, or says on stderr (as $1) what came
# instead (the error's message and reason, or no answer) and returns 1. Notifications (progress) are skipped.
_bo_answer() {
    jq -cnR --arg caller "$1" --arg id "$2" '
        [inputs | select(length > 0) | (try fromjson catch null)
            | select(type == "object" and (has("method") | not) and .id == $id)] as $answers
        | if ($answers | length) == 0 then "\($caller): no answer from the worker\n" | halt_error(1)
          elif ($answers | length) > 1 then "\($caller): \($answers | length) answers to one request\n" | halt_error(1)
          elif $answers[0] | has("result") then $answers[0].result
          elif $answers[0].error != null then $answers[0].error
              | "\($caller): \(.message // "an error") (\(.data.reason? // .code // "no reason"))\n" | halt_error(1)
          else "\($caller): an answer with neither a result nor an error\n" | halt_error(1) end'
}

# One call: prints the result as JSON, or what failed on stderr and returns non-zero.
bo() {
    if (($# < 1)); then
        echo "usage: bo METHOD [PARAMS-JSON]" >&2
        return 2
    fi
    local method="$1" params="${2:-{\}}" worker request answer result status=0 answered=0
    worker="$(_bo_worker bo)" || return 127
    request="$(_bo_request bo "$method" "$params" 1)" || return 2
    answer="$(printf '%s\n' "$request" | "$worker" ${BO_FLAGS[@]+"${BO_FLAGS[@]}"})" || status=$?
    result="$(_bo_answer bo 1 <<<"$answer")" || answered=1
    if ((status != 0)); then
        echo "bo: the worker exited with status $status" >&2
        return 1
    fi
    ((answered == 0)) || return 1
    printf '%s\n' "$result"
}

# Starts one worker for the rest of the script (answers in request order, so each call reads its own).
bo_start() {
    local worker
    worker="$(_bo_worker bo_start)" || return 127
    coproc BO_WORKER { exec "$worker" --ordered ${BO_FLAGS[@]+"${BO_FLAGS[@]}"}; }
    BO_PID="$BO_WORKER_PID"
    BO_NEXT_ID=0
}

# One call to the running worker: prints the result, or what failed on stderr and returns non-zero. The id names
# this shell too ($BASHPID), so calls made in $(...) subshells, whose counters are lost, never share one.
bo_call() {
    if (($# < 1)); then
        echo "usage: bo_call METHOD [PARAMS-JSON]" >&2
        return 2
    fi
    local method="$1" params="${2:-{\}}" id request line
    if [[ -z "${BO_PID:-}" || -z "${BO_WORKER[0]:-}" || -z "${BO_WORKER[1]:-}" ]]; then
        echo "bo_call: no worker is running: bo_start starts one (if it was started, it has exited: see its log above)" >&2
        return 1
    fi
    if ! { true >&"${BO_WORKER[1]}" && true <&"${BO_WORKER[0]}"; } 2>/dev/null; then
        echo "bo_call: the worker's pipes are closed here: call bo_call directly or as \$(bo_call ...), not in a pipeline" >&2
        return 1
    fi
    BO_NEXT_ID=$((${BO_NEXT_ID:-0} + 1))
    id="$BASHPID-$BO_NEXT_ID"
    request="$(_bo_request bo_call "$method" "$params" "$id")" || return 2
    # cat, not a builtin, writes: if the worker is gone, SIGPIPE ends cat, not this shell.
    cat 1>&"${BO_WORKER[1]}" <<<"$request" 2>/dev/null
    # Lines before the answer (progress notifications, an earlier call's unread answer) are skipped.
    while IFS= read -r line <&"${BO_WORKER[0]}"; do
        if jq -e --arg id "$id" 'type == "object" and (has("method") | not) and .id == $id' <<<"$line" \
            >/dev/null 2>&1; then
            _bo_answer bo_call "$id" <<<"$line"
            return
        fi
    done
    echo "bo_call: the worker is gone without answering (its log, if any, is above)" >&2
    return 1
}

# Ends the worker: end of input, then it exits once everything is answered. Returns the worker's exit status.
bo_stop() {
    local pid="${BO_PID:-}" status=0 input="${BO_WORKER[1]:-}"
    if [[ -n "$input" ]]; then exec {input}>&-; fi
    [[ -n "$pid" ]] || return 0
    wait "$pid" || status=$?
    BO_PID=""
    if ((status != 0)); then echo "bo_stop: the worker exited with status $status" >&2; fi
    return "$status"
}
