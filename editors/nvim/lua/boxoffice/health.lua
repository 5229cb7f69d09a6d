-- :checkhealth boxoffice: the binary, its version, offline or live, the cache directory and the KOBIS quota left.
-- The only place the plugin waits for the worker (up to five seconds): a health check is a question the user
-- asked and waits for.
local binary = require("boxoffice.binary")
local config = require("boxoffice.config")
local worker = require("boxoffice.worker")

local M = {}

-- Neovim 0.7 has the report_* functions in the `health` module; 0.8 and later have vim.health.start/ok/….
local health = vim.health or require("health")
local report = {
  start = health.start or health.report_start,
  ok = health.ok or health.report_ok,
  warn = health.warn or health.report_warn,
  error = health.error or health.report_error,
  info = health.info or health.report_info,
}

function M.check()
  report.start("boxoffice-worker")
  local path, missing = binary.find(config.options.binary)
  if not path then
    report.error(missing)
    return
  end
  report.ok("binary: " .. path)
  local version = vim.fn.system({ path, "--version" })
  if vim.v.shell_error ~= 0 then
    report.error(("%s --version failed (exit %d): %s"):format(path, vim.v.shell_error, version))
    return
  end
  report.ok("version: " .. vim.trim(version))

  local answer, failure
  local started, id = pcall(worker.request, "worker.status", {}, function(err, result)
    failure, answer = err, result
  end)
  if not started then
    report.error("the worker did not start: " .. tostring(id))
    return
  end
  if not vim.wait(5000, function() return answer ~= nil or failure ~= nil end, 10) then
    worker.cancel(id)
  end
  if failure then
    report.error("worker.status failed: " .. (failure.message or "?"))
    return
  elseif not answer then
    report.error("the worker did not answer worker.status within 5 s; see :BoxOfficeLog")
    return
  end
  report.ok(("worker running: pid %d, %s"):format(answer.pid, answer.commit))
  if answer.mode == "live" then
    report.ok("live: KOBIS_API_KEY is set")
  else
    report.info("offline: answers come from the recorded days; set KOBIS_API_KEY in the editor's environment "
      .. "to go live")
  end
  local cache = answer.cache
  if cache.enabled and cache.path ~= vim.NIL then
    report.ok("cache directory: " .. cache.path)
  else
    report.info("cache: off (offline, or --no-cache)")
  end
  local quota = answer.quota
  if quota == vim.NIL or quota == nil then
    report.info("KOBIS quota: none counted (offline)")
  elseif quota.remaining > 0 then
    report.ok(("KOBIS quota: %d of %d calls left today (%s)"):format(quota.remaining, quota.limit, quota.day))
  else
    report.warn(("KOBIS quota: exhausted for %s; it resets at %s"):format(quota.day, quota.resetsAt))
  end
end

return M
