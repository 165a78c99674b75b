--[[ Dispatch a join token, once: the coordinator resolved its input after the last arrival. A task node's token goes
  onto its task stream (it has counted as in flight since join.completed, so the counter does not move); at a human
  node the token is consumed by the approval it creates, as a token reaching a human node always is.
  KEYS: the run's routing keys (see the prelude), then the node's task stream (tasks only)
  ARGV[1] run id  ARGV[2] now  ARGV[3] token id  ARGV[4] its place (node, or node#iteration)  ARGV[5] a task kind
  (the prelude's dispatch_task) or human
  a task:  ARGV[6] field count, then the token's fields
  human: ARGV[6] node  ARGV[7] approval id  ARGV[8] approval.requested data
  Returns: task: 1 dispatched, human: the counter after the step; -1 already dispatched; -2 unknown run; -3 token not
  in flight at this node; -4 not running ]]
local run, now, token = ARGV[1], ARGV[2], ARGV[3]
local status = rcall('HGET', R.meta, 'status')
if not status then return -2 end
if status ~= 'RUNNING' then return -4 end
if rcall('SISMEMBER', R.consumed, token) == 1 then return -1 end
if rcall('HGET', R.tokens, token) ~= ARGV[4] then return -3 end

if ARGV[5] == 'human' then
  local events = new_events()
  rcall('SADD', R.consumed, token)
  rcall('HDEL', R.tokens, token)
  request_approval(R.approvals, events, ARGV[6], token, ARGV[7], ARGV[8])
  local left = settle(run, now, events, -1)
  flush_events(events, R.meta, R.events, run, now)
  return left
end

if rcall('SADD', R.consumed, 'd:' .. token) == 0 then return -1 end
dispatch_task(R.retries, R.due, ARGV[5], run, now, token, string.match(ARGV[4], '^[^#]+'), KEYS[14], 7,
  6 + tonumber(ARGV[6]))
rcall('HSET', R.meta, 'last', now)
return 1
