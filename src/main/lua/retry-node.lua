--[[ Schedule another attempt of a failed task. The token stays in flight (the counter does not move); its fields,
  kept since it was dispatched, get the next attempt number and wait in the run's retries hash until the due time,
  when release-retry.lua puts them back on the node's task stream. Appends node.retrying.
  KEYS[1] meta  KEYS[2] tokens  KEYS[3] retries  KEYS[4] due times  KEYS[5] active runs  KEYS[6] events stream
  ARGV[1] run id  ARGV[2] now  ARGV[3] token id  ARGV[4] node  ARGV[5] the token's place  ARGV[6] the attempt that
  failed  ARGV[7] due time (epoch ms)  ARGV[8] due-times member  ARGV[9] node.retrying data (JSON object text)
  Returns: the next attempt; -1 the failed attempt is no longer the token's (a repeated signal); -2 unknown run;
  -3 token not in flight at this node; -4 run not running; -5 the token's fields were not kept (its node did not
  retry when it was dispatched) ]]
local run, now, token = ARGV[1], ARGV[2], ARGV[3]
local status = rcall('HGET', KEYS[1], 'status')
if not status then return -2 end
if status ~= 'RUNNING' then return -4 end
if rcall('HGET', KEYS[2], token) ~= ARGV[5] then return -3 end
local kept = rcall('HGET', KEYS[3], token)
if not kept then return -5 end
local fields = cjson.decode(kept)
local attempt_at
for i = 1, #fields, 2 do
  if fields[i] == 'attempt' then attempt_at = i + 1 end
end
if not attempt_at or fields[attempt_at] ~= ARGV[6] then return -1 end
local next_attempt = tonumber(ARGV[6]) + 1
fields[attempt_at] = tostring(next_attempt)
rcall('HSET', KEYS[3], token, cjson.encode(fields))
rcall('ZADD', KEYS[4], ARGV[7], ARGV[8])
-- no timeout while the task waits for its next attempt (release-retry.lua sets one again)
rcall('ZREM', KEYS[4], timeout_member(run, token, ARGV[4]))
local events = new_events()
add_event(events, 'node.retrying', ARGV[4], token, ARGV[9])
-- the run counts as active until its retry is due: the inactivity timeout spares a long backoff
set_meta(events, 'last', ARGV[7])
set_meta(events, 'active', ARGV[7])
rcall('ZADD', KEYS[5], 'XX', ARGV[7], run)
flush_events(events, KEYS[1], KEYS[6], run, now)
return next_attempt
