--[[ One compensator reported: record it, then send the next compensator's token, or end the compensation (all done,
  or this one failed: the run goes back to the status it ended in, and the steps left stay undone).
  KEYS[1] meta  KEYS[2] counter  KEYS[3] tokens  KEYS[4] events stream  KEYS[5] retries  KEYS[6] due times
  KEYS[7] (when a step follows) its task stream
  ARGV[1] run id  ARGV[2] now  ARGV[3] token id  ARGV[4] compensating node  ARGV[5] the token's place
  ARGV[6] completed|failed  ARGV[7] node.completed / node.failed data  ARGV[8] meta 'comp' as read
  ARGV[9] compensation.failed data (when failed)
  then, when a step follows: ARGV[10] the steps after it (JSON array text)  ARGV[11] task kind  ARGV[12] token id
  ARGV[13] compensating node  ARGV[14] place  ARGV[15] token.emitted data  ARGV[16] field count  ARGV[17..] fields
  Returns: 1 applied; -3 token not in flight there; -4 the run is not compensating; -7 the steps moved since read ]]
local run, now, token, node = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local state = rcall('HMGET', KEYS[1], 'status', 'comp', 'ended')
if state[1] ~= 'COMPENSATING' then return -4 end
if rcall('HGET', KEYS[3], token) ~= ARGV[5] then return -3 end
if state[2] ~= ARGV[8] then return -7 end

local events = new_events()
rcall('HDEL', KEYS[3], token)
local function finish()
  rcall('SET', KEYS[2], 0)
  rcall('HDEL', KEYS[1], 'comp')
  set_meta(events, 'status', state[3])
end
if ARGV[6] == 'failed' then
  add_event(events, 'node.failed', node, token, ARGV[7])
  add_event(events, 'compensation.failed', node, nil, ARGV[9])
  finish()
elseif ARGV[10] then
  add_event(events, 'node.completed', node, token, ARGV[7])
  local next_token, next_node = ARGV[12], ARGV[13]
  add_event(events, 'token.emitted', next_node, next_token, ARGV[15])
  rcall('HSET', KEYS[3], next_token, ARGV[14])
  set_meta(events, 'comp', ARGV[10])
  dispatch_task(KEYS[5], KEYS[6], ARGV[11], run, now, next_token, next_node, KEYS[7], 17, 16 + tonumber(ARGV[16]))
else
  add_event(events, 'node.completed', node, token, ARGV[7])
  add_event(events, 'compensation.completed', nil, nil, '{}')
  finish()
end
set_meta(events, 'last', now)
flush_events(events, KEYS[1], KEYS[4], run, now)
return 1
