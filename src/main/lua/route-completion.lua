--[[ Route one completion: consume the token, store the node's output, emit the next tokens (fan-out, or an arrival
  at a join; the last arrival turns the join into one join token announced on the completions stream), append the
  run's events, and complete the run when no token is in flight and no join is pending. A failed node fails the run.
  KEYS[1] meta  KEYS[2] counter  KEYS[3] tokens  KEYS[4] consumed  KEYS[5] ctx  KEYS[6] joins  KEYS[7] active runs
  KEYS[8] events stream  KEYS[9] completions stream  KEYS[10..] task streams of emitted tokens (same shard)
  ARGV[1] run id  ARGV[2] now  ARGV[3] token id  ARGV[4] node  ARGV[5] ir revision  ARGV[6] completed|failed
  ARGV[7] ctx field (node, or node#iteration)  ARGV[8] output to keep in ctx (JSON text; '' when failed)
  ARGV[9] node.completed / node.failed event data (JSON object text)  ARGV[10] number of emissions, then each:
    'task', token id, target, token.emitted data, stream KEYS index, field count, fields...
    'join', token id, target, token.emitted data, join field (target#iteration), expected arrivals, dependency,
            join token id, join token.emitted data, iteration
  Returns: counter after the step; -1 already consumed (duplicate), -2 unknown run, -3 token not in flight at this
  node, -4 run not running, -6 stale IR revision ]]
local meta, counter, tokens, consumed, ctx, joins = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local run, now, token, node = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local state = rcall('HMGET', meta, 'status', 'revision')
if not state[1] then return -2 end
if rcall('SISMEMBER', consumed, token) == 1 then return -1 end
if state[1] ~= 'RUNNING' then return -4 end
if rcall('HGET', tokens, token) ~= node then return -3 end
if state[2] ~= ARGV[5] then return -6 end

local events = new_events()
rcall('SADD', consumed, token)
rcall('HDEL', tokens, token)
local delta = -1

local function fail_run(data)
  add_event(events, 'node.failed', node, token, data)
  local dropped = rcall('HLEN', tokens)
  rcall('DEL', tokens, joins)
  rcall('SET', counter, 0)
  rcall('HSET', meta, 'status', 'FAILED', 'last', now)
  rcall('ZREM', KEYS[7], run)
  add_event(events, 'run.failed', node, nil, '{"reason":' .. cjson.encode('Node ' .. node .. ' failed') ..
    ',"dropped":' .. dropped .. '}')
  flush_events(events, meta, KEYS[8], run, now)
  return 0
end
if ARGV[6] == 'failed' then return fail_run(ARGV[9]) end

rcall('HSET', ctx, ARGV[7], ARGV[8])
add_event(events, 'node.completed', node, token, ARGV[9])

local at = 11
for _ = 1, tonumber(ARGV[10]) do
  local kind, child, target, data = ARGV[at], ARGV[at + 1], ARGV[at + 2], ARGV[at + 3]
  add_event(events, 'token.emitted', target, child, data)
  if kind == 'task' then
    local stream = KEYS[tonumber(ARGV[at + 4])]
    local fields
    fields, at = read_fields(at + 6, tonumber(ARGV[at + 5]))
    rcall('HSET', tokens, child, target)
    rcall('XADD', stream, '*', unpack(fields))
    delta = delta + 1
  else
    local field, expected, dependency = ARGV[at + 4], tonumber(ARGV[at + 5]), ARGV[at + 6]
    local join_token, join_data, iteration = ARGV[at + 7], ARGV[at + 8], ARGV[at + 9]
    at = at + 10
    local arrivals = cjson.decode(rcall('HGET', joins, field) or '{}')
    arrivals[dependency] = child
    rcall('HSET', tokens, child, target)
    delta = delta + 1
    local arrived = 0
    for _ in pairs(arrivals) do arrived = arrived + 1 end
    add_event(events, 'join.arrived', target, child, '{"from":' .. cjson.encode(node) .. ',"iteration":' ..
      iteration .. ',"arrived":' .. arrived .. ',"expected":' .. expected .. '}')
    if arrived >= expected then
      local ids = {}
      for _, parked in pairs(arrivals) do
        rcall('HDEL', tokens, parked)
        rcall('SADD', consumed, parked)
        ids[#ids + 1] = parked
      end
      delta = delta - arrived + 1
      rcall('HDEL', joins, field)
      rcall('HSET', tokens, join_token, target)
      rcall('XADD', KEYS[9], '*', 'kind', 'join', 'run', run, 'node', target, 'token', join_token,
        'iteration', iteration)
      add_event(events, 'join.completed', target, join_token, '{"iteration":' .. iteration ..
        ',"arrivals":' .. cjson.encode(ids) .. '}')
      add_event(events, 'token.emitted', target, join_token, join_data)
    else
      rcall('HSET', joins, field, cjson.encode(arrivals))
    end
  end
end

local left = rcall('INCRBY', counter, delta)
rcall('HSET', meta, 'last', now)
if left == 0 and rcall('HLEN', joins) == 0 then
  rcall('HSET', meta, 'status', 'COMPLETED')
  rcall('ZREM', KEYS[7], run)
  add_event(events, 'run.completed', nil, nil, '{}')
else
  rcall('ZADD', KEYS[7], now, run)
end
flush_events(events, meta, KEYS[8], run, now)
return left
