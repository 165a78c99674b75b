--[[ Record that a worker began a token's work (node.started), once per token. A token no longer in flight (already
  completed, or its run ended) is left alone: work that starts and ends quickly may report its start after its end.
  KEYS[1] meta  KEYS[2] tokens  KEYS[3] consumed  KEYS[4] active runs  KEYS[5] events stream  KEYS[6] due times
  ARGV[1] run id  ARGV[2] now  ARGV[3] token id  ARGV[4] node  ARGV[5] worker  ARGV[6] started_at (epoch ms, or '')
  ARGV[7] the new due time of the node's timeout ('' for none): its time starts again with the work
  Returns: 1 recorded; -1 already recorded or the token already consumed; -2 unknown run; -3 never in flight at
  this node; -4 run not running ]]
local run, now, token, node = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local status = rcall('HGET', KEYS[1], 'status')
if not status then return -2 end
if status ~= 'RUNNING' and status ~= 'COMPENSATING' then return -4 end
if rcall('SISMEMBER', KEYS[3], token) == 1 then return -1 end
local place = rcall('HGET', KEYS[2], token)
if not place or (place ~= node and string.sub(place, 1, #node + 1) ~= node .. '#') then return -3 end
if rcall('SADD', KEYS[3], 's:' .. token) == 0 then return -1 end
local iteration = string.match(place, '#(%d+)$') or '0'
local events = new_events()
add_event(events, 'node.started', node, token, '{"iteration":' .. iteration .. ',"worker":' .. cjson.encode(ARGV[5]) ..
  ',"started_at":' .. (ARGV[6] == '' and 'null' or ARGV[6]) .. '}')
rcall('HSET', KEYS[1], 'last', now)
rcall('ZADD', KEYS[4], 'XX', now, run)
if ARGV[7] ~= '' then
  rcall('ZADD', KEYS[6], 'XX', ARGV[7], timeout_member(run, token, node))
end
flush_events(events, KEYS[1], KEYS[5], run, now)
return 1
