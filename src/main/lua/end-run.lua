--[[ End a running run now: CANCELLED (someone asked) or FAILED (e.g. no activity within the timeout). Its in-flight
  tokens are dropped and the counter reconciled to 0; completions that still arrive are ignored (run not running).
  KEYS[1] meta  KEYS[2] counter  KEYS[3] tokens  KEYS[4] joins  KEYS[5] active runs  KEYS[6] events stream
  KEYS[7] loops  KEYS[8] pending approvals (dropped with the run; PostgreSQL marks them CANCELLED)
  ARGV[1] run id  ARGV[2] now  ARGV[3] CANCELLED|FAILED  ARGV[4] event data without "dropped" (JSON object text)
  Returns: number of tokens dropped; -2 unknown run; -4 not running ]]
local status = rcall('HGET', KEYS[1], 'status')
if not status then return -2 end
if status ~= 'RUNNING' then return -4 end
local dropped = rcall('HLEN', KEYS[3])
rcall('DEL', KEYS[3], KEYS[4], KEYS[7], KEYS[8])
rcall('SET', KEYS[2], 0)
rcall('HSET', KEYS[1], 'status', ARGV[3], 'last', ARGV[2])
rcall('ZREM', KEYS[5], ARGV[1])
local events = new_events()
local data = string.sub(ARGV[4], 1, -2) .. (string.len(ARGV[4]) > 2 and ',' or '') .. '"dropped":' .. dropped .. '}'
add_event(events, ARGV[3] == 'CANCELLED' and 'run.cancelled' or 'run.failed', nil, nil, data)
flush_events(events, KEYS[1], KEYS[6], ARGV[1], ARGV[2])
return dropped
