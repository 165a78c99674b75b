--[[ Route one completion: consume the token, store the node's output, move its loop's pass count, emit the next
  tokens (fan-out, or an arrival at a join; the last arrival turns the join into one join token announced on the
  completions stream), append the run's events, and complete the run when no token is in flight and no join is
  pending. A failed node fails the run.
  KEYS: the run's routing keys (see the prelude), then the task streams of emitted tokens
  ARGV[1] run id  ARGV[2] now  ARGV[3] token id  ARGV[4] node  ARGV[5] the token's place (node, or node#iteration)
  ARGV[6] ir revision  ARGV[7] completed|failed|caught (failed, and on_failure sends the error on: the run goes on)
  ARGV[8] ctx field (node)  ARGV[9] output to keep in ctx (JSON text; '' when failed)
  ARGV[10] node.completed / node.failed event data (JSON object text)
  ARGV[11] loop node ('' when the step leaves loops alone)  ARGV[12] its loops hash value as read ('' none)
  ARGV[13] its new value, <passes>@<entry iteration> ('' clears it)
  ARGV[14] for a pass back, the run's last handed-out iteration (meta iterations) as read: the pass's tokens are at
  the one after it ('' when the step hands out none)  ARGV[15] the run's hop limit (0: none)
  ARGV[16..] the emissions, as the prelude's emit_tokens reads them (hop limits, count, emissions)
  Returns: counter after the step; -1 already consumed (duplicate), -2 unknown run, -3 token not in flight at this
  node, -4 run not running, -6 stale IR revision, -7 the loop's pass count or the run's last iteration moved since it
  was read ]]
local run, now, token, node = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local loop_node = ARGV[11]
local state = rcall('HMGET', R.meta, 'status', 'revision', 'seq', 'hops', 'active', 'parked', 'iterations')
if not state[1] then return -2 end
-- consumed first: SADD's reply is the duplicate check; a refused step takes the token back out
if rcall('SADD', R.consumed, token) == 0 then return -1 end
local function refusal()
  if state[1] ~= 'RUNNING' then return -4 end
  if rcall('HGET', R.tokens, token) ~= ARGV[5] then return -3 end
  if state[2] ~= ARGV[6] then return -6 end
  if loop_node ~= '' and (rcall('HGET', R.loops, loop_node) or '') ~= ARGV[12] then return -7 end
  if ARGV[14] ~= '' and (state[7] or '0') ~= ARGV[14] then return -7 end
  return nil
end
local refused = refusal()
if refused then
  rcall('SREM', R.consumed, token)
  return refused
end

local events = new_events()
rcall('HDEL', R.tokens, token)
-- a kept task is let go; a parked one (a late completion of a task in the dead-letter queue) leaves the queue too
local unparked = rcall('HDEL', R.retries, token, 'p:' .. token) == 2
if unparked then set_meta(events, 'parked', tonumber(state[6]) - 1) end

local seq = tonumber(state[3])

if ARGV[7] == 'failed' then
  add_event(events, 'node.failed', node, token, ARGV[10])
  fail_run(run, now, events, node, 'Node ' .. node .. ' failed')
  flush_events(events, R.meta, R.events, run, now, seq)
  return 0
end

rcall('HSET', R.ctx, ARGV[8], ARGV[9])
add_event(events, ARGV[7] == 'caught' and 'node.failed' or 'node.completed', node, token, ARGV[10])
if unparked then
  add_event(events, 'node.unparked', node, token, '{"iteration":' .. (string.match(ARGV[5], '#(%d+)$') or '0') .. '}')
end
local max_hops = tonumber(ARGV[15])
if max_hops > 0 then
  local hops = (tonumber(state[4]) or 0) + 1
  set_meta(events, 'hops', hops)
  if hops > max_hops then
    fail_run(run, now, events, node, 'The run went past its limit of ' .. max_hops .. ' hops (tokenflow.run-limits.max-hops)')
    flush_events(events, R.meta, R.events, run, now, seq)
    return 0
  end
end
if loop_node ~= '' then
  if ARGV[13] == '' then rcall('HDEL', R.loops, loop_node) else rcall('HSET', R.loops, loop_node, ARGV[13]) end
end
if ARGV[14] ~= '' then set_meta(events, 'iterations', tonumber(ARGV[14]) + 1) end
local _, delta, limited, over = emit_tokens(run, now, events, node, 16)
if over then
  fail_run(run, now, events, limited, over)
  flush_events(events, R.meta, R.events, run, now, seq)
  return 0
end
local left = settle(run, now, events, delta - 1, state[5] or '')
flush_events(events, R.meta, R.events, run, now, seq)
return left
