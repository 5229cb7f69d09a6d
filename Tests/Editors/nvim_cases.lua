-- The Neovim plugin's cases, each run in a headless Neovim of its own by test_nvim.py:
--   nvim --headless -u NONE --cmd 'set rtp^=editors/nvim' --cmd 'runtime plugin/boxoffice.lua' -c 'luafile THIS'
-- with BOXOFFICE_TEST_CASE naming the case (or `--list`), BOXOFFICE_WORKER the built worker, BOXOFFICE_TEST_UPSTREAM
-- the fake upstream's base URL and BOXOFFICE_TEST_CACHE a cache directory of the test's. A case raises on failure;
-- the runner at the bottom writes the error to stderr and exits 1. Every wait is for a state, with a deadline.
local boxoffice = require("boxoffice")
local worker = require("boxoffice.worker")

local UPSTREAM = vim.env.BOXOFFICE_TEST_UPSTREAM
local BINARY = vim.env.BOXOFFICE_WORKER

local cases = {}

-- What vim.notify was given: { {message, level}, ... }.
local notices = {}
vim.notify = function(message, level)
  table.insert(notices, { message = message, level = level or vim.log.levels.INFO })
end

local function offline()
  boxoffice.setup({ binary = BINARY, env = { KOBIS_API_KEY = "", KAKAO_REST_API_KEY = "",
    BOXOFFICE_TODAY = "2026-11-21" } })
end

local function live(args)
  boxoffice.setup({ binary = BINARY, args = args, cache_dir = vim.env.BOXOFFICE_TEST_CACHE, env = {
    KOBIS_API_KEY = "test-kobis-key", KAKAO_REST_API_KEY = "test-kakao-key",
    KOBIS_BASE_URL = UPSTREAM .. "/kobis", KAKAO_BASE_URL = UPSTREAM .. "/kakao",
    BOXOFFICE_TODAY = "2026-11-21", BOXOFFICE_ALLOW_PRIVATE_DOWNLOADS = "1" } })
end

local function wait_for(what, predicate)
  if not vim.wait(10000, predicate, 5) then
    error("timed out waiting for " .. what, 2)
  end
end

local function lines(buffer)
  return vim.api.nvim_buf_get_lines(buffer, 0, -1, false)
end

local function text(buffer)
  return table.concat(lines(buffer), "\n")
end

local function drawn(buffer)
  return function()
    local first = lines(buffer)[1] or ""
    return not first:find("^Loading") and not first:find("^Searching") and not first:find("^Asking")
  end
end

local function expect(condition, message)
  if not condition then
    error(message, 2)
  end
end

local function equal(actual, expected, what)
  if not vim.deep_equal(actual, expected) then
    error(("%s: expected %s, got %s"):format(what, vim.inspect(expected), vim.inspect(actual)), 2)
  end
end

-- The fake upstream's control and counts (a GET from a Python one-liner: a test may wait, the plugin never does).
local function upstream(path)
  local body = vim.fn.system({ "python3", "-c",
    "import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1]).read().decode())",
    UPSTREAM .. path })
  assert(vim.v.shell_error == 0, "the fake upstream did not answer " .. path .. ": " .. body)
  return vim.json.decode(body)
end

-- How many daily box office calls for `date` (YYYY-MM-DD) the fake upstream has answered or holds.
local function daily_calls(date)
  local wanted, total = "targetDt=" .. date:gsub("-", ""), 0
  for key, count in pairs(upstream("/__requests").calls) do
    if key:find("searchDailyBoxOfficeList", 1, true) and key:find(wanted, 1, true) then
      total = total + count
    end
  end
  return total
end

local function errors_notified()
  local found = {}
  for _, notice in ipairs(notices) do
    if notice.level == vim.log.levels.ERROR then
      table.insert(found, notice.message)
    end
  end
  return found
end

local function status()
  local answer
  worker.request("worker.status", {}, function(err, result)
    assert(not err, err and err.message)
    answer = result
  end)
  wait_for("worker.status", function() return answer ~= nil end)
  return answer
end

local function press(keys)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), "x", false)
end

local function day_after(date, days)
  local year, month, day = date:match("^(%d+)-(%d+)-(%d+)$")
  return os.date("%Y-%m-%d", os.time({ year = year, month = month, day = day + days, hour = 12 }))
end

local RECORDED_2023_04_26 = {
  { "신작", "드림" }, { "▲12", "슈퍼 마리오 브라더스" }, { "▼2", "존 윅 4" }, { "▼2", "스즈메의 문단속" },
  { "▲1", "더 퍼스트 슬램덩크" }, { "▼3", "리바운드" }, { "▼3", "옥수역귀신" }, { "신작", "무명" },
  { "▼4", "킬링 로맨스" }, { "신작", "2001 스페이스 오디세이" },
}

