-- luacheck for the Neovim plugin, its tests and its benchmark (scripts/test lints with it).
std = "luajit"
globals = { "vim" }
max_line_length = 120
