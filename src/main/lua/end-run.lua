--[[ End a running run now: CANCELLED (someone asked) or FAILED (e.g. no activity within the timeout). Its in-flight
  tokens are dropped and the counter reconciled to 0; completions that still arrive are ignored (run not running).
  KEYS[1] meta  KEYS[2] counter  KEYS[3] tokens  KEYS[4] joins  KEYS[5] active runs  KEYS[6] events stream
  KEYS[7] loops  KEYS[8] pending approvals (dropped with the run; PostgreSQL marks them CANCELLED)  KEYS[9] retries
  KEYS[10] waits (timers and signal waits, dropped with the run)  KEYS[11] maps (the state of running maps)
  ARGV[1] run id  ARGV[2] now  ARGV[3] CANCELLED|FAILED  ARGV[4] event data without "dropped" (JSON object text)
  ARGV[5] the channel announcing ended runs (workers stop the run's running tasks)
  ARGV[6] (optional) idle since: end the run only if its last activity (meta 'last') is no later than this (epoch
  ms); a run active since then gets its active-set score brought up to date instead (the set's scores may lag by up
  to a second, and activity may come between the timeout detector's look and this step). A run with tokens parked in
  the dead-letter queue, or held by a timer or a signal wait, is not idle: it leaves the active set until one is
  reprocessed, or until the wait ends and its completion is routed.
  Returns: number of tokens dropped; -2 unknown run; -4 not running; -8 active since the given time ]]
local state = rcall('HMGET', KEYS[1], 'status', 'last', 'parked')
if not state[1] then return -2 end
if state[1] ~= 'RUNNING' then return -4 end
if ARGV[6] and ((tonumber(state[3]) or 0) > 0 or rcall('HLEN', KEYS[10]) > 0) then
  rcall('ZREM', KEYS[5], ARGV[1])
  rcall('HSET', KEYS[1], 'active', '')
  return -8
end
if ARGV[6] and state[2] and tonumber(state[2]) > tonumber(ARGV[6]) then
  rcall('ZADD', KEYS[5], 'XX', state[2], ARGV[1])
  rcall('HSET', KEYS[1], 'active', state[2])
  return -8
end
local dropped = rcall('HLEN', KEYS[3])
rcall('DEL', KEYS[3], KEYS[4], KEYS[7], KEYS[8], KEYS[9], KEYS[10], KEYS[11])
rcall('SET', KEYS[2], 0)
rcall('HSET', KEYS[1], 'status', ARGV[3], 'last', ARGV[2])
rcall('ZREM', KEYS[5], ARGV[1])
local events = new_events()
local data = string.sub(ARGV[4], 1, -2) .. (string.len(ARGV[4]) > 2 and ',' or '') .. '"dropped":' .. dropped .. '}'
add_event(events, ARGV[3] == 'CANCELLED' and 'run.cancelled' or 'run.failed', nil, nil, data)
flush_events(events, KEYS[1], KEYS[6], ARGV[1], ARGV[2])
rcall('PUBLISH', ARGV[5], ARGV[1])
return dropped
