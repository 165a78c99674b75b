--[[ Hold a token at a wait node (a timer) or a signal node: the engine keeps it in the run's waits hash instead of a
  worker running it, due in the shard's wait due times (a timer; a signal's timeout) and, for a signal, listed in the
  index of its name and correlation key. The token stays in flight (the counter does not move); while the run holds a
  wait the inactivity timeout spares it (end-run.lua). The caller acknowledges the task-stream entry after the step; a
  crash in between brings the entry again, and the step absorbs it (held already).
  KEYS[1] meta  KEYS[2] tokens  KEYS[3] the run's waits  KEYS[4] the shard's wait due times  KEYS[5] events stream
  KEYS[6] the signal's index (a signal node; else KEYS[3] again)
  ARGV[1] run id  ARGV[2] now  ARGV[3] token  ARGV[4] node  ARGV[5] the wait (JSON text, io.tokenflow.waits.Wait)
  ARGV[6] due (epoch ms; '' for a signal without a timeout)  ARGV[7] index member ('<run> <token>'; '' for a timer)
  ARGV[8] the node.waiting data (JSON object text)
  Returns: 1 held; 2 held already (the entry came again); 0 the token is no longer in flight; -4 the run is not
  running (ended, or gone from Redis) ]]
if rcall('HGET', KEYS[1], 'status') ~= 'RUNNING' then return -4 end
if not rcall('HGET', KEYS[2], ARGV[3]) then return 0 end
if rcall('HSETNX', KEYS[3], ARGV[3], ARGV[5]) == 0 then return 2 end
if ARGV[6] ~= '' then rcall('ZADD', KEYS[4], ARGV[6], ARGV[1] .. ' ' .. ARGV[3]) end
if ARGV[7] ~= '' then rcall('SADD', KEYS[6], ARGV[7]) end
local events = new_events()
add_event(events, 'node.waiting', ARGV[4], ARGV[3], ARGV[8])
set_meta(events, 'last', ARGV[2])
flush_events(events, KEYS[1], KEYS[5], ARGV[1], ARGV[2])
return 1
