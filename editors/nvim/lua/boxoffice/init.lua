-- boxoffice.nvim: the box office apps' screens in Neovim buffers, from one long-lived boxoffice-worker
-- (docs/editors.md). `setup` is optional; the commands in plugin/boxoffice.lua call the functions here.
local config = require("boxoffice.config")
local dates = require("boxoffice.dates")
local render = require("boxoffice.render")
local view = require("boxoffice.view")
local worker = require("boxoffice.worker")

local M = {}

--- Sets the options (see config.lua); a running worker is stopped so the next command starts one with them (calls
--- it had not answered fail, their buffers say so).
function M.setup(options)
  config.set(options)
  worker.stop()
end

local function error_out(message)
  vim.notify("boxoffice: " .. message, vim.log.levels.ERROR)
end

local function show_progress(progress)
  local total = progress.total ~= vim.NIL and progress.total or "?"
  -- Figures of the worker's, drawn as the screens draw its text.
  local said = ("boxoffice: %d/%s"):format(progress.progress, tostring(total))
  vim.api.nvim_echo({ { render.one_line(said) } }, false, {})
end

local function box_office(method, name, params, loading, with_details)
  if with_details then
    params.include = { "detail", "poster" }
  end
  return view.open(name, {
    loading = loading,
    fill = function(buffer, refresh)
      local asked = vim.deepcopy(params)
      asked.refresh = refresh or nil
      view.ask(buffer, method, asked, function(result)
        if with_details then
          -- The progress line has done its work once the answer is here.
          vim.api.nvim_echo({ { "" } }, false, {})
        end
        return render.box_office(result)
      end, { on_progress = with_details and show_progress or nil })
    end,
    open = function(code) M.movie(code) end,
  })
end

--- The day's box office (`date` in the CLI's forms; nil is yesterday) in `boxoffice://daily/DATE`; with
--- `with_details`, every entry's detail and poster too, with progress in the command line. Returns the buffer.
function M.daily(date_text, with_details)
  local date, problem = dates.parse(date_text)
  if problem then
    return error_out(problem)
  end
  return box_office("boxoffice.daily", "boxoffice://daily/" .. (date or "yesterday"), { date = date },
    "Loading 일별 박스오피스 " .. (date or "(yesterday)") .. "…", with_details)
end

local PERIODS = { week = true, weekend = true, weekdays = true }

--- A week's, weekend's or weekdays' box office; `arguments` are a date and/or a period, in either order.
function M.weekly(arguments, with_details)
  local date_text, period
  for _, argument in ipairs(arguments or {}) do
    if PERIODS[argument:lower()] then
      period = argument:lower()
    elseif date_text then
      return error_out(('"%s": give one date and one of week, weekend, weekdays'):format(argument))
    else
      date_text = argument
    end
  end
  local date, problem = dates.parse(date_text)
  if problem then
    return error_out(problem)
  end
  period = period or "weekend"
  return box_office("boxoffice.weekly", ("boxoffice://weekly/%s/%s"):format(period, date or "latest"),
    { date = date, period = period }, ("Loading the %s box office…"):format(period), with_details)
end

--- A movie's detail in `boxoffice://movie/CODE`: movie.detail, then its poster (downloaded into the worker's cache
--- when live; offline, the recorded address).
function M.movie(code)
  if not code or not code:match("^%w+$") then
    return error_out(("%s is not a KOBIS movie code (digits and letters, as 20198482)"):format(tostring(code)))
  end
  return view.open("boxoffice://movie/" .. code, {
    loading = "Loading movie " .. code .. "…",
    fill = function(buffer, refresh)
      view.ask(buffer, "movie.detail", { movieCode = code, refresh = refresh or nil }, function(detail)
        local cells = math.max(30, view.width(buffer) - 1)
        local live = detail.source and detail.source.origin ~= "fixture"
        view.draw(buffer, render.movie(detail, "(asking for the poster…)", cells))
        -- The poster is the screen's second call: its failure (no Kakao key, a download refused) is said on the
        -- Poster line and leaves the detail standing.
        local asked = { movieCode = code, download = live or nil, refresh = refresh or nil }
        view.ask(buffer, "movie.poster", asked, function(poster)
          local text
          if not poster.found then
            text = "(not found)"
          elseif poster.file and poster.file ~= vim.NIL then
            text = poster.file.path
          else
            text = poster.image.url
          end
          return render.movie(detail, text, cells)
        end, { on_error = function(err)
          return render.movie(detail, "(" .. (err.message or "failed") .. ")", cells)
        end })
      end)
    end,
  })
end

--- movie.search by title in `boxoffice://search/TITLE`; <CR> on a row opens its detail.
function M.search(title)
  if not title or vim.trim(title) == "" then
    return error_out("give a title to search for: :BoxOfficeSearch 범죄와의 전쟁")
  end
  title = vim.trim(title)
  return view.open("boxoffice://search/" .. title, {
    loading = "Searching " .. title .. "…",
    -- movie.search takes no refresh: gr asks again as it asked first.
    fill = function(buffer)
      view.ask(buffer, "movie.search", { title = title }, function(result)
        return render.search(result, title)
      end)
    end,
    open = function(code) M.movie(code) end,
  })
end

--- worker.status in `boxoffice://status`.
function M.status()
  return view.open("boxoffice://status", {
    loading = "Asking the worker…",
    fill = function(buffer)
      view.ask(buffer, "worker.status", {}, function(status)
        return render.status(status, worker.binary())
      end)
    end,
  })
end

--- The worker's stderr (its last log lines) in `boxoffice://log`, as they are now; gr reads them again.
function M.log()
  return view.open("boxoffice://log", {
    fill = function(buffer)
      local lines = vim.deepcopy(worker.log())
      view.draw(buffer, { lines = #lines > 0 and lines or { "(the worker has logged nothing)" }, highlights = {},
        rows = {} })
    end,
  })
end

return M