cases.daily_fills_the_ten_rows_with_their_signs = function()
  offline()
  vim.cmd("BoxOffice 2023-04-26")
  local buffer = vim.api.nvim_get_current_buf()
  equal(vim.api.nvim_buf_get_name(buffer), "boxoffice://daily/2023-04-26", "buffer name")
  wait_for("the list", drawn(buffer))
  local shown = lines(buffer)
  expect(shown[1]:find("^일별 박스오피스 · 2023%-04%-26 %(Wed%) · fixture"), "heading: " .. shown[1])
  local rows = {}
  for index = 4, #shown do
    local rank, change, rest = shown[index]:match("^%s*(%d+)  (%S+)%s+(.-)%s%s+%d")
    table.insert(rows, { change, rest })
    equal(tonumber(rank), index - 3, "rank of line " .. index)
  end
  equal(rows, RECORDED_2023_04_26, "rows")
  equal(vim.bo[buffer].filetype, "boxoffice", "filetype")
  equal(vim.bo[buffer].modifiable, false, "modifiable")
  -- The change column's highlight: line 5 (row 2, ▲12) is BoxOfficeUp, line 6 (▼2) BoxOfficeDown, line 4 (신작)
  -- BoxOfficeNew, each over the sign's bytes.
  local namespace = vim.api.nvim_create_namespace("boxoffice")
  local groups = {}
  for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(buffer, namespace, 0, -1, { details = true })) do
    groups[mark[2] + 1] = groups[mark[2] + 1] or mark[4].hl_group
    if mark[2] + 1 >= 4 then
      groups[mark[2] + 1] = mark[4].hl_group
      equal(shown[mark[2] + 1]:sub(mark[3] + 1, mark[4].end_col), rows[mark[2] - 2][1], "highlighted sign")
    end
  end
  equal({ groups[4], groups[5], groups[6] }, { "BoxOfficeNew", "BoxOfficeUp", "BoxOfficeDown" }, "sign groups")
  equal(#errors_notified(), 0, "errors")
end

cases.columns_line_up_in_display_cells = function()
  offline()
  vim.cmd("BoxOfficeWeekly 2012-01-01 weekend")
  local buffer = vim.api.nvim_get_current_buf()
  wait_for("the weekend list", drawn(buffer))
  local shown = lines(buffer)
  local header = shown[3]
  local audience_end = vim.fn.strdisplaywidth(header:sub(1, select(2, header:find("Audience"))))
  local byte_lengths = {}
  for index = 4, #shown do
    local line = shown[index]
    -- Where the audience figure ends, in display cells: the same on every row as in the header.
    local _, figure_end = line:find("[%d,]+", (select(2, line:find("^%s*%d+  %S+%s+"))) + 1)
    local after_title = select(2, line:find("%S%s%s+[%d,]+%s%s+[%d,]+%s%s+[%d.]+%%$"))
    expect(after_title, "row shape: " .. line)
    local _, audience = line:find("^.-%S%s%s+[%d,]+")
    equal(vim.fn.strdisplaywidth(line:sub(1, audience)), audience_end, "audience column of " .. line)
    equal(vim.fn.strdisplaywidth(line), vim.fn.strdisplaywidth(header), "width of " .. line)
    byte_lengths[#line] = true
    expect(figure_end, "figure in " .. line)
  end
  -- Hangul takes three bytes and two cells: equal widths with unequal byte lengths show the cells were counted.
  expect(vim.tbl_count(byte_lengths) > 1, "every row has the same byte length: the titles did not test widths")
  -- A title longer than 40 cells is cut with … at exactly the column's width.
  expect(text(buffer):find("극장판 포켓몬스터 베스트 위시「비크티니…", 1, true), "the long title is cut with …")
end

-- 드림's title as the worker would send it were KOBIS to hold a newline, a carriage return, a tab and an escape in
-- it, a C1 control (U+009B, a terminal's CSI), a bidi override (U+202E) and a bidi isolate (U+2066) (a JSON line's
-- escapes), and as the screens show it: each control character as its picture, each of the others as "�".
local TITLE_WITH_CONTROLS = [["title":"드림\n(재개봉)\r\t\u001b끝\u009b[2J\u202e역순\u2066"]]
local TITLE_SHOWN = "드림␊(재개봉)␍␉␛끝�[2J�역순�"

cases.a_title_with_a_newline_is_drawn_on_its_row = function()
  offline()
  -- Every answer the plugin decodes with 드림's title holding control characters (the worker's line rewritten on its
  -- way in): once, nvim_buf_set_lines refused the newline and the buffer stayed at "Loading…".
  local decode = vim.json.decode
  vim.json.decode = function(answer, ...)
    return decode((answer:gsub('"title":"드림"', TITLE_WITH_CONTROLS)), ...)
  end
  local list = boxoffice.daily("2023-04-26")
  wait_for("the list", drawn(list))
  local shown = lines(list)
  equal(#shown, 13, "lines: the heading, a blank, the columns and ten rows")
  expect(shown[4]:find("^%s*1  신작%s+" .. vim.pesc(TITLE_SHOWN) .. "%s%s+93,416 "), "row 1: " .. shown[4])
  -- The pictures and the "�" take a cell each: the row is as wide as the columns' header.
  equal(vim.fn.strdisplaywidth(TITLE_SHOWN), 28, "the title's cells")
  for index = 4, #shown do
    equal(vim.fn.strdisplaywidth(shown[index]), vim.fn.strdisplaywidth(shown[3]), "width of " .. shown[index])
  end
  -- The detail: the title is its first line, the English one its second.
  vim.api.nvim_win_set_cursor(0, { 4, 0 })
  press("<CR>")
  local detail = vim.api.nvim_get_current_buf()
  wait_for("the detail", function() return drawn(detail)() and not text(detail):find("asking for the poster") end)
  equal({ lines(detail)[1], lines(detail)[2] }, { TITLE_SHOWN, "Dream" }, "the detail's titles")
  vim.json.decode = decode
  equal(#errors_notified(), 0, "errors")
  -- Whatever else a screen holds (the worker's log lines are drawn as they came) is drawn on one line too.
  require("boxoffice.view").draw(list, { lines = { "a\nb\rc" }, highlights = {}, rows = {} })
  equal(lines(list), { "a␊b␍c" }, "a line with a newline, drawn")
end

cases.c1_and_bidi_controls_are_drawn_as_replacement_characters = function()
  local one_line = require("boxoffice.render").one_line
  -- Each stand-in is one character of one cell, at the place of the one it stands for: the C1 controls (C2 80 to
  -- C2 9F), U+2028 to U+202E and U+2066 to U+2069, each by the bytes of its own UTF-8.
  for _, code in ipairs({ 0x80, 0x85, 0x9B, 0x9F, 0x2028, 0x2029, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066,
    0x2067, 0x2068, 0x2069 }) do
    local shown = one_line("a" .. vim.fn.nr2char(code) .. "b")
    equal(shown, "a�b", ("U+%04X"):format(code))
    equal(vim.fn.strdisplaywidth(shown), 3, ("the width with U+%04X"):format(code))
  end
  -- Their neighbours are characters as any other, and so is text holding none of them: Hangul, a picture, "�".
  for _, code in ipairs({ 0x7E, 0xA0, 0xE9, 0x2027, 0x202F, 0x2065, 0x206A, 0x2400, 0xFFFD, 0xB4DC, 0x1F3AC }) do
    local char = vim.fn.nr2char(code)
    equal(one_line("a" .. char .. "b"), "a" .. char .. "b", ("U+%04X"):format(code))
  end
  equal(one_line("드림 \226\128\174역순"), "드림 �역순", "an override after Hangul")
  -- Overlong forms, which Neovim reads as the character they spell (C0 8A a newline, E0 82 9B U+009B), and bytes
  -- that start no character: one "�" each, with their continuation bytes.
  equal(one_line("a\192\138b\224\130\155c\240\130\128\174d\255e\248\128\128\128\138f"), "a�b�c�d�e�f",
    "overlong forms")
  -- An error the worker says: the notification and the buffer show the stand-ins, the notification its lines.
  offline()
  local decode = vim.json.decode
  vim.json.decode = function(answer, ...)
    return decode((answer:gsub('"message":"', '"message":"\\u202e\\u009b')), ...)
  end
  vim.cmd("BoxOfficeMovie 99999999")
  local buffer = vim.api.nvim_get_current_buf()
  wait_for("the error", function() return #errors_notified() > 0 end)
  vim.json.decode = decode
  local message = errors_notified()[1]
  expect(message:find("^boxoffice: ��offline mode: no recorded response covers this movie"), message)
  expect(text(buffer):find("\n��offline mode: no recorded response", 1, true), text(buffer))
  expect(not (message .. text(buffer)):find("\226\128\174", 1, true), "U+202E in " .. message)
end

cases.enter_on_row_one_opens_the_detail = function()
  offline()
  local list = boxoffice.daily("2023-04-26")
  wait_for("the list", drawn(list))
  vim.api.nvim_win_set_cursor(0, { 4, 0 })
  press("<CR>")
  local detail = vim.api.nvim_get_current_buf()
  equal(vim.api.nvim_buf_get_name(detail), "boxoffice://movie/20198482", "detail buffer")
  wait_for("the detail and its poster", function() return not text(detail):find("asking for the poster")
    and drawn(detail)() end)
  local shown = text(detail)
  expect(shown:find("^드림\nDream\n"), "titles: " .. shown)
  expect(shown:find("Director   이병헌", 1, true), "director: " .. shown)
  expect(shown:find("Runtime    125 min", 1, true), "runtime")
  expect(shown:find("Actors     박서준 (윤홍대)", 1, true), "actors")
  expect(shown:find("\nPoster     ", 1, true), "poster line")
  equal(#errors_notified(), 0, "errors")
  -- q closes the detail and comes back to the list.
  press("q")
  equal(vim.api.nvim_get_current_buf(), list, "back on the list")
  expect(not vim.api.nvim_buf_is_valid(detail), "the detail buffer is gone")
end

cases.a_future_date_gives_the_methods_error = function()
  offline()
  vim.cmd("BoxOffice 2099-01-01")
  local buffer = vim.api.nvim_get_current_buf()
  wait_for("the error", function() return #errors_notified() > 0 end)
  local message = errors_notified()[1]
  expect(message:find('"2099-01-01" is after the latest allowed date 2026-11-20', 1, true), message)
  expect(text(buffer):find("after the latest allowed date", 1, true), "the buffer says it too")
end

cases.an_unknown_movie_and_a_bad_date_say_what_is_wrong = function()
  offline()
  vim.cmd("BoxOfficeMovie 99999999")
  wait_for("the error", function() return #errors_notified() > 0 end)
  expect(errors_notified()[1]:find("no recorded response covers this movie", 1, true), errors_notified()[1])
  vim.cmd("BoxOffice 26/04/2023")
  equal(errors_notified()[2], 'boxoffice: "26/04/2023" is not a date: use YYYY-MM-DD, YYYYMMDD, yesterday or today-N',
    "a date the plugin cannot read")
end

cases.a_missing_binary_says_how_to_install = function()
  -- Named and missing: said by its name and where it was named, never replaced by another one.
  boxoffice.setup({ binary = "/nonexistent/boxoffice-worker" })
  vim.cmd("BoxOffice")
  equal(errors_notified()[1], "boxoffice: /nonexistent/boxoffice-worker (named by the binary option) is not an "
    .. "executable file", "the named binary")
  expect(text(0):find("named by the binary option", 1, true), "the buffer says it too")
  boxoffice.setup({})
  vim.env.BOXOFFICE_WORKER = "/nonexistent/worker"
  vim.cmd("BoxOffice")
  equal(errors_notified()[2], "boxoffice: /nonexistent/worker (named by $BOXOFFICE_WORKER) is not an executable file",
    "the variable")
  -- Not named and nowhere: what was looked at and the install lines, with the version of the VERSION file.
  vim.env.BOXOFFICE_WORKER = nil
  vim.env.PATH = "/nonexistent"
  local binary = require("boxoffice.binary")
  if binary.find() == nil then
    vim.cmd("BoxOffice")
    local message = errors_notified()[3]
    expect(message:find("boxoffice-worker was not found ($BOXOFFICE_WORKER, PATH, ~/.local/bin, /usr/local/bin, "
      .. "/usr/bin); install it with one of:", 1, true), message)
  end
  local version = vim.trim(vim.fn.readfile(vim.fn.getcwd() .. "/VERSION")[1])
  expect(binary.NOT_FOUND:find("boxoffice_worker-" .. version .. "-py3", 1, true)
    and binary.NOT_FOUND:find("boxoffice-worker_" .. version .. "_amd64.deb", 1, true),
    "the install lines name version " .. version .. ": " .. binary.NOT_FOUND)
end

cases.the_binary_is_found_without_being_named = function()
  local binary = require("boxoffice.binary")
  equal(binary.find(), BINARY, "$BOXOFFICE_WORKER")
  -- Without $BOXOFFICE_WORKER: on PATH, then in ~/.local/bin (HOME is the case's own).
  vim.env.BOXOFFICE_WORKER = nil
  local bin = vim.env.HOME .. "/bin"
  vim.fn.mkdir(bin, "p")
  vim.loop.fs_symlink(BINARY, bin .. "/boxoffice-worker")
  local path = vim.env.PATH
  vim.env.PATH = bin .. ":" .. path
  equal(binary.find(), bin .. "/boxoffice-worker", "on PATH")
  vim.env.PATH = "/nonexistent"
  local found = binary.find()
  expect(found == nil or found == "/usr/local/bin/boxoffice-worker" or found == "/usr/bin/boxoffice-worker",
    "found " .. tostring(found))
  vim.fn.mkdir(vim.env.HOME .. "/.local/bin", "p")
  vim.loop.fs_symlink(BINARY, vim.env.HOME .. "/.local/bin/boxoffice-worker")
  equal(binary.find(), vim.env.HOME .. "/.local/bin/boxoffice-worker", "in ~/.local/bin")
  vim.env.PATH = path
end

cases.date_forms_of_the_cli = function()
  offline()
  local buffer = boxoffice.daily("20230426")
  equal(vim.api.nvim_buf_get_name(buffer), "boxoffice://daily/2023-04-26", "YYYYMMDD")
  wait_for("the list", drawn(buffer))
  vim.env.BOXOFFICE_TODAY = "2023-04-27"
  equal(vim.api.nvim_buf_get_name(boxoffice.daily("today-1")), "boxoffice://daily/2023-04-26", "today-N")
  -- yesterday is the worker's default: offline, the latest recorded day.
  local default = boxoffice.daily()
  equal(vim.api.nvim_buf_get_name(default), "boxoffice://daily/yesterday", "the default")
  wait_for("the default day", drawn(default))
  expect(lines(default)[1]:find("2023-04-26", 1, true), lines(default)[1])
end

cases.weekly_search_and_status_screens = function()
  offline()
  local weekly = boxoffice.weekly({ "weekend", "2012-01-01" })
  local search = boxoffice.search("범죄와의 전쟁")
  local state = boxoffice.status()
  wait_for("three screens", function() return drawn(weekly)() and drawn(search)() and drawn(state)() end)
  expect(lines(weekly)[1]:find("^주말 박스오피스 · 2011%-12%-30 – 2012%-01%-01"), lines(weekly)[1])
  expect(text(search):find("20113557  범죄와의 전쟁: 나쁜놈들 전성시대", 1, true), text(search))
  expect(text(state):find(" · offline\n", 1, true), text(state))
  -- <CR> on a search row opens that movie.
  vim.api.nvim_set_current_buf(search)
  for index, line in ipairs(lines(search)) do
    if line:find("^20113557") then
      vim.api.nvim_win_set_cursor(0, { index, 0 })
    end
  end
  press("<CR>")
  equal(vim.api.nvim_buf_get_name(0), "boxoffice://movie/20113557", "the movie of the row")
end

cases.progress_of_details_shows_in_the_command_line = function()
  offline()
  local echoed = {}
  local echo = vim.api.nvim_echo
  vim.api.nvim_echo = function(chunks, history, options)
    table.insert(echoed, chunks[1][1])
    return echo(chunks, history, options)
  end
  vim.cmd("BoxOffice! 2023-04-26")
  local buffer = vim.api.nvim_get_current_buf()
  wait_for("the list with details", drawn(buffer))
  vim.api.nvim_echo = echo
  equal(#echoed, 21, "one progress line per detail and poster, then the line cleared")
  equal(echoed[20], "boxoffice: 20/20", "the last progress")
  equal(echoed[21], "", "cleared when the answer came")
end

cases.reopened_and_reloaded_buffers_keep_working = function()
  offline()
  local first = boxoffice.daily("2023-04-26")
  wait_for("the list", drawn(first))
  -- :bd, then the same command: a working screen again (its keys, its filetype), not the emptied husk.
  vim.cmd("bdelete " .. first)
  local again = boxoffice.daily("2023-04-26")
  wait_for("the list again", drawn(again))
  equal(vim.bo[again].filetype, "boxoffice", "filetype")
  equal(vim.bo[again].buflisted, true, "listed")
  vim.api.nvim_win_set_cursor(0, { 4, 0 })
  press("<CR>")
  equal(vim.api.nvim_buf_get_name(0), "boxoffice://movie/20198482", "<CR> works in the reopened buffer")
  -- :e empties a buffer; gr fills it again.
  vim.cmd("buffer " .. again)
  vim.cmd("edit")
  press("gr")
  wait_for("the list after :e and gr", function() return #lines(again) == 13 end)
  -- <CR> on the heading says there is no movie there.
  local echoed
  local echo = vim.api.nvim_echo
  vim.api.nvim_echo = function(chunks) echoed = chunks[1][1] end
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  press("<CR>")
  vim.api.nvim_echo = echo
  equal(echoed, "boxoffice: no movie on this line", "<CR> on the heading")
  equal(vim.api.nvim_get_current_buf(), again, "still on the list")
  equal(#errors_notified(), 0, "errors")
end

cases.a_search_asks_again_with_gr = function()
  offline()
  local buffer = boxoffice.search("범죄와의 전쟁")
  wait_for("the search", drawn(buffer))
  local before = text(buffer)
  press("gr")
  wait_for("the search asked again", function() return status().requests.succeeded >= 2 end)
  wait_for("the search drawn again", drawn(buffer))
  equal(text(buffer), before, "the same results")
  equal(#errors_notified(), 0, "errors")
end

cases.setup_while_a_call_waits_says_so_in_its_buffer = function()
  live()
  upstream("/__hold?after=0")
  vim.cmd("BoxOffice 2022-06-04")
  local buffer = vim.api.nvim_get_current_buf()
  wait_for("the request upstream", function() return daily_calls("2022-06-04") == 1 end)
  live()
  upstream("/__release")
  expect(text(buffer):find("the worker was stopped before it answered", 1, true), text(buffer))
  equal(errors_notified()[1], "boxoffice: the worker was stopped before it answered", "the notification")
end

cases.the_detail_fits_a_narrow_window_and_labels_every_field = function()
  offline()
  vim.cmd("40vsplit")
  -- 20231106 has no English title: the labels start a line earlier.
  local buffer = boxoffice.movie("20231106")
  wait_for("the detail", function() return drawn(buffer)() and not text(buffer):find("asking for the poster") end)
  for _, line in ipairs(lines(buffer)) do
    -- The poster's address stays whole, to be copied.
    expect(vim.fn.strdisplaywidth(line) <= 39 or line:find("^Poster     https?://"), "wider than the window: " .. line)
  end
  local namespace = vim.api.nvim_create_namespace("boxoffice")
  local labelled = {}
  for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(buffer, namespace, 0, -1, { details = true })) do
    if mark[4].hl_group == "BoxOfficeLabel" then
      labelled[lines(buffer)[mark[2] + 1]:sub(mark[3] + 1, mark[4].end_col)] = true
    end
  end
  for _, label in ipairs({ "Director", "Year", "Genres", "Code", "Source" }) do
    expect(labelled[label] or not text(buffer):find("\n" .. label .. " "), "no highlight on " .. label)
  end
  expect(labelled.Director, "Director is labelled: " .. vim.inspect(labelled))
  -- A long error wraps to the window too.
  vim.cmd("BoxOffice 2099-01-01")
  wait_for("the error", function() return #errors_notified() > 0 end)
  for _, line in ipairs(lines(0)) do
    expect(vim.fn.strdisplaywidth(line) <= 40, "an error line wider than the window: " .. line)
  end
end

cases.with_nohidden_and_a_modified_buffer_the_screen_opens_in_a_split = function()
  offline()
  vim.o.hidden = false
  vim.api.nvim_buf_set_lines(0, 0, -1, false, { "unsaved" })
  local windows = #vim.api.nvim_list_wins()
  local buffer = boxoffice.daily("2023-04-26")
  wait_for("the list", drawn(buffer))
  equal(#vim.api.nvim_list_wins(), windows + 1, "a split")
  equal(vim.api.nvim_get_current_buf(), buffer, "the screen is current")
end

cases.the_status_and_the_log_screens = function()
  offline()
  local buffer = boxoffice.status()
  wait_for("the status", drawn(buffer))
  local shown = lines(buffer)
  expect(shown[1]:find("^boxoffice%-worker %d+%.%d+%.%d+ %(%x+%) · offline$"), shown[1])
  expect(shown[2]:find("^process        pid %d+, up %d+%.%d s$"), shown[2])
  equal(shown[3], "KOBIS quota    none offline (set KOBIS_API_KEY to go live)", "quota")
  equal(shown[4], "cache          none", "cache")
  expect(shown[5]:find("^requests       %d+ answered, 0 failed, 0 cancelled, %d+ in flight$"), shown[5])
  equal(shown[6], "binary         " .. BINARY, "binary")
  local log = boxoffice.log()
  equal(vim.api.nvim_buf_get_name(log), "boxoffice://log", "the log buffer")
  expect(text(log):find("offline", 1, true), "the worker's first log line says it is offline: " .. text(log))
  press("q")
  expect(not vim.api.nvim_buf_is_valid(log), "q closes the log")
end

cases.fifty_commands_at_once_fill_the_right_buffers = function()
  live()
  local buffers = {}
  for index = 0, 49 do
    local date = day_after("2023-01-01", index)
    vim.cmd("BoxOffice " .. date)
    buffers[date] = vim.api.nvim_get_current_buf()
  end
  equal(worker.in_flight() > 1, true, "the calls overlap")
  wait_for("fifty lists", function()
    for _, buffer in pairs(buffers) do
      if not drawn(buffer)() then
        return false
      end
    end
    return true
  end)
  for date, buffer in pairs(buffers) do
    local shown = lines(buffer)
    expect(shown[1]:find("· " .. date .. " (", 1, true), date .. " drew " .. shown[1])
    equal(#shown, 13, "lines of " .. date)
  end
  equal(#errors_notified(), 0, "errors")
end

cases.closing_a_buffer_cancels_its_call = function()
  live()
  upstream("/__hold?after=0")
  vim.cmd("BoxOffice 2022-06-01")
  local buffer = vim.api.nvim_get_current_buf()
  wait_for("the fake upstream to see the request", function()
    return daily_calls("2022-06-01") == 1
  end)
  vim.cmd("bwipeout " .. buffer)
  equal(worker.in_flight(), 0, "nothing waits after the close")
  upstream("/__release")
  -- The worker received $/cancelRequest: it counts the call as cancelled.
  wait_for("the worker to count the cancellation", function() return status().requests.cancelled == 1 end)
  equal(#errors_notified(), 0, "a cancelled call is not an error")
end

cases.refresh_asks_again_bypassing_the_cache = function()
  live()
  vim.cmd("BoxOffice 2022-07-01")
  local buffer = vim.api.nvim_get_current_buf()
  wait_for("the list", drawn(buffer))
  equal(daily_calls("2022-07-01"), 1, "first call")
  vim.cmd("BoxOffice 2022-07-01")
  wait_for("the list again", drawn(buffer))
  equal(daily_calls("2022-07-01"), 1, "served from the cache")
  expect(lines(buffer)[1]:find("cache, fetched", 1, true), lines(buffer)[1])
  -- gr keeps the list on screen while it asks (as pull to refresh does) and redraws it from KOBIS.
  press("gr")
  wait_for("the refreshed list", function() return lines(buffer)[1]:find("kobis, fetched", 1, true) ~= nil end)
  equal(daily_calls("2022-07-01"), 2, "asked KOBIS again")
end

cases.the_poster_is_downloaded_into_the_cache = function()
  live()
  local buffer = boxoffice.movie("20198482")
  wait_for("the poster", function() return text(buffer):find("\nPoster     /", 1, true) ~= nil end)
  local path = text(buffer):match("\nPoster     (%S+)")
  expect(vim.startswith(path, vim.env.BOXOFFICE_TEST_CACHE), path)
  equal(vim.fn.filereadable(path), 1, "the downloaded poster " .. path)
end

cases.a_poster_that_fails_leaves_the_detail_standing = function()
  -- Live without a Kakao key: movie.poster is not_configured, said on the Poster line and as a warning.
  boxoffice.setup({ binary = BINARY, cache_dir = vim.env.BOXOFFICE_TEST_CACHE, env = {
    KOBIS_API_KEY = "test-kobis-key", KAKAO_REST_API_KEY = "", KOBIS_BASE_URL = UPSTREAM .. "/kobis",
    BOXOFFICE_TODAY = "2026-11-21" } })
  local buffer = boxoffice.movie("20198482")
  wait_for("the poster's failure", function() return text(buffer):find("\nPoster     (", 1, true) ~= nil
    and not text(buffer):find("asking for the poster", 1, true) end)
  local shown = text(buffer)
  expect(shown:find("^드림\n") and shown:find("KAKAO_REST_API_KEY", 1, true), shown)
  equal(#errors_notified(), 0, "errors")
  expect(notices[#notices].level == vim.log.levels.WARN and notices[#notices].message:find("KAKAO_REST_API_KEY"),
    vim.inspect(notices))
end

cases.an_exhausted_quota_says_so = function()
  live({ "--kobis-daily-limit", "1" })
  local first = boxoffice.daily("2022-08-01")
  wait_for("the first day", drawn(first))
  local second = boxoffice.daily("2022-08-02")
  wait_for("the second day's error", function() return #errors_notified() > 0 end)
  local message = errors_notified()[1]
  expect(message:find("the local KOBIS budget of 1 calls for 2026-11-21 (KST) is spent", 1, true), message)
  expect(text(second):find("budget of 1 calls", 1, true), text(second))
  expect(lines(first)[1]:find("2022-08-01", 1, true), "the first day stays drawn")
end

cases.a_killed_worker_restarts_once = function()
  offline()
  local first = boxoffice.daily("2023-04-26")
  wait_for("the list", drawn(first))
  local pid = worker.pid()
  vim.loop.kill(pid, "sigkill")
  wait_for("the exit to be noticed", function() return worker.pid() == nil end)
  expect(notices[#notices].message:find("killed by signal 9", 1, true), notices[#notices].message)
  vim.cmd("BoxOffice 2023-04-23")
  local second = vim.api.nvim_get_current_buf()
  wait_for("the answer of a new worker", drawn(second))
  expect(worker.pid() and worker.pid() ~= pid, "a new worker")
  expect(lines(second)[1]:find("2023-04-23", 1, true), lines(second)[1])
end

cases.a_worker_killed_mid_call_is_restarted_and_the_call_sent_again = function()
  live()
  upstream("/__hold?after=0")
  vim.cmd("BoxOffice 2022-06-02")
  local buffer = vim.api.nvim_get_current_buf()
  wait_for("the request upstream", function() return daily_calls("2022-06-02") == 1 end)
  local pid = worker.pid()
  vim.loop.kill(pid, "sigkill")
  wait_for("the restart", function() return worker.pid() ~= nil and worker.pid() ~= pid end)
  expect(notices[#notices].message:find("restarted it and sent 1 call(s) again", 1, true), notices[#notices].message)
  upstream("/__release")
  wait_for("the answer from the new worker", drawn(buffer))
  expect(lines(buffer)[1]:find("2022-06-02", 1, true), lines(buffer)[1])
  equal(#errors_notified(), 0, "errors")
end

cases.a_worker_that_dies_again_is_not_restarted_forever = function()
  -- /bin/false stands for a worker that exits as soon as it starts.
  boxoffice.setup({ binary = "/bin/false" })
  vim.cmd("BoxOffice 2023-04-26")
  wait_for("the failure", function() return #errors_notified() > 0 end)
  expect(errors_notified()[1]:find("the restarted worker stopped too (it exited with code 1)", 1, true),
    errors_notified()[1])
  equal(worker.pid(), nil, "no worker left running")
end

cases.no_call_blocks_the_editor = function()
  live()
  upstream("/__hold?after=0")
  local ticks = 0
  local timer = vim.loop.new_timer()
  timer:start(10, 10, vim.schedule_wrap(function() ticks = ticks + 1 end))
  vim.cmd("BoxOffice 2022-06-03")
  local buffer = vim.api.nvim_get_current_buf()
  -- The command returned with the answer still held upstream; the main loop keeps running timers meanwhile.
  expect(lines(buffer)[1]:find("^Loading"), "the command waited for its answer")
  wait_for("ticks while the answer is held", function() return ticks >= 5 end)
  expect(lines(buffer)[1]:find("^Loading"), "the answer came before the release")
  upstream("/__release")
  wait_for("the answer", drawn(buffer))
  timer:stop()
  timer:close()
end

cases.checkhealth_passes = function()
  offline()
  vim.cmd("checkhealth boxoffice")
  local report = text(0)
  -- Neovim 0.7 writes "- OK: …", later versions "- OK …".
  expect(report:find("OK:? binary: ") and report:find(BINARY, 1, true), report)
  expect(report:find("version: boxoffice%-worker %d"), report)
  expect(report:find("offline", 1, true), report)
  expect(not report:find("ERROR"), report)
end

cases.the_help_file_has_its_tags = function()
  local doc = vim.env.HOME .. "/doc"
  vim.fn.mkdir(doc, "p")
  vim.fn.writefile(vim.fn.readfile(vim.api.nvim_get_runtime_file("doc/boxoffice.txt", false)[1]),
    doc .. "/boxoffice.txt")
  vim.cmd("helptags " .. doc)
  local tags = table.concat(vim.fn.readfile(doc .. "/tags"), "\n")
  for _, tag in ipairs({ "boxoffice", ":BoxOffice", ":BoxOfficeWeekly", ":BoxOfficeMovie", ":BoxOfficeSearch",
    ":BoxOfficeStatus", ":BoxOfficeLog", "boxoffice-setup", "boxoffice-keys", "boxoffice-highlights" }) do
    expect(tags:find("\n" .. vim.pesc(tag) .. "\t") or tags:find("^" .. vim.pesc(tag) .. "\t"), "no tag " .. tag)
  end
end

cases.checkhealth_live_shows_the_cache_and_the_quota = function()
  live({ "--kobis-daily-limit", "100" })
  local buffer = boxoffice.daily("2022-09-01")
  wait_for("one live call", drawn(buffer))
  vim.cmd("checkhealth boxoffice")
  local report = text(0)
  expect(report:find("live: KOBIS_API_KEY is set", 1, true), report)
  expect(report:find("cache directory: " .. vim.env.BOXOFFICE_TEST_CACHE, 1, true), report)
  expect(report:find("KOBIS quota: 99 of 100 calls left today (2026-11-21)", 1, true), report)
  expect(not report:find("ERROR"), report)
end

-- The runner.
local name = vim.env.BOXOFFICE_TEST_CASE
if name == "--list" then
  local names = vim.tbl_keys(cases)
  table.sort(names)
  io.stdout:write(table.concat(names, "\n"), "\n")
  vim.cmd("qall!")
end
local case = cases[name]
if not case then
  io.stderr:write("no case named " .. tostring(name) .. "\n")
  vim.cmd("cquit 2")
end
local ok, err = xpcall(case, debug.traceback)
worker.stop(2000)
if not ok then
  io.stderr:write(tostring(err), "\n")
  vim.cmd("cquit 1")
end
io.stdout:write("ok ", name, "\n")
vim.cmd("qall!")
