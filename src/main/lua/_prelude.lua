--[[ Prelude prepended to every Tokenflow script (not a transition itself).
  Collects a step's events and appends them to the events stream in one XADD, numbered with the run's
  sequence (HINCRBY meta seq), so events and the state change they describe happen atomically. ]]
local rcall = redis.call

local function json_string(value)
  if value == nil or value == false then return 'null' end
  return cjson.encode(value)
end

local function new_events()
  return { items = {} }
end

-- data: raw JSON object text (already valid JSON), or nil for {}
local function add_event(events, type, node, token, data)
  events.items[#events.items + 1] = { type, node, token, data or '{}' }
end

local function flush_events(events, meta_key, stream_key, run_id, now)
  local n = #events.items
  if n == 0 then return end
  local last = rcall('HINCRBY', meta_key, 'seq', n)
  local first = last - n + 1
  local parts = {}
  for i, e in ipairs(events.items) do
    parts[i] = '{"seq":' .. (first + i - 1) .. ',"type":"' .. e[1] .. '","at":' .. now ..
      ',"node":' .. json_string(e[2]) .. ',"token":' .. json_string(e[3]) .. ',"data":' .. e[4] .. '}'
  end
  rcall('XADD', stream_key, '*', 'run', run_id, 'events', '[' .. table.concat(parts, ',') .. ']')
end

-- Reads `count` field/value pairs from ARGV starting at `at`; returns the list and the next index.
local function read_fields(at, count)
  local fields = {}
  for i = 0, count - 1 do fields[i + 1] = ARGV[at + i] end
  return fields, at + count
end
