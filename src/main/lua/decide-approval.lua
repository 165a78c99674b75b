--[[ Decide a pending approval, once: remove it from the run's pending approvals, record the decision, keep the human
  node's output (its input with the decision) in the run's context and send tokens on — approve: the node's
  dependents; reject: its rejection path. A reject with no rejection path fails the run.
  KEYS: the run's routing keys (see the prelude), then the task streams of emitted tokens
  ARGV[1] run id  ARGV[2] now  ARGV[3] approval id  ARGV[4] human node  ARGV[5] completed|failed
  ARGV[6] the node's output to keep in ctx (JSON text)  ARGV[7] approval.decided data (JSON object text)
  ARGV[8..] the emissions, as the prelude's emit_tokens reads them (hop limits, count, emissions)
  Returns: counter after the step; -1 not pending (decided already, or unknown), -2 unknown run, -4 not running ]]
local run, now, approval, node = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local status = rcall('HGET', R.meta, 'status')
if not status then return -2 end
if status ~= 'RUNNING' then return -4 end
local pending = rcall('HGET', R.approvals, approval)
if not pending then return -1 end
rcall('HDEL', R.approvals, approval)
local token = cjson.decode(pending).token

local events = new_events()
add_event(events, 'approval.decided', node, token, ARGV[7])
if ARGV[5] == 'failed' then
  fail_run(run, now, events, node, 'Approval at ' .. node .. ' was rejected and the node has no rejection path')
  flush_events(events, R.meta, R.events, run, now)
  return 0
end
rcall('HSET', R.ctx, node, ARGV[6])
local _, delta, limited, over = emit_tokens(run, now, events, node, 8)
if over then
  fail_run(run, now, events, limited, over)
  flush_events(events, R.meta, R.events, run, now)
  return 0
end
local left = settle(run, now, events, delta)
flush_events(events, R.meta, R.events, run, now)
return left
