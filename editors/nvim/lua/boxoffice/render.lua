-- The screens as lines: pure functions from a method's result to what a buffer shows. Each returns
-- { lines = {...}, highlights = { {group, line, first_byte, last_byte}, ... }, rows = { [line] = movieCode } }
-- with 0-based lines and byte columns (as nvim_buf_add_highlight takes them) and 1-based `rows` (as the cursor
-- reports them). Widths are display cells (strdisplaywidth): a Hangul syllable takes two. Text from the worker comes
-- through M.printable first (view.lua does it), so no line holds a control character, a C1 control or a bidi one.
local config = require("boxoffice.config")
local dates = require("boxoffice.dates")

local M = {}

local width = vim.fn.strdisplaywidth

-- A control character's picture (U+2400 + its code; DEL's U+2421), in UTF-8: one display cell, where the character
-- itself would be two (^J) or, a newline, no line at all.
local function picture(char)
  local code = char:byte()
  if code == 127 then
    return "\226\144\161"
  end
  return string.char(0xE2, 0x90, 0x80 + code)
end

-- U+FFFD "�" in UTF-8, one display cell: the stand-in for what has no picture.
local REPLACEMENT = "\239\191\189"

-- What becomes U+FFFD, as the CLI has it (docs/cli.md), in UTF-8 bytes: each pattern starts at a byte that only
-- ever starts a character (C2, E2, ...), never continues one, so it cannot match inside another character.
local REPLACED = {
  -- The C1 controls, U+0080 to U+009F (C2 80 to C2 9F): U+009B is a terminal's CSI.
  "\194[\128-\159]",
  -- U+2028 and U+2029, the line and paragraph separators, and the bidi embeddings and overrides U+202A to U+202E
  -- (E2 80 A8 to E2 80 AE).
  "\226\128[\168-\174]",
  -- The bidi isolates U+2066 to U+2069 (E2 81 A6 to E2 81 A9).
  "\226\129[\166-\169]",
  -- Bytes that start no well-formed character (C0, C1, F5 to FF) and the overlong three- and four-byte forms (E0 80
  -- to E0 9F, F0 80 to F0 8F), each with the continuation bytes after it. The worker writes well-formed UTF-8, but
  -- Neovim would read an overlong form as the character it spells (C0 8A as a newline, E0 82 9B as U+009B).
  "[\192\193\245-\255][\128-\191]*",
  "\224[\128-\159][\128-\191]*",
  "\240[\128-\143][\128-\191]*",
}

