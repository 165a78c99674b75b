--[[ Park a failed task in the dead-letter queue (its node's on_failure is dlq and no retry is left). The token stays
  in flight, so the run waits (the counter does not move); its task's fields stay kept for a reprocess. The run
  leaves the inactivity timeout's watch while it has parked tokens (end-run.lua spares it). Appends node.parked.
  KEYS[1] meta  KEYS[2] tokens  KEYS[3] kept tasks (the run's retries hash)  KEYS[4] events stream  KEYS[5] due times
  ARGV[1] run id  ARGV[2] now  ARGV[3] token id  ARGV[4] node  ARGV[5] the token's place  ARGV[6] dlq entry id
  ARGV[7] node.parked data (JSON object text)
  Returns: 1 parked; -1 already parked (a repeated signal); -2 unknown run; -3 token not in flight at this node;
  -4 run not running; -5 the token's task was not kept ]]
local run, now, token = ARGV[1], ARGV[2], ARGV[3]
local status = rcall('HGET', KEYS[1], 'status')
if not status then return -2 end
if status ~= 'RUNNING' then return -4 end
if rcall('HGET', KEYS[2], token) ~= ARGV[5] then return -3 end
if rcall('HEXISTS', KEYS[3], token) == 0 then return -5 end
if rcall('HSETNX', KEYS[3], 'p:' .. token, ARGV[6]) == 0 then return -1 end
rcall('HINCRBY', KEYS[1], 'parked', 1)
rcall('ZREM', KEYS[5], timeout_member(run, token, ARGV[4]))
local events = new_events()
add_event(events, 'node.parked', ARGV[4], token, ARGV[7])
set_meta(events, 'last', now)
flush_events(events, KEYS[1], KEYS[4], run, now)
return 1
