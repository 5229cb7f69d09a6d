-- A date as a person types it, in the CLI's forms: YYYY-MM-DD, YYYYMMDD, yesterday, today or today-N (days before
-- today in Seoul, or before $BOXOFFICE_TODAY, the worker's own replay date).
local M = {}

local SEOUL_OFFSET = 9 * 3600

local function seoul_today()
  local today = vim.env.BOXOFFICE_TODAY
  if today and today:match("^%d%d%d%d%-%d%d%-%d%d$") then
    return today
  end
  return os.date("!%Y-%m-%d", os.time() + SEOUL_OFFSET)
end

-- The day `days` before `date` (YYYY-MM-DD); noon keeps a daylight-saving shift of the local zone off the date.
local function before(date, days)
  local year, month, day = date:match("^(%d+)-(%d+)-(%d+)$")
  local time = os.time({ year = tonumber(year), month = tonumber(month), day = tonumber(day) - days, hour = 12 })
  return os.date("%Y-%m-%d", time)
end

--- The `date` param for `text`: nil for the worker's default (yesterday; offline, the latest recorded day), a
--- YYYY-MM-DD string, or nil and an error message.
function M.parse(text)
  if text == nil or text == "" or text:lower() == "yesterday" then
    return nil
  end
  if text:match("^%d%d%d%d%-%d%d%-%d%d$") then
    return text
  end
  local year, month, day = text:match("^(%d%d%d%d)(%d%d)(%d%d)$")
  if year then
    return ("%s-%s-%s"):format(year, month, day)
  end
  local lowered = text:lower()
  if lowered == "today" then
    return seoul_today()
  end
  local days = lowered:match("^today%-(%d+)$")
  if days then
    return before(seoul_today(), tonumber(days))
  end
  return nil, ('"%s" is not a date: use YYYY-MM-DD, YYYYMMDD, yesterday or today-N'):format(text)
end

--- The weekday of a YYYY-MM-DD date, as the CLI writes it (Mon … Sun), whatever the locale.
function M.weekday(date)
  local year, month, day = date:match("^(%d+)-(%d+)-(%d+)$")
  if not year then
    return nil
  end
  local time = os.time({ year = tonumber(year), month = tonumber(month), day = tonumber(day), hour = 12 })
  return ({ "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" })[os.date("*t", time).wday]
end

return M
