--[[ Recover a running run whose Redis state was lost (Redis restarted without its append-only file or lost its tail,
  was flushed, failed over): rebuild its state from its event log (engine.replay.RecoveryPoint) and send the tasks in
  flight again under their own token ids, in one step. Appends run.recovered only: the rest is in the log already.
  KEYS: the run's routing keys (see the prelude), then the task streams of the tasks sent again
  ARGV[1] run id  ARGV[2] now  ARGV[3] the seq of the run's last logged event  ARGV[4] workflow id
  ARGV[5] workflow version  ARGV[6] ir revision  ARGV[7] run input (JSON text)  ARGV[8] created (epoch ms)
  ARGV[9] hops routed so far  ARGV[10] run.recovered data (JSON object text)
  ARGV[11..] context, loop passes, last loop iteration, hop counts (the prelude's restore_routing_state)
  then the number of join arrivals waiting, then each: token id, place, joins field (node#iteration), dependency
  then the number of approvals pending, then each: approval id, its pending entry (JSON text)
  then the number of tasks parked in the dead-letter queue, then each: token id, place, dlq entry id, the kept task
    fields (JSON array text)
  then the number of tasks sent again, then each: a task kind (the prelude's dispatch_task), token id, node, place,
    stream KEYS index, field count, fields...
  then the run's deadline (epoch ms; '' for none): it is due to end then (a member of the shard's due times)
  Returns: number of tokens in flight; -6 Redis holds the run at or after the logged seq (its state is not lost) ]]
local run, now, seq = ARGV[1], ARGV[2], tonumber(ARGV[3])
local held = rcall('HGET', R.meta, 'seq')
if held and tonumber(held) >= seq then return -6 end

reset_run_state(run, now, seq)
local events = new_events()
add_event(events, 'run.recovered', nil, nil, ARGV[10])
local at = restore_routing_state(11)

local in_flight = 0
local joins = {}
for _ = 1, tonumber(ARGV[at]) do
  local token, place, field, dependency = ARGV[at + 1], ARGV[at + 2], ARGV[at + 3], ARGV[at + 4]
  rcall('HSET', R.tokens, token, place)
  joins[field] = joins[field] or {}
  joins[field][dependency] = token
  in_flight = in_flight + 1
  at = at + 4
end
at = at + 1
for field, by_dependency in pairs(joins) do
  rcall('HSET', R.joins, field, cjson.encode(by_dependency))
end

for _ = 1, tonumber(ARGV[at]) do
  rcall('HSET', R.approvals, ARGV[at + 1], ARGV[at + 2])
  at = at + 2
end
at = at + 1

local parked = tonumber(ARGV[at])
for _ = 1, parked do
  local token = ARGV[at + 1]
  rcall('HSET', R.tokens, token, ARGV[at + 2])
  rcall('HSET', R.retries, token, ARGV[at + 4], 'p:' .. token, ARGV[at + 3])
  in_flight = in_flight + 1
  at = at + 4
end
at = at + 1
rcall('HSET', R.meta, 'parked', parked)

for _ = 1, tonumber(ARGV[at]) do
  at = at + 1
  local kind, token, node, place = ARGV[at], ARGV[at + 1], ARGV[at + 2], ARGV[at + 3]
  local stream, first = KEYS[tonumber(ARGV[at + 4])], at + 6
  local last = first + tonumber(ARGV[at + 5]) - 1
  rcall('HSET', R.tokens, token, place)
  dispatch_task(R.retries, R.due, kind, run, now, token, node, stream, first, last)
  in_flight = in_flight + 1
  at = last
end
at = at + 1
if ARGV[at] and ARGV[at] ~= '' then
  rcall('ZADD', R.due, tonumber(ARGV[at]), 'deadline ' .. run)
end

rcall('SET', R.counter, in_flight)
if in_flight > parked then
  rcall('ZADD', R.active, now, run)
  set_meta(events, 'active', now)
end
flush_events(events, R.meta, R.events, run, now, seq)
return in_flight
