--[[ Record one element's outcome in its map: completed, or failed with no retry left when its node's on_failure is a
  path (the map goes on; the element's place in the list holds its error). Takes the element out of flight,
  dispatches the element `concurrency` places after it (so at most that many run at once), and when it was the last
  one appends map.items.done and drops the map's state: the supervisor completes the map node once it logged it.
  KEYS[1] meta  KEYS[2] tokens  KEYS[3] maps  KEYS[4] retries  KEYS[5] due times  KEYS[6] events stream
  KEYS[7] the elements' task stream  KEYS[8] active runs
  ARGV[1] run id  ARGV[2] now  ARGV[3] the element's token  ARGV[4] node  ARGV[5] the element's place
  ('<map place>@<index>')  ARGV[6] the map's place  ARGV[7] 'completed' or 'failed'  ARGV[8] the element's event
  data (JSON object text)  ARGV[9] the map's iteration  ARGV[10] number of elements to dispatch (0 or 1), then per
  element: task kind, token, place, field count, fields
  Returns: 1 recorded; 2 recorded, and the map is done; -3 the element is not in flight (a repeated signal); -4 the
  run is not running ]]
local run, now, token, node, map = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[6]
local state = rcall('HMGET', KEYS[1], 'status', 'active')
if state[1] ~= 'RUNNING' then return -4 end
if rcall('HGET', KEYS[2], token) ~= ARGV[5] then return -3 end
rcall('HDEL', KEYS[2], token)
rcall('HDEL', KEYS[4], token)
rcall('ZREM', KEYS[5], timeout_member(run, token, node))
rcall('HINCRBY', KEYS[3], map .. (ARGV[7] == 'completed' and '|done' or '|failed'), 1)
local events = new_events()
add_event(events, ARGV[7] == 'completed' and 'map.item.completed' or 'map.item.failed', node, token, ARGV[8])
local at = 11
for _ = 1, tonumber(ARGV[10]) do
  local count = tonumber(ARGV[at + 3])
  rcall('HSET', KEYS[2], ARGV[at + 1], ARGV[at + 2])
  dispatch_task(KEYS[4], KEYS[5], ARGV[at], run, now, ARGV[at + 1], node, KEYS[7], at + 4, at + 3 + count)
  at = at + 4 + count
end
local counts = rcall('HMGET', KEYS[3], map .. '|total', map .. '|done', map .. '|failed', map .. '|parent')
local total, done, failed = tonumber(counts[1]), tonumber(counts[2]), tonumber(counts[3])
local reply = 1
if total and done + failed >= total then
  rcall('HDEL', KEYS[3], map .. '|total', map .. '|done', map .. '|failed', map .. '|parent', map .. '|items')
  add_event(events, 'map.items.done', node, counts[4], '{"iteration":' .. ARGV[9] .. ',"completed":' .. done ..
    ',"failed":' .. failed .. '}')
  reply = 2
end
set_meta(events, 'last', now)
if not state[2] or state[2] == '' or tonumber(now) - tonumber(state[2]) >= ACTIVE_REFRESH_MS then
  rcall('ZADD', KEYS[8], now, run)
  set_meta(events, 'active', now)
end
flush_events(events, KEYS[1], KEYS[6], run, now)
return reply
