--[[ Resume a failed run: rebuild its state as it was when it failed (worked out from its event log) and re-emit the
  work the failure dropped or failed at, in one step. Whatever the run's keys still hold (within the retention of a
  finished run) is replaced, and their expiry cleared.
  KEYS: the run's routing keys (see the prelude), then the task streams of re-emitted tokens
  ARGV[1] run id  ARGV[2] now  ARGV[3] the seq of the run's last event (its run.failed)  ARGV[4] workflow id
  ARGV[5] workflow version  ARGV[6] ir revision  ARGV[7] run input (JSON text)  ARGV[8] created (epoch ms)
  ARGV[9] hops routed so far  ARGV[10] run.resumed data (JSON object text)
  ARGV[11] number of context entries, then each: node, output (JSON text as the context keeps it)
  then the number of loop pass counts, then each: loop node, its loops hash value (<passes>@<entry iteration>)
  then the run's last handed-out loop iteration (meta 'iterations'; 0: none)
  then the number of nodes with a hop limit (limits.max_hops), then each: node, tokens that reached it so far
  then the number of join arrivals waiting again, then each: token id, join node, place, token.emitted data,
    joins field (node#iteration), dependency, join.arrived data
  then the number of re-emitted tokens, then each:
    a task kind (the prelude's dispatch_task), token id, node, place, token.emitted data, stream KEYS index,
      field count, fields...
    or 'human', token id, node, place, token.emitted data, approval id, approval.requested data
  then the run's deadline in ms from now ('' for none): it is due to end then (a member of the shard's due times)
  Returns: number of tokens in flight; -4 the run is not failed (running again, completed, cancelled); -6 its state
  in Redis has events the resume did not see ]]
local run, now, seq = ARGV[1], ARGV[2], tonumber(ARGV[3])
local state = rcall('HMGET', R.meta, 'status', 'seq')
if state[1] and state[1] ~= 'FAILED' then return -4 end
if state[1] and tonumber(state[2]) ~= seq then return -6 end

reset_run_state(run, now, seq)
local events = new_events()
add_event(events, 'run.resumed', nil, nil, ARGV[10])

local at = restore_routing_state(11)

local in_flight = 0
local joins = {}
local arrivals = tonumber(ARGV[at])
at = at + 1
for _ = 1, arrivals do
  local token, node, place, data = ARGV[at], ARGV[at + 1], ARGV[at + 2], ARGV[at + 3]
  local field, dependency, arrived = ARGV[at + 4], ARGV[at + 5], ARGV[at + 6]
  rcall('HSET', R.tokens, token, place)
  add_event(events, 'token.emitted', node, token, data)
  add_event(events, 'join.arrived', node, token, arrived)
  joins[field] = joins[field] or {}
  joins[field][dependency] = token
  in_flight = in_flight + 1
  at = at + 7
end
for field, by_dependency in pairs(joins) do
  rcall('HSET', R.joins, field, cjson.encode(by_dependency))
end

local tokens = tonumber(ARGV[at])
at = at + 1
for _ = 1, tokens do
  local kind, token, node, place, data = ARGV[at], ARGV[at + 1], ARGV[at + 2], ARGV[at + 3], ARGV[at + 4]
  add_event(events, 'token.emitted', node, token, data)
  if kind == 'human' then
    request_approval(R.approvals, events, node, token, ARGV[at + 5], ARGV[at + 6])
    at = at + 7
  else
    local stream, first = KEYS[tonumber(ARGV[at + 5])], at + 7
    at = first + tonumber(ARGV[at + 6])
    rcall('HSET', R.tokens, token, place)
    dispatch_task(R.retries, R.due, kind, run, now, token, node, stream, first, at - 1)
    in_flight = in_flight + 1
  end
end
if ARGV[at] and ARGV[at] ~= '' then
  rcall('ZADD', R.due, tonumber(now) + tonumber(ARGV[at]), 'deadline ' .. run)
end

rcall('SET', R.counter, in_flight)
-- like a start: a run that waits only for people stays off the active set, so the inactivity timeout spares it
if in_flight > 0 then
  rcall('ZADD', R.active, now, run)
  set_meta(events, 'active', now)
end
flush_events(events, R.meta, R.events, run, now, seq)
return in_flight
