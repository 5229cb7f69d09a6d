-- The commands and highlight groups of boxoffice.nvim. Nothing starts until a command is used: the worker is
-- spawned on first use (lua/boxoffice/worker.lua).
if vim.g.loaded_boxoffice then
  return
end
vim.g.loaded_boxoffice = true

-- The rank change as the CLI colours it: new pink, up red and down blue (the apps' Korean convention), no change dim.
-- Declared `default`, so a colour scheme that sets these groups wins; set again after every :colorscheme.
local function highlights()
  vim.cmd([[
    highlight default BoxOfficeUp ctermfg=1 guifg=#e03131
    highlight default BoxOfficeDown ctermfg=4 guifg=#1c7ed6
    highlight default BoxOfficeNew ctermfg=13 guifg=#e64980
    highlight default link BoxOfficeSame Comment
    highlight default link BoxOfficeHeading Title
    highlight default link BoxOfficeColumns Comment
    highlight default link BoxOfficeLabel Identifier
  ]])
end
highlights()
vim.api.nvim_create_autocmd("ColorScheme", { callback = highlights })

local function boxoffice()
  return require("boxoffice")
end

local command = vim.api.nvim_create_user_command
command("BoxOffice", function(opts) boxoffice().daily(opts.args, opts.bang) end,
  { nargs = "?", bang = true, desc = "A day's box office (yesterday by default); ! adds details and posters" })
command("BoxOfficeWeekly", function(opts) boxoffice().weekly(opts.fargs, opts.bang) end,
  { nargs = "*", bang = true, desc = "A week's box office: [DATE] [week|weekend|weekdays]" })
command("BoxOfficeMovie", function(opts) boxoffice().movie(opts.args) end,
  { nargs = 1, desc = "A movie's detail by KOBIS movie code" })
command("BoxOfficeSearch", function(opts) boxoffice().search(opts.args) end,
  { nargs = "+", desc = "Movies by title" })
command("BoxOfficeStatus", function() boxoffice().status() end, { nargs = 0, desc = "The worker's status" })
command("BoxOfficeLog", function() boxoffice().log() end, { nargs = 0, desc = "The worker's log (its stderr)" })

vim.api.nvim_create_autocmd("VimLeavePre", {
  callback = function()
    if package.loaded["boxoffice.worker"] then
      require("boxoffice.worker").stop(1000, true)
    end
  end,
})
