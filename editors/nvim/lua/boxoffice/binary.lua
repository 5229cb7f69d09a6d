-- Where the worker binary is: the `binary` option, $BOXOFFICE_WORKER, PATH, then the places the packages install to
-- (pip --user and `uv tool install` put it in ~/.local/bin, scripts/install in /usr/local/bin, the .deb in /usr/bin).
local M = {}

-- What a user reads when there is no worker (docs/editors.md says it word for word, for both editors).
M.NOT_FOUND = table.concat({
  "boxoffice-worker was not found ($BOXOFFICE_WORKER, PATH, ~/.local/bin, /usr/local/bin, /usr/bin); "
    .. "install it with one of:",
  "  pip install ./boxoffice_worker-0.2.0-py3-none-manylinux_2_35_x86_64.whl",
  "  sudo apt install ./boxoffice-worker_0.2.0_amd64.deb",
  "  bash scripts/install ~/.local   (in a clone of boxoffice-worker, with Swift)",
}, "\n")

local function executable(path)
  return path and path ~= "" and vim.fn.executable(vim.fn.expand(path)) == 1
end

--- The binary to start, or nil and a message saying what was tried and how to install it. A binary named (by the
--- option or $BOXOFFICE_WORKER) is that one or an error: never skipped for another one found elsewhere.
function M.find(chosen)
  local named, where = chosen, "the binary option"
  if not named and vim.env.BOXOFFICE_WORKER and vim.env.BOXOFFICE_WORKER ~= "" then
    named, where = vim.env.BOXOFFICE_WORKER, "$BOXOFFICE_WORKER"
  end
  if named then
    if executable(named) then
      return vim.fn.exepath(vim.fn.expand(named))
    end
    return nil, ("%s (named by %s) is not an executable file"):format(named, where)
  end
  for _, candidate in ipairs({ "boxoffice-worker", "~/.local/bin/boxoffice-worker",
    "/usr/local/bin/boxoffice-worker", "/usr/bin/boxoffice-worker" }) do
    if executable(candidate) then
      return vim.fn.exepath(vim.fn.expand(candidate))
    end
  end
  return nil, M.NOT_FOUND
end

return M
