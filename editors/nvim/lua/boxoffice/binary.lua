-- Where the worker binary is: the `binary` option, $BOXOFFICE_WORKER, PATH, then the places the packages install to
-- (pip --user and `uv tool install` put it in ~/.local/bin, scripts/install in /usr/local/bin, the .deb in /usr/bin).
local M = {}

M.HOW_TO_INSTALL = table.concat({
  "install the worker with one of:",
  "  pip install boxoffice_worker-VERSION-py3-none-manylinux_2_35_x86_64.whl   (or: uv tool install …)",
  "  sudo apt install ./boxoffice-worker_VERSION_amd64.deb",
  "  bash scripts/install ~/.local   (from a clone, with Swift)",
  "or name it: require('boxoffice').setup({ binary = '/path/to/boxoffice-worker' })",
}, "\n")

local function executable(path)
  return path and path ~= "" and vim.fn.executable(vim.fn.expand(path)) == 1
end

--- The binary to start, or nil and a message saying what was tried and how to install it.
function M.find(chosen)
  if chosen then
    if executable(chosen) then
      return vim.fn.exepath(vim.fn.expand(chosen))
    end
    return nil, ("the worker binary %s is not an executable file; %s"):format(chosen, M.HOW_TO_INSTALL)
  end
  local candidates = {
    "boxoffice-worker",
    vim.fn.expand("~/.local/bin/boxoffice-worker"),
    "/usr/local/bin/boxoffice-worker",
    "/usr/bin/boxoffice-worker",
  }
  if vim.env.BOXOFFICE_WORKER and vim.env.BOXOFFICE_WORKER ~= "" then
    table.insert(candidates, 1, vim.env.BOXOFFICE_WORKER)
  end
  for _, candidate in ipairs(candidates) do
    if executable(candidate) then
      return vim.fn.exepath(vim.fn.expand(candidate))
    end
  end
  return nil, "boxoffice-worker was not found on PATH, in ~/.local/bin, /usr/local/bin or /usr/bin; "
    .. M.HOW_TO_INSTALL
end

return M
