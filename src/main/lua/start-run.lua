--[[ Start a run: create its state, emit its entry tokens to their task streams (or, at a human node, create the
  approval that consumes the token), append run.started and one token.emitted per entry token.
  KEYS[1] meta  KEYS[2] counter  KEYS[3] tokens  KEYS[4] active runs  KEYS[5] events stream  KEYS[6] approvals
  KEYS[7] retries  KEYS[8] due times  KEYS[9..] task streams of the entry tokens (same shard)
  ARGV[1] run id  ARGV[2] now (epoch ms)  ARGV[3] workflow id  ARGV[4] workflow version  ARGV[5] ir revision
  ARGV[6] run input (JSON text)  ARGV[7] run.started data (JSON object text)  ARGV[8] number of entry tokens
  then per token: a task kind (the prelude's dispatch_task), token id, node, token.emitted data
              (JSON), stream KEYS index, field count, fields...
              or 'human', token id, node, token.emitted data, approval id, approval.requested data
  then the number of entry nodes with a hop limit (limits.max_hops) and their ids: each counts its entry token
  (meta 'hops:<node>', see the prelude's past_hop_limit)
  then (optional) the run's deadline in ms: it is due to end then (a member of the shard's due times)
  Returns: number of tokens in flight, or -1 when the run exists already ]]
if rcall('EXISTS', KEYS[1]) == 1 then return -1 end
local run, now = ARGV[1], ARGV[2]
rcall('HSET', KEYS[1], 'status', 'RUNNING', 'seq', 0, 'workflow', ARGV[3], 'version', ARGV[4],
  'revision', ARGV[5], 'input', ARGV[6], 'created', now, 'last', now)
local events = new_events()
add_event(events, 'run.started', nil, nil, ARGV[7])
local n = 0
local at = 9
for _ = 1, tonumber(ARGV[8]) do
  local kind, token, node, data = ARGV[at], ARGV[at + 1], ARGV[at + 2], ARGV[at + 3]
  add_event(events, 'token.emitted', node, token, data)
  if kind == 'human' then
    request_approval(KEYS[6], events, node, token, ARGV[at + 4], ARGV[at + 5])
    at = at + 6
  else
    local stream, first = KEYS[tonumber(ARGV[at + 4])], at + 6
    at = first + tonumber(ARGV[at + 5])
    rcall('HSET', KEYS[3], token, node)
    dispatch_task(KEYS[7], KEYS[8], kind, run, now, token, node, stream, first, at - 1)
    n = n + 1
  end
end
local limited = tonumber(ARGV[at])
for i = 1, limited do rcall('HSET', KEYS[1], 'hops:' .. ARGV[at + i], 1) end
at = at + limited + 1
if ARGV[at] and ARGV[at] ~= '' then
  rcall('ZADD', KEYS[8], tonumber(now) + tonumber(ARGV[at]), 'deadline ' .. run)
end
rcall('SET', KEYS[2], n)
-- a run that waits only for people stays off the active set, so the inactivity timeout spares it
if n > 0 then rcall('ZADD', KEYS[4], now, run) end
flush_events(events, KEYS[1], KEYS[5], run, now)
return n
