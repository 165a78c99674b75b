--[[ Start a map: a map node's token arrived (the engine took it from the map stream) and its list was resolved. Keeps
  the map's state in the run's maps hash (fields '<place>|total', '|done', '|failed', '|parent', '|items') and
  dispatches its first elements, at most the map's concurrency, each a task of the node's worker type under a token
  id of its own, in flight at place '<place>@<index>' (so that retries and timeouts work for it as for any task). The
  map node's token stays in flight until the map is done; elements count no token (the counter does not move).
  KEYS[1] meta  KEYS[2] tokens  KEYS[3] maps  KEYS[4] retries  KEYS[5] due times  KEYS[6] events stream
  KEYS[7] the elements' task stream
  ARGV[1] run id  ARGV[2] now  ARGV[3] the map node's token  ARGV[4] node  ARGV[5] the token's place
  ARGV[6] number of elements  ARGV[7] map.started data (JSON object text)  ARGV[8] the list's CAS reference
  ARGV[9] number of elements to dispatch, then per element: task kind (see dispatch_task), token, place, field count,
  fields
  Returns: 1 started; 2 started already (the map's token came again); -3 the token is no longer in flight; -4 the
  run is not running ]]
local run, now, token, node, place = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
if rcall('HGET', KEYS[1], 'status') ~= 'RUNNING' then return -4 end
if rcall('HGET', KEYS[2], token) ~= place then return -3 end
-- a map this token started is started already; another token's (a failed run's, resumed since) is stale
if rcall('HGET', KEYS[3], place .. '|parent') == token then return 2 end
rcall('HSET', KEYS[3], place .. '|total', ARGV[6], place .. '|done', 0, place .. '|failed', 0,
  place .. '|parent', token, place .. '|items', ARGV[8])
local at = 10
for _ = 1, tonumber(ARGV[9]) do
  local count = tonumber(ARGV[at + 3])
  rcall('HSET', KEYS[2], ARGV[at + 1], ARGV[at + 2])
  dispatch_task(KEYS[4], KEYS[5], ARGV[at], run, now, ARGV[at + 1], node, KEYS[7], at + 4, at + 3 + count)
  at = at + 4 + count
end
local events = new_events()
add_event(events, 'map.started', node, token, ARGV[7])
set_meta(events, 'last', now)
flush_events(events, KEYS[1], KEYS[6], run, now)
return 1
