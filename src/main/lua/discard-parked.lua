--[[ Discard a parked task: the node fails and so does its run (its other tokens are dropped). Appends node.discarded
  and run.failed.
  KEYS: the run's routing keys (see the prelude)
  ARGV[1] run id  ARGV[2] now  ARGV[3] token id  ARGV[4] node  ARGV[5] dlq entry id  ARGV[6] node.discarded data
  ARGV[7] the run's failure reason
  Returns: 1 discarded; -1 the entry is not parked any more; -2 unknown run; -4 run not running ]]
local run, now, token = ARGV[1], ARGV[2], ARGV[3]
local status = rcall('HGET', R.meta, 'status')
if not status then return -2 end
if status ~= 'RUNNING' then return -4 end
if rcall('HGET', R.retries, 'p:' .. token) ~= ARGV[5] then return -1 end
local events = new_events()
add_event(events, 'node.discarded', ARGV[4], token, ARGV[6])
fail_run(run, now, events, ARGV[4], ARGV[7])
flush_events(events, R.meta, R.events, run, now)
return 1
