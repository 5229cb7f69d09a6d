# boxoffice-worker from bash, with jq. Source this file:  . clients/shell/bo.sh
#
#   bo boxoffice.daily '{"date":"2023-04-26"}' | jq -r '.entries[].title'
#       one call: a worker for this call alone; prints the result, or the error on stderr (exit 1)
#
#   bo_start; detail="$(bo_call movie.detail '{"movieCode":"20124079"}')"; jq -r .title <<<"$detail"; bo_stop
#       one worker for a whole script (a coprocess): each bo_call writes a request and reads its answer. Call it
#       directly or as $(bo_call ...), never inside a pipeline: bash closes a coprocess's descriptors there
#
# BOXOFFICE_WORKER names the binary (default: boxoffice-worker on PATH); BO_FLAGS adds flags (an array).

BOXOFFICE_WORKER="${BOXOFFICE_WORKER:-boxoffice-worker}"

# One call: prints the result as JSON, or the error message on stderr and returns 1.
bo() {
    local method="$1" params="${2:-{\}}"
    jq -cn --arg method "$method" --argjson params "$params" '{jsonrpc:"2.0",id:1,method:$method,params:$params}' |
        "$BOXOFFICE_WORKER" "${BO_FLAGS[@]}" 2>/dev/null |
        jq -ce 'if .error then (.error.message + " (" + (.error.data.reason // (.error.code|tostring)) + ")\n" | halt_error(1)) else .result end'
}

# Starts one worker for the rest of the script (answers in request order, so each call reads its own).
bo_start() {
    coproc BO_WORKER { "$BOXOFFICE_WORKER" --ordered "${BO_FLAGS[@]}" 2>/dev/null; }
    BO_NEXT_ID=0
}

# One call to the running worker: prints the result, or the error on stderr and returns 1.
bo_call() {
    local method="$1" params="${2:-{\}}" answer
    BO_NEXT_ID=$((BO_NEXT_ID + 1))
    jq -cn --arg method "$method" --argjson params "$params" --argjson id "$BO_NEXT_ID" \
        '{jsonrpc:"2.0",id:$id,method:$method,params:$params}' >&"${BO_WORKER[1]}"
    IFS= read -r answer <&"${BO_WORKER[0]}" || { echo "bo_call: the worker is gone" >&2; return 1; }
    jq -ce 'if .error then (.error.message + " (" + (.error.data.reason // (.error.code|tostring)) + ")\n" | halt_error(1)) else .result end' <<<"$answer"
}

# Ends the worker: end of input, then it exits once everything is answered.
bo_stop() {
    local pid="$BO_WORKER_PID"
    exec {BO_WORKER[1]}>&-
    wait "$pid" 2>/dev/null || true
}
