-- How fast :BoxOffice draws, in a headless Neovim (Benchmarks/run-editors starts it with the env below):
--   warm    `:BoxOffice DATE` with the worker running and the day in its memory: command to buffer drawn
--   first   the same with a new worker each time (spawned by the command) and the day in its disk cache
-- beside baselines measured in the same run through the same plugin process: a `ping` round trip, and the daily
-- call's round trip without drawing (so drawing's own cost shows), and the worker's start alone (spawn to ping).
-- BENCH_WORKER: the binary; BENCH_UPSTREAM: the fake upstream; BENCH_CACHE: a cache directory; BENCH_ROUNDS.
local boxoffice = require("boxoffice")
local view = require("boxoffice.view")
local worker = require("boxoffice.worker")

local ROUNDS = tonumber(vim.env.BENCH_ROUNDS or "50")
local DATE = "2023-04-26"

boxoffice.setup({ binary = vim.env.BENCH_WORKER, cache_dir = vim.env.BENCH_CACHE, env = {
  KOBIS_API_KEY = "bench-key", KAKAO_REST_API_KEY = "bench-key",
  KOBIS_BASE_URL = vim.env.BENCH_UPSTREAM .. "/kobis", KAKAO_BASE_URL = vim.env.BENCH_UPSTREAM .. "/kakao",
  BOXOFFICE_TODAY = "2026-11-21" } })

local now = vim.loop.hrtime

-- When a screen that is not a loading line was last drawn.
local drawn_at
local draw = view.draw
view.draw = function(buffer, screen)
  draw(buffer, screen)
  if #screen.lines > 1 then
    drawn_at = now()
  end
end

local function wait(predicate)
  assert(vim.wait(10000, predicate, 1), "timed out")
end

local function round_trip(method, params)
  local started, answered = now(), nil
  worker.request(method, params, function(err)
    assert(not err, err and err.message)
    answered = now()
  end)
  wait(function() return answered ~= nil end)
  return (answered - started) / 1e6
end

local function command()
  drawn_at = nil
  local started = now()
  vim.cmd("BoxOffice " .. DATE)
  wait(function() return drawn_at ~= nil end)
  local took = (drawn_at - started) / 1e6
  vim.cmd("bwipeout")
  return took
end

local function median(values)
  table.sort(values)
  return values[math.floor(#values / 2) + 1]
end

local function measure(what)
  local values = {}
  for _ = 1, ROUNDS do
    table.insert(values, what())
  end
  return median(values)
end

-- Fill the disk cache once from the fake upstream, then measure with the worker warm.
command()
local figures = {}
figures.ping = measure(function() return round_trip("ping", {}) end)
figures.daily_call = measure(function() return round_trip("boxoffice.daily", { date = DATE }) end)
figures.warm = measure(command)
figures.first = measure(function()
  worker.stop()
  return command()
end)
figures.start = measure(function()
  worker.stop()
  return round_trip("ping", {})
end)
worker.stop()

local function line(label, value, note)
  io.stdout:write(("  %-48s %7.2f   %s\n"):format(label, value, note))
end
local version = vim.version()
io.stdout:write(("neovim %d.%d.%d, %d rounds each, medians (ms)\n"):format(version.major, version.minor,
  version.patch, ROUNDS))
line("ping round trip through the plugin", figures.ping, "(baseline)")
line("boxoffice.daily round trip, no drawing", figures.daily_call, "(baseline)")
line(":BoxOffice " .. DATE .. ", worker running, cached", figures.warm,
  ("target <= 30   (%.2fx the bare call)"):format(figures.warm / figures.daily_call))
line("worker start alone (spawn to ping answer)", figures.start, "(baseline)")
line(":BoxOffice " .. DATE .. ", first use (new worker)", figures.first,
  ("target <= 60   (start + %.2f)"):format(figures.first - figures.start))
vim.cmd("qall!")