--- `text` as the screens may draw it, every character one they can lay out in a cell: each control character
--- (U+0000 to U+001F, U+007F) as its picture, a newline as ␊, a carriage return as ␍, a tab as ␉; a C1 control,
--- a bidi embedding, override or isolate and U+2028/U+2029 as "�" (U+FFFD), as the CLI draws them. A buffer line
--- cannot hold a newline (nvim_buf_set_lines refuses it), and Neovim would draw the others as ^[, <9b> or <202e>:
--- several cells for one character, where a stand-in takes one. Nothing an upstream put in a title reaches the
--- terminal as itself.
function M.one_line(text)
  text = text:gsub("[%z\1-\31\127]", picture)
  -- Most text holds none of the lead bytes above (a Hangul syllable starts with EA to ED): left as it is.
  if not text:find("[\192-\194\224\226\240\245-\255]") then
    return text
  end
  for _, pattern in ipairs(REPLACED) do
    text = text:gsub(pattern, REPLACEMENT)
  end
  return text
end

--- `text` through M.one_line a line at a time, its newlines kept: a message for vim.notify, which shows its lines.
function M.lines(text)
  local out = {}
  for _, line in ipairs(vim.split(tostring(text), "\n", { plain = true })) do
    table.insert(out, M.one_line(line))
  end
  return table.concat(out, "\n")
end

--- `answer`, a decoded answer of the worker, with every string in it through M.one_line: a copy (vim.NIL, numbers
--- and booleans as they are), for the screens to lay out with every character one they can draw.
function M.printable(answer)
  if type(answer) == "string" then
    return M.one_line(answer)
  end
  if type(answer) ~= "table" then
    return answer
  end
  local copy = {}
  for key, item in pairs(answer) do
    copy[key] = M.printable(item)
  end
  return setmetatable(copy, getmetatable(answer))
end

-- A JSON null (vim.NIL) or a missing value, as nil.
local function value(v)
  if v == vim.NIL then
    return nil
  end
  return v
end

-- `text` cut to `cells` display cells, ending in "…" when it was longer.
local function fit(text, cells)
  if width(text) <= cells then
    return text
  end
  local kept, used = {}, 0
  for index = 0, vim.fn.strchars(text) - 1 do
    local char = vim.fn.strcharpart(text, index, 1)
    local cell = width(char)
    if used + cell > cells - 1 then
      break
    end
    table.insert(kept, char)
    used = used + cell
  end
  return table.concat(kept) .. "…"
end

local function pad_right(text, cells)
  return text .. string.rep(" ", cells - width(text))
end

local function pad_left(text, cells)
  return string.rep(" ", cells - width(text)) .. text
end

local CHANGE_GROUP = { new = "BoxOfficeNew", up = "BoxOfficeUp", down = "BoxOfficeDown", same = "BoxOfficeSame" }

local function origin(source)
  source = value(source) or {}
  local kind = value(source.origin) or "?"
  local verb = kind == "fixture" and "recorded" or "fetched"
  return ("%s, %s %s"):format(kind, verb, value(source.fetchedAt) or "?")
end

--- The heading of a box office: `일별 박스오피스 · 2023-04-26 (Wed) · fixture, recorded …`.
function M.heading(result)
  local range = result.range
  local period = range.start == range["end"] and ("%s (%s)"):format(range.start, dates.weekday(range.start))
    or ("%s – %s"):format(range.start, range["end"])
  return ("%s · %s · %s"):format(result.label, period, origin(result.source))
end

local function share(entry)
  local figure = value(value(entry.sales) and entry.sales.share)
  return figure and ("%.1f%%"):format(figure) or ""
end

--- A day's or a week's list, as the apps and the CLI draw it.
function M.box_office(result)
  local entries = result.entries
  local title_cells = width("Title")
  for _, entry in ipairs(entries) do
    title_cells = math.max(title_cells, math.min(width(entry.title), config.options.title_width))
  end
  local columns = { audience = width("Audience"), total = width("Total"), share = width("Share") }
  for _, entry in ipairs(entries) do
    columns.audience = math.max(columns.audience, width(entry.display.audience))
    columns.total = math.max(columns.total, width(entry.display.audienceTotal))
    columns.share = math.max(columns.share, width(share(entry)))
  end
  local function row(rank, change, title, audience, total, share_text)
    return table.concat({
      pad_left(rank, 4), "  ", pad_right(change, 5), "  ", pad_right(title, title_cells), "  ",
      pad_left(audience, columns.audience), "  ", pad_left(total, columns.total), "  ",
      pad_left(share_text, columns.share),
    })
  end
  local lines = { M.heading(result), "", row("Rank", "Chg", "Title", "Audience", "Total", "Share") }
  local highlights = { { "BoxOfficeHeading", 0, 0, -1 }, { "BoxOfficeColumns", 2, 0, -1 } }
  local rows = {}
  for _, entry in ipairs(entries) do
    local change = entry.display.rankChange
    table.insert(lines, row(tostring(entry.rank), change, fit(entry.title, title_cells), entry.display.audience,
      entry.display.audienceTotal, share(entry)))
    rows[#lines] = entry.movieCode
    -- The change starts after the rank's four cells and two spaces, all one byte each.
    table.insert(highlights, { CHANGE_GROUP[entry.trend] or "BoxOfficeSame", #lines - 1, 6, 6 + #change })
  end
  if #entries == 0 then
    table.insert(lines, "(no entries for this period)")
  end
  return { lines = lines, highlights = highlights, rows = rows }
end

local LABEL_CELLS = 11

-- `text` cut into pieces of at most `cells` display cells, between characters.
local function chunks(text, cells)
  local out, current = {}, ""
  for index = 0, vim.fn.strchars(text) - 1 do
    local char = vim.fn.strcharpart(text, index, 1)
    if current ~= "" and width(current .. char) > cells then
      table.insert(out, current)
      current = ""
    end
    current = current .. char
  end
  table.insert(out, current)
  return out
end

-- `pieces` joined with `separator` after `first` into lines of at most `cells` display cells, continuation lines
-- starting with `indent`; a piece too long for a line of its own is cut between characters.
local function wrap(lines, first, indent, pieces, separator, cells)
  local current, fresh = first, true
  local room = math.max(1, cells - width(indent))
  for index, piece in ipairs(pieces) do
    local text = piece .. (index < #pieces and separator or "")
    if not fresh and width(current) + width(vim.trim(text)) > cells then
      table.insert(lines, (current:gsub("%s+$", "")))
      current = indent
    end
    if width(current) + width(vim.trim(text)) > cells then
      local parts = chunks(text, room)
      for part = 1, #parts - 1 do
        table.insert(lines, current .. parts[part])
        current = indent
      end
      text = parts[#parts]
    end
    current, fresh = current .. text, false
  end
  table.insert(lines, (current:gsub("%s+$", "")))
end

-- "Label      value", the value wrapped at `cells` display cells with its continuation lines indented; `whole`
-- keeps it on one line (a path or an address is copied, not read).
local function field(lines, label, text, cells, whole)
  if text == nil or text == "" then
    return
  end
  if whole then
    table.insert(lines, pad_right(label, LABEL_CELLS) .. text)
    return
  end
  wrap(lines, pad_right(label, LABEL_CELLS), string.rep(" ", LABEL_CELLS), vim.split(text, ", ", { plain = true }),
    ", ", cells)
end

local function names(list, describe)
  local out = {}
  for _, item in ipairs(value(list) or {}) do
    table.insert(out, describe(item))
  end
  return table.concat(out, ", ")
end

--- A movie's detail screen; `poster` is the Poster line's text (a path, an address, or what became of it).
function M.movie(detail, poster, cells)
  cells = cells or 100
  local lines = { detail.title }
  local english = value(detail.titleEnglish)
  if english and english ~= "" then
    table.insert(lines, english)
  end
  table.insert(lines, string.rep("─", math.min(cells, 60)))
  local rule = #lines
  local highlights = { { "BoxOfficeHeading", 0, 0, -1 } }
  field(lines, "Director", names(detail.directors, function(person) return person.name end), cells)
  field(lines, "Year", value(detail.productionYear) and tostring(detail.productionYear), cells)
  field(lines, "Opening", value(detail.openDate), cells)
  field(lines, "Runtime", value(detail.runtimeMinutes) and (detail.runtimeMinutes .. " min"), cells)
  field(lines, "Grade", value(detail.watchGrade), cells)
  field(lines, "Nations", table.concat(value(detail.nations) or {}, ", "), cells)
  field(lines, "Genres", table.concat(value(detail.genres) or {}, ", "), cells)
  -- The first eight actors, as the CLI's detail screen.
  field(lines, "Actors", names({ unpack(value(detail.actors) or {}, 1, 8) }, function(actor)
    local role = value(actor.role)
    return role and role ~= "" and ("%s (%s)"):format(actor.name, role) or actor.name
  end), cells)
  field(lines, "Companies", names(detail.companies, function(company)
    return ("%s (%s)"):format(company.name, value(company.role) or "?")
  end), cells)
  field(lines, "Poster", poster, cells, poster and not poster:find("^%("))
  field(lines, "Code", detail.movieCode, cells)
  field(lines, "Source", origin(detail.source), cells)
  for index = rule + 1, #lines do
    local label = lines[index]:match("^(%S+)%s")
    if label then
      table.insert(highlights, { "BoxOfficeLabel", index - 1, 0, #label })
    end
  end
  return { lines = lines, highlights = highlights, rows = {} }
end

--- A page of movie.search results: code, title, English title, year, genres, directors; a row opens the detail.
function M.search(result, query)
  local lines = { ("영화 검색 · %s · %d found, page %d"):format(query, result.total, result.page), "" }
  local highlights = { { "BoxOfficeHeading", 0, 0, -1 } }
  local rows = {}
  local title_cells = width("Title")
  for _, movie in ipairs(result.movies) do
    title_cells = math.max(title_cells, math.min(width(movie.title), config.options.title_width))
  end
  local function row(code, title, year, genres, directors, english)
    local line = table.concat({ pad_right(code, 8), "  ", pad_right(title, title_cells), "  ", pad_left(year, 4),
      "  ", pad_right(genres, 12), "  ", pad_right(directors, 12), "  ", english })
    return (line:gsub("%s+$", ""))
  end
  table.insert(lines, row("Code", "Title", "Year", "Genres", "Directors", "English title"))
  table.insert(highlights, { "BoxOfficeColumns", 2, 0, -1 })
  for _, movie in ipairs(result.movies) do
    local year = value(movie.productionYear)
    table.insert(lines, row(movie.movieCode, fit(movie.title, title_cells), year and tostring(year) or "",
      fit(table.concat(movie.genres, ", "), 12), fit(table.concat(movie.directors, ", "), 12),
      value(movie.titleEnglish) or ""))
    rows[#lines] = movie.movieCode
  end
  if #result.movies == 0 then
    table.insert(lines, "(no movie matches)")
  end
  return { lines = lines, highlights = highlights, rows = rows }
end

--- worker.status as docs/editors.md draws it: the CLI's status screen and a little more. `binary` is the path the
--- plugin started.
function M.status(status, binary)
  local lines = { ("boxoffice-worker %s (%s) · %s"):format(status.version, status.commit, status.mode) }
  local function add(label, text)
    table.insert(lines, pad_right(label, 15) .. text)
  end
  add("process", ("pid %d, up %.1f s"):format(status.pid, status.uptimeSeconds))
  local quota = value(status.quota)
  add("KOBIS quota", quota and ("%d of %d used, %d left; resets %s"):format(quota.used, quota.limit,
    quota.remaining, quota.resetsAt) or "none offline (set KOBIS_API_KEY to go live)")
  local cache = status.cache
  add("cache", value(cache.path) and ("%s, %d hits, %d misses"):format(cache.path, cache.hits, cache.misses)
    or "none")
  local store = value(status.store)
  if store then
    add("store", ("%s %s (%s)"):format(store.kind, value(store.location) or "?",
      store.connected and "connected" or "not connected"))
  end
  local requests = status.requests
  add("requests", ("%d answered, %d failed, %d cancelled, %d in flight"):format(requests.succeeded,
    requests.failed, requests.cancelled, requests.inFlight))
  add("binary", binary or "?")
  local highlights = { { "BoxOfficeHeading", 0, 0, -1 } }
  for index = 1, #lines - 1 do
    table.insert(highlights, { "BoxOfficeLabel", index, 0, 14 })
  end
  return { lines = lines, highlights = highlights, rows = {} }
end

--- An error as a buffer shows it, wrapped at `cells` (the message also goes to vim.notify): its lines as paragraphs,
--- any other control character as its picture.
function M.error(err, cells)
  local lines = { "boxoffice: the call failed", "" }
  for _, paragraph in ipairs(vim.split(err.message or "unknown error", "\n", { plain = true })) do
    paragraph = M.one_line(paragraph)
    local indent = paragraph:match("^%s*")
    wrap(lines, indent, indent, vim.split(vim.trim(paragraph), " ", { plain = true }), " ", math.max(20, cells or 80))
  end
  return { lines = lines, highlights = { { "ErrorMsg", 0, 0, -1 } }, rows = {} }
end

return M
