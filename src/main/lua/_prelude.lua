--[[ Prelude prepended to every Tokenflow script (not a transition itself).
  Collects a step's events and appends them to the events stream in one XADD, numbered with the run's
  sequence (meta seq), so events and the state change they describe happen atomically. Fields of the run's meta hash
  that a step changes are collected with its events and written in one HSET when they are flushed. ]]
local rcall = redis.call

-- The active-runs set is scored by last activity; a running step refreshes a score older than this (ms) only. The
-- exact time is the meta field 'last'; the timeout detector checks it before failing a run (end-run.lua).
local ACTIVE_REFRESH_MS = 1000

local function json_string(value)
  if value == nil or value == false then return 'null' end
  return cjson.encode(value)
end

local function new_events()
  return { items = {}, meta = {} }
end

-- A field of the run's meta hash to write with the step's events (one HSET for all of them).
local function set_meta(events, field, value)
  local meta = events.meta
  meta[#meta + 1] = field
  meta[#meta + 1] = value
end

-- data: raw JSON object text (already valid JSON), or nil for {}
local function add_event(events, type, node, token, data)
  events.items[#events.items + 1] = { type, node, token, data or '{}' }
end

-- seq: the run's sequence as the step read it (its events' numbers then go out with the other meta fields), or nil
-- to count on from what meta holds
local function flush_events(events, meta_key, stream_key, run_id, now, seq)
  local n = #events.items
  local first
  if n > 0 and seq then
    first = seq + 1
    set_meta(events, 'seq', seq + n)
  elseif n > 0 then
    first = rcall('HINCRBY', meta_key, 'seq', n) - n + 1
  end
  if #events.meta > 0 then rcall('HSET', meta_key, unpack(events.meta)) end
  if n == 0 then return end
  local parts = {}
  for i, e in ipairs(events.items) do
    parts[i] = '{"seq":' .. (first + i - 1) .. ',"type":"' .. e[1] .. '","at":' .. now ..
      ',"node":' .. json_string(e[2]) .. ',"token":' .. json_string(e[3]) .. ',"data":' .. e[4] .. '}'
  end
  rcall('XADD', stream_key, '*', 'run', run_id, 'events', '[' .. table.concat(parts, ',') .. ']')
end

-- Reads `count` field/value pairs from ARGV starting at `at`; returns the list and the next index.
local function read_fields(at, count)
  local fields = {}
  for i = 0, count - 1 do fields[i + 1] = ARGV[at + i] end
  return fields, at + count
end

--[[ The keys of a run that routing steps share, in this order in every such script:
  KEYS[1] meta  KEYS[2] counter  KEYS[3] tokens  KEYS[4] consumed  KEYS[5] ctx  KEYS[6] joins  KEYS[7] active runs
  KEYS[8] events stream  KEYS[9] completions stream  KEYS[10] loops  KEYS[11] approvals  KEYS[12] retries
  KEYS[13] due times  KEYS[14..] task streams ]]
local R = { meta = KEYS[1], counter = KEYS[2], tokens = KEYS[3], consumed = KEYS[4], ctx = KEYS[5], joins = KEYS[6],
  active = KEYS[7], events = KEYS[8], completions = KEYS[9], loops = KEYS[10], approvals = KEYS[11],
  retries = KEYS[12], due = KEYS[13] }

-- The due-times member of a token's timeout (Java: coordinator.DueMember).
local function timeout_member(run, token, node)
  return 'timeout ' .. run .. ' ' .. token .. ' ' .. node
end

--[[ Puts a task token onto its stream. kind: 'task', or 'rtask' for a node whose tasks are kept (it retries or parks
  in the dead-letter queue), either followed by ':<ms>' when the node has a timeout: the token is then due to time
  out at now + ms (a member of the shard's due times, moved on by started and heartbeat signals). ]]
local function dispatch_task(retries_key, due_key, kind, run, now, token, node, stream, first, last)
  rcall('XADD', stream, '*', unpack(ARGV, first, last))
  if kind == 'task' then return end
  local base, timeout = string.match(kind, '^(%a+):?(%d*)$')
  if base == 'rtask' then
    rcall('HSET', retries_key, token, cjson.encode({ unpack(ARGV, first, last) }))
  end
  if timeout ~= '' then
    rcall('ZADD', due_key, tonumber(now) + tonumber(timeout), timeout_member(run, token, node))
  end
end

-- Whether an emission's kind is a task for a worker ('task', 'rtask', either with ':<timeout ms>').
local function is_task(kind)
  return kind == 'task' or kind == 'rtask' or string.find(kind, ':', 1, true) ~= nil
end

-- A token reaching a human node is consumed by the approval it creates: pending in the run's approvals hash.
local function request_approval(approvals_key, events, node, token, approval, request)
  rcall('HSET', approvals_key, approval, '{"node":' .. cjson.encode(node) .. ',"token":' .. cjson.encode(token) ..
    ',"request":' .. request .. '}')
  add_event(events, 'approval.requested', node, token, request)
end

-- How a join's token is dispatched once its last dependency arrives (see emit_tokens); nil: by the coordinator.
local function read_join_dispatch(at)
  local count = tonumber(ARGV[at])
  if count == 0 then return nil, at + 1 end
  local dependencies
  dependencies, at = read_fields(at + 1, count)
  local spec = { dependencies = dependencies, stream = KEYS[tonumber(ARGV[at])], input_at = tonumber(ARGV[at + 1]),
    limit = tonumber(ARGV[at + 2]) }
  spec.fields, at = read_fields(at + 4, tonumber(ARGV[at + 3]))
  return spec, at
end

--[[ Puts a completed join's token onto its task stream in the step that completed the join, its input the
  dependencies' outputs by id as the coordinator would merge them. Returns false, touching nothing, when an output is
  (or may be) a CAS reference or the input would not travel inline: the coordinator then resolves the input. ]]
local function dispatch_join(spec)
  local outputs = rcall('HMGET', R.ctx, unpack(spec.dependencies))
  local parts = {}
  for i, dependency in ipairs(spec.dependencies) do
    local output = outputs[i]
    if output and string.find(output, '"$ref"', 1, true) then return false end
    parts[i] = cjson.encode(dependency) .. ':' .. (output or 'null')
  end
  local input = '{' .. table.concat(parts, ',') .. '}'
  if #input > spec.limit then return false end
  spec.fields[spec.input_at] = input
  rcall('XADD', spec.stream, '*', unpack(spec.fields))
  return true
end

--[[ Reads the hop limits of a step's targets from ARGV `at`: their count, then per limited target its id and its
  limits.max_hops. Returns them by target (nil when there are none, so a step without limits does no more) and the
  next index. ]]
local function read_hop_limits(at)
  local count = tonumber(ARGV[at])
  if count == 0 then return nil, at + 1 end
  local limits = {}
  for i = 1, count do limits[ARGV[at + 2 * i - 1]] = tonumber(ARGV[at + 2 * i]) end
  return limits, at + 2 * count + 1
end

-- Counts a token reaching a node with a hop limit (meta 'hops:<node>', start-run.lua counts entry tokens); the run's
-- failure reason when it is one past the limit, else nil.
local function past_hop_limit(limits, target)
  local limit = limits and limits[target]
  if not limit or rcall('HINCRBY', R.meta, 'hops:' .. target, 1) <= limit then return nil end
  return 'Node ' .. target .. ' went past its limit of ' .. limit .. ' executions (limits.max_hops)'
end

--[[ Emits the tokens described in ARGV from `at`, sent on by node `from`: first the hop limits of their targets (see
  read_hop_limits), then the number of emissions and each emission. Returns the next ARGV index, the counter delta
  and, when a token would reach a node past its hop limit, the node and the reason, having stopped there: the caller
  then fails the run (which drops what the earlier emissions put in flight). Each emission:
    'task', token id, target, place, token.emitted data, stream KEYS index, field count, fields...
    'rtask', the same, for a node whose tasks are kept (see dispatch_task; either may end in ':<timeout ms>')
    'join', token id, target, place, token.emitted data, join field (target#iteration), expected arrivals,
            dependency, join token id, join token.emitted data, iteration, then how the join token is dispatched:
            '0' by the coordinator (JoinDispatcher), or the dependency count, the dependencies, the task stream's KEYS
            index, the index of the input value among the token's fields, the inline input limit in bytes, the field
            count and the token's fields (see dispatch_join)
    'human', token id, target, place, token.emitted data, approval id, approval.requested data
  A human node's token is consumed at once by the approval it creates: it waits in the approvals hash, not in the
  counter. ]]
local function emit_tokens(run, now, events, from, at)
  local limits, count
  limits, at = read_hop_limits(at)
  count, at = tonumber(ARGV[at]), at + 1
  local delta = 0
  for _ = 1, count do
    local kind, child, target, place, data = ARGV[at], ARGV[at + 1], ARGV[at + 2], ARGV[at + 3], ARGV[at + 4]
    if kind ~= 'join' then
      local over = past_hop_limit(limits, target)
      if over then return at, delta, target, over end
    end
    add_event(events, 'token.emitted', target, child, data)
    if is_task(kind) then
      local stream, first = KEYS[tonumber(ARGV[at + 5])], at + 7
      at = first + tonumber(ARGV[at + 6])
      rcall('HSET', R.tokens, child, place)
      dispatch_task(R.retries, R.due, kind, run, now, child, target, stream, first, at - 1)
      delta = delta + 1
    elseif kind == 'human' then
      request_approval(R.approvals, events, target, child, ARGV[at + 5], ARGV[at + 6])
      at = at + 7
    else
      local field, expected, dependency = ARGV[at + 5], tonumber(ARGV[at + 6]), ARGV[at + 7]
      local join_token, join_data, iteration = ARGV[at + 8], ARGV[at + 9], ARGV[at + 10]
      local dispatch
      dispatch, at = read_join_dispatch(at + 11)
      local arrivals = cjson.decode(rcall('HGET', R.joins, field) or '{}')
      arrivals[dependency] = child
      rcall('HSET', R.tokens, child, place)
      delta = delta + 1
      local arrived = 0
      for _ in pairs(arrivals) do arrived = arrived + 1 end
      add_event(events, 'join.arrived', target, child, '{"from":' .. cjson.encode(from) .. ',"iteration":' ..
        iteration .. ',"arrived":' .. arrived .. ',"expected":' .. expected .. '}')
      if arrived >= expected then
        local over = past_hop_limit(limits, target)
        if over then return at, delta, target, over end
        local ids = {}
        for _, parked in pairs(arrivals) do
          rcall('HDEL', R.tokens, parked)
          rcall('SADD', R.consumed, parked)
          ids[#ids + 1] = parked
        end
        delta = delta - arrived + 1
        rcall('HDEL', R.joins, field)
        rcall('HSET', R.tokens, join_token, place)
        if not (dispatch and dispatch_join(dispatch)) then
          rcall('XADD', R.completions, '*', 'kind', 'join', 'run', run, 'node', target, 'token', join_token,
            'iteration', iteration)
        end
        add_event(events, 'join.completed', target, join_token, '{"iteration":' .. iteration ..
          ',"arrivals":' .. cjson.encode(ids) .. '}')
        add_event(events, 'token.emitted', target, join_token, join_data)
      else
        rcall('HSET', R.joins, field, cjson.encode(arrivals))
      end
    end
  end
  return at, delta
end

--[[ Applies a step's counter delta and decides the run's fate: COMPLETED when no token is in flight, no join and
  no approval pending; off the active set (so the inactivity timeout spares it) while only people are awaited;
  else active. `active` is the meta field of that name as the step read it (the score the run last got in the
  active set, '' when it left the set), or nil when the step did not read it. Returns the counter. ]]
local function settle(run, now, events, delta, active)
  local left = rcall('INCRBY', R.counter, delta)
  set_meta(events, 'last', now)
  if left == 0 and rcall('HLEN', R.joins) == 0 then
    if rcall('HLEN', R.approvals) == 0 then
      set_meta(events, 'status', 'COMPLETED')
      add_event(events, 'run.completed', nil, nil, '{}')
    end
    rcall('ZREM', R.active, run)
    set_meta(events, 'active', '')
  elseif not active or active == '' or tonumber(now) - tonumber(active) >= ACTIVE_REFRESH_MS then
    rcall('ZADD', R.active, now, run)
    set_meta(events, 'active', now)
  end
  return left
end

-- Ends a running run as FAILED: drops its tokens, joins and approvals, reconciles the counter to 0.
local function fail_run(run, now, events, node, reason)
  local dropped = rcall('HLEN', R.tokens)
  rcall('DEL', R.tokens, R.joins, R.loops, R.approvals, R.retries)
  rcall('SET', R.counter, 0)
  rcall('HSET', R.meta, 'status', 'FAILED', 'last', now)
  rcall('ZREM', R.active, run)
  add_event(events, 'run.failed', node, nil, '{"reason":' .. cjson.encode(reason) .. ',"dropped":' .. dropped .. '}')
end

--[[ Writes back what a run's routing state held, as a resume or a recovery worked it out from the event log, from
  ARGV `at`: the number of context entries, then each: node, output (JSON text as the context keeps it); the number of
  loop pass counts, then each: loop node, its loops hash value (<passes>@<entry iteration>); the run's last handed-out
  loop iteration (meta 'iterations'; 0: none); the number of nodes with a hop limit, then each: node, tokens that
  reached it so far. Returns the next ARGV index. ]]
local function restore_routing_state(at)
  local function hash_pairs(key)
    local count = tonumber(ARGV[at])
    if count > 0 then rcall('HSET', key, unpack(ARGV, at + 1, at + 2 * count)) end
    at = at + 1 + 2 * count
  end
  hash_pairs(R.ctx)
  hash_pairs(R.loops)
  if tonumber(ARGV[at]) > 0 then rcall('HSET', R.meta, 'iterations', ARGV[at]) end
  local limited = tonumber(ARGV[at + 1])
  for i = 1, limited do rcall('HSET', R.meta, 'hops:' .. ARGV[at + 2 * i], ARGV[at + 2 * i + 1]) end
  return at + 2 + 2 * limited
end

--[[ Replaces whatever a run's keys hold (and their expiry) with a running state numbered on from `seq`, for a resume
  or a recovery to write the rest back: ARGV[4] workflow id  ARGV[5] workflow version  ARGV[6] ir revision
  ARGV[7] run input (JSON text)  ARGV[8] created (epoch ms)  ARGV[9] hops routed so far. ]]
local function reset_run_state(run, now, seq)
  rcall('DEL', R.meta, R.counter, R.tokens, R.consumed, R.ctx, R.joins, R.loops, R.approvals, R.retries)
  rcall('ZREM', R.due, 'deadline ' .. run)
  rcall('HSET', R.meta, 'status', 'RUNNING', 'seq', seq, 'workflow', ARGV[4], 'version', ARGV[5],
    'revision', ARGV[6], 'input', ARGV[7], 'created', ARGV[8], 'last', now, 'hops', ARGV[9], 'parked', 0)
end
