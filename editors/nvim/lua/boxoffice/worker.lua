-- The one worker this editor keeps: a `boxoffice-worker` process spoken to in newline-delimited JSON-RPC 2.0 over
-- its stdin and stdout (docs/editors.md). Every call is asynchronous: `request` writes a line and returns its id;
-- the answer, matched by id, reaches the callback from the job's stdout handler on the main loop, so nothing here
-- ever waits for the worker.
local config = require("boxoffice.config")

local M = {}

-- What the running worker is and what is waiting on it. `pending[id]` is a call not yet answered: its method,
-- params, callback, progress handler and whether it was already sent again to a restarted worker.
local state = {
  job = nil,
  pid = nil,
  partial = "",
  next_id = 0,
  pending = {},
  -- A worker started to replace one that died, which has not answered anything yet: if it dies too, nothing
  -- restarts (a worker that cannot start would otherwise be restarted forever).
  replacing = false,
  stopping = false,
  -- The worker's stderr, its last lines (`:BoxOfficeLog`): kept, never drawn into a screen.
  log = {},
}

local LOG_LINES = 500

local function log(line)
  table.insert(state.log, line)
  if #state.log > LOG_LINES then
    table.remove(state.log, 1)
  end
end

--- The worker's stderr lines so far (the newest last).
function M.log()
  return state.log
end

--- The path of the binary the running worker was started from, or nil.
function M.binary()
  return state.binary
end

--- The running worker's process id, or nil.
function M.pid()
  return state.pid
end

--- How many calls are waiting for an answer.
function M.in_flight()
  return vim.tbl_count(state.pending)
end

local function notify(message, level)
  vim.notify("boxoffice: " .. message, level)
end

-- How a process ended, in words: Neovim reports a death by signal N as the exit code 128 + N.
local function describe_exit(code)
  if code > 128 then
    return ("it was killed by signal %d"):format(code - 128)
  end
  return ("it exited with code %d"):format(code)
end

local function send(message)
  vim.fn.chansend(state.job, vim.json.encode(message) .. "\n")
end

local function send_call(id, call)
  local params = call.params
  if call.on_progress then
    params = vim.deepcopy(params)
    params._meta = { progressToken = id }
  end
  send({ jsonrpc = "2.0", id = id, method = call.method, params = next(params) and params or vim.empty_dict() })
end

local function handle_message(message)
  if message.method == "notifications/progress" then
    local params = message.params or {}
    local call = state.pending[params.progressToken]
    if call and call.on_progress then
      call.on_progress(params)
    end
    return
  end
  if message.id == nil or message.id == vim.NIL then
    return
  end
  state.replacing = false
  local call = state.pending[message.id]
  -- An answer nobody waits for: a cancelled call's -32800, or an answer that came as its buffer closed.
  if not call then
    return
  end
  state.pending[message.id] = nil
  if message.error then
    call.callback(message.error, nil)
  else
    call.callback(nil, message.result)
  end
end

local function handle_line(line)
  if line == "" then
    return
  end
  local decoded, message = pcall(vim.json.decode, line)
  if not decoded or type(message) ~= "table" then
    log("(not JSON on stdout) " .. line)
    return
  end
  -- A callback that fails is a bug of the plugin's own; it must not cost the other answers of the chunk.
  local handled, problem = pcall(handle_message, message)
  if not handled then
    log("(an answer's handler failed) " .. tostring(problem))
    notify("drawing an answer failed: " .. tostring(problem), vim.log.levels.ERROR)
  end
end

-- Neovim hands a pipe's output over in chunks cut anywhere: the first item continues the last partial line, the
-- last item starts the next one (empty when the chunk ended with a newline). Calls `take` with each whole line.
local function lines_of(data, partial, take)
  partial = partial .. data[1]
  for index = 2, #data do
    take(partial)
    partial = data[index]
  end
  return partial
end

local function on_stdout(job, data)
  if job ~= state.job then
    return
  end
  state.partial = lines_of(data, state.partial, handle_line)
end

local stderr_partial = ""

local function on_stderr(_, data)
  stderr_partial = lines_of(data, stderr_partial, function(line)
    if line ~= "" then
      log(line)
    end
  end)
end

local start

