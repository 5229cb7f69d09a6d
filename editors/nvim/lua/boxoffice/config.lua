-- The options `setup` takes, with their defaults. Every option is optional.
local M = {}

M.defaults = {
  -- The worker binary: nil finds it ($BOXOFFICE_WORKER, PATH, then where the packages install it).
  binary = nil,
  -- The worker's cache directory (--cache-dir); nil keeps the worker's own default.
  cache_dir = nil,
  -- true starts the worker with --offline: the recorded days only, even with KOBIS_API_KEY set.
  offline = false,
  -- More worker flags, e.g. { "--database-url", "postgres://…" } or { "--kobis-daily-limit", "500" }.
  args = nil,
  -- Extra environment for the worker, e.g. { BOXOFFICE_TODAY = "2023-04-27" }; the editor's own is inherited.
  env = nil,
  -- The most display cells a title takes in a list before it is cut with "…".
  title_width = 40,
}

M.options = vim.deepcopy(M.defaults)

function M.set(options)
  M.options = vim.tbl_deep_extend("force", vim.deepcopy(M.defaults), options or {})
end

return M
