-- A screen in a buffer: a scratch buffer (filetype `boxoffice`, not modifiable) named for what it shows, the call
-- that fills it, and its keys. A view asks the worker and returns at once; the answer draws the buffer when it
-- comes. Closing the buffer before that cancels the call.
local render = require("boxoffice.render")
local worker = require("boxoffice.worker")

local M = {}

local namespace = vim.api.nvim_create_namespace("boxoffice")

-- Per buffer: { spec = ..., call = id of the call in flight or nil, rows = { [line] = movieCode } }.
local views = {}

local function find_buffer(name)
  for _, buffer in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_valid(buffer) and vim.api.nvim_buf_get_name(buffer) == name then
      return buffer
    end
  end
end

--- Draws `screen` (render.lua's shape) into `buffer`. Every line goes through render.one_line: a newline in one
--- (nvim_buf_set_lines refuses it, and the buffer would stay at "Loading…") or any other control character shows as
--- its picture, a C1 control, a bidi one or U+2028/U+2029 as "�". The screens have done it already for what the
--- worker said; this is for the rest (the worker's log).
function M.draw(buffer, screen)
  if not vim.api.nvim_buf_is_valid(buffer) then
    return
  end
  local lines = {}
  for index, line in ipairs(screen.lines) do
    lines[index] = render.one_line(line)
  end
  vim.api.nvim_buf_set_option(buffer, "modifiable", true)
  vim.api.nvim_buf_set_lines(buffer, 0, -1, false, lines)
  vim.api.nvim_buf_set_option(buffer, "modifiable", false)
  vim.api.nvim_buf_set_option(buffer, "modified", false)
  vim.api.nvim_buf_clear_namespace(buffer, namespace, 0, -1)
  for _, mark in ipairs(screen.highlights) do
    vim.api.nvim_buf_add_highlight(buffer, namespace, mark[1], mark[2], mark[3], mark[4])
  end
  if views[buffer] then
    views[buffer].rows = screen.rows
  end
end

-- The message of `err` in a notification: what the worker said, its lines kept, with the stand-ins of the screens.
local function notify_error(err, level)
  vim.notify("boxoffice: " .. render.lines(err.message or "unknown error"), level or vim.log.levels.ERROR)
end

--- Asks `method` with `params` for `buffer`'s view and draws the answer with `on_result(result)` (which returns a
--- screen, or nil when it drew the buffer itself); `result` has every string through render.printable, so that a
--- title holding a newline lays out on its row. A call already in flight for the buffer is cancelled, and so is
--- this one when the buffer closes first. `options.on_progress` gets progress; `options.on_error(err)` returns the
--- screen of a failure (default: the error alone) for a call whose failure leaves the rest of the screen standing.
function M.ask(buffer, method, params, on_result, options)
  options = options or {}
  local view = views[buffer]
  if view.call then
    worker.cancel(view.call)
  end
  local id
  local ok, err = pcall(function()
    id = worker.request(method, params, function(err, result)
      if views[buffer] and views[buffer].call == id then
        views[buffer].call = nil
      end
      if not vim.api.nvim_buf_is_valid(buffer) then
        return
      end
      if err then
        if options.on_error then
          M.draw(buffer, options.on_error(render.printable(err)))
          notify_error(err, vim.log.levels.WARN)
        else
          M.draw(buffer, render.error(err, M.width(buffer)))
          notify_error(err)
        end
        return
      end
      local screen = on_result(render.printable(result))
      if screen then
        M.draw(buffer, screen)
      end
    end, options.on_progress)
  end)
  if not ok then
    -- The worker could not start (the binary missing): said in the buffer and at error level.
    local failure = { message = tostring(err) }
    M.draw(buffer, render.error(failure, M.width(buffer)))
    notify_error(failure)
    return nil
  end
  view.call = id
  return id
end

local function close(buffer)
  if vim.api.nvim_buf_is_valid(buffer) then
    vim.api.nvim_buf_delete(buffer, { force = true })
  end
end

-- The buffer's call in flight, cancelled: its answer would have nowhere to go.
local function cancel(buffer)
  local view = views[buffer]
  if view and view.call then
    worker.cancel(view.call)
    view.call = nil
  end
end

--- The code of the movie on the cursor's row, or nil.
function M.movie_under_cursor(buffer)
  local view = views[buffer or vim.api.nvim_get_current_buf()]
  return view and view.rows and view.rows[vim.api.nvim_win_get_cursor(0)[1]]
end

--- Opens (or reuses) the buffer `name` in the current window and fills it: `spec.fill(buffer, refresh)` makes the
--- call(s). `spec.open(code)` is what <CR> on a row does.
function M.open(name, spec)
  local buffer = find_buffer(name)
  -- A buffer deleted with :bd keeps its name but loses its options and keys: make it anew.
  if buffer and (not views[buffer] or not vim.api.nvim_buf_is_loaded(buffer)
      or vim.bo[buffer].filetype ~= "boxoffice") then
    cancel(buffer)
    views[buffer] = nil
    vim.api.nvim_buf_delete(buffer, { force = true })
    buffer = nil
  end
  if not buffer then
    buffer = vim.api.nvim_create_buf(true, true)
    vim.api.nvim_buf_set_name(buffer, name)
    vim.api.nvim_buf_set_option(buffer, "buftype", "nofile")
    vim.api.nvim_buf_set_option(buffer, "bufhidden", "hide")
    vim.api.nvim_buf_set_option(buffer, "swapfile", false)
    vim.api.nvim_buf_set_option(buffer, "filetype", "boxoffice")
    local function map(lhs, action, description)
      vim.api.nvim_buf_set_keymap(buffer, "n", lhs, "", { callback = action, nowait = true, silent = true,
        desc = description })
    end
    map("q", function() close(buffer) end, "close this box office buffer")
    map("gr", function() views[buffer].spec.fill(buffer, true) end, "ask again, bypassing the cache")
    map("<CR>", function()
      local code = M.movie_under_cursor(buffer)
      if code and views[buffer].spec.open then
        views[buffer].spec.open(code)
      else
        vim.api.nvim_echo({ { "boxoffice: no movie on this line" } }, false, {})
      end
    end, "open the movie on this row")
    -- Unloaded (:bd, :e) or wiped, the buffer no longer waits for its call; a reloaded one (:e) keeps its view, so
    -- gr fills it again. Autocommands of a buffer go with it when it is wiped.
    vim.api.nvim_create_autocmd({ "BufDelete", "BufUnload" }, {
      buffer = buffer,
      callback = function() cancel(buffer) end,
    })
    vim.api.nvim_create_autocmd("BufWipeout", { buffer = buffer, callback = function()
      cancel(buffer)
      views[buffer] = nil
    end })
  end
  views[buffer] = views[buffer] or {}
  views[buffer].spec = spec
  -- With 'nohidden' and unsaved changes the current window cannot leave its buffer: a split shows the screen.
  if not pcall(vim.api.nvim_set_current_buf, buffer) then
    vim.cmd("sbuffer " .. buffer)
  end
  vim.cmd("setlocal nowrap")
  M.draw(buffer, { lines = { spec.loading or "Loading…" }, highlights = { { "Comment", 0, 0, -1 } }, rows = {} })
  spec.fill(buffer, false)
  return buffer
end

--- The cells a screen of `buffer` may take: its window's width (the current window's when it has none yet).
function M.width(buffer)
  local window = vim.fn.bufwinid(buffer)
  return vim.api.nvim_win_get_width(window ~= -1 and window or 0)
end

--- The call in flight for `buffer`'s view, or nil (for tests and :checkhealth).
function M.call(buffer)
  return views[buffer] and views[buffer].call
end

return M