local function fail_all(message)
  local calls = state.pending
  state.pending = {}
  for _, call in pairs(calls) do
    call.callback({ code = -32000, message = message }, nil)
  end
end

local function on_exit(job, code)
  if job ~= state.job then
    return
  end
  state.job, state.pid, state.partial = nil, nil, ""
  if state.stopping then
    return
  end
  local why = describe_exit(code)
  if next(state.pending) == nil then
    notify(("the worker stopped (%s); the next command starts a new one"):format(why), vim.log.levels.WARN)
    state.replacing = false
    return
  end
  if state.replacing then
    state.replacing = false
    fail_all(("the restarted worker stopped too (%s) before answering; see :BoxOfficeLog"):format(why))
    return
  end
  -- Restart once and send every call in flight again; a call already sent again fails instead of looping.
  local resend, failed = {}, {}
  for id, call in pairs(state.pending) do
    if call.resent then
      failed[id] = call
    else
      resend[id] = call
    end
  end
  for id, call in pairs(failed) do
    state.pending[id] = nil
    call.callback({ code = -32000, message = ("the worker stopped (%s) twice during this call"):format(why) }, nil)
  end
  local ok, err = pcall(start)
  if not ok then
    fail_all(tostring(err))
    return
  end
  state.replacing = true
  for id, call in pairs(resend) do
    call.resent = true
    send_call(id, call)
  end
  notify(("the worker stopped (%s); restarted it and sent %d call(s) again"):format(why, vim.tbl_count(resend)),
    vim.log.levels.WARN)
end

start = function()
  local binary, missing = require("boxoffice.binary").find(config.options.binary)
  if not binary then
    error(missing, 0)
  end
  local command = { binary }
  if config.options.offline then
    table.insert(command, "--offline")
  end
  if config.options.cache_dir then
    vim.list_extend(command, { "--cache-dir", vim.fn.expand(config.options.cache_dir) })
  end
  vim.list_extend(command, config.options.args or {})
  local options = { on_stdout = on_stdout, on_stderr = on_stderr, on_exit = on_exit }
  if config.options.env and next(config.options.env) then
    options.env = config.options.env
  end
  local job = vim.fn.jobstart(command, options)
  if job <= 0 then
    error(("could not start %s (jobstart returned %d)"):format(binary, job), 0)
  end
  state.job, state.pid, state.partial, state.stopping, state.binary = job, vim.fn.jobpid(job), "", false, binary
end

--- Calls `method` with `params` (a table) and returns the call's id at once. `callback(err, result)` runs on the
--- main loop when the answer comes: `err` is the JSON-RPC error object or nil. With `on_progress`, the call asks
--- for progress and `on_progress(params)` gets each `notifications/progress`. A worker that cannot be started is
--- an error raised here (the binary missing, with how to install it).
function M.request(method, params, callback, on_progress)
  if not state.job then
    start()
  end
  state.next_id = state.next_id + 1
  local id = state.next_id
  local call = { method = method, params = params or {}, callback = callback, on_progress = on_progress }
  state.pending[id] = call
  send_call(id, call)
  return id
end

--- Forgets call `id` and tells the worker to stop working on it (`$/cancelRequest`); its answer is dropped.
function M.cancel(id)
  if not state.pending[id] then
    return
  end
  state.pending[id] = nil
  if state.job then
    send({ jsonrpc = "2.0", method = "$/cancelRequest", params = { id = id } })
  end
end

--- Ends the worker: closes its stdin, so it finishes what is in flight and exits, and kills it if it is still
--- there after `grace_ms` (default 1000). Calls still waiting fail with "the worker was stopped before it
--- answered" (their buffers say so), or, with `quietly` (Neovim exiting), are dropped.
function M.stop(grace_ms, quietly)
  if not state.job then
    return
  end
  local job = state.job
  state.stopping = true
  if quietly then
    state.pending = {}
  else
    fail_all("the worker was stopped before it answered")
  end
  vim.fn.chanclose(job, "stdin")
  if vim.fn.jobwait({ job }, grace_ms or 1000)[1] == -1 then
    vim.fn.jobstop(job)
  end
  state.job, state.pid, state.partial, state.replacing = nil, nil, "", false
end

return M
