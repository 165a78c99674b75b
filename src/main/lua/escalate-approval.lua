--[[ Escalate a pending approval whose time ran out: it now waits for another group of approvers.
  KEYS[1] meta  KEYS[2] approvals  KEYS[3] events stream
  ARGV[1] run id  ARGV[2] now  ARGV[3] approval id  ARGV[4] the pending entry as read (JSON text)
  ARGV[5] the pending entry escalated (JSON text)  ARGV[6] approval.escalated data (JSON object text)
  Returns: 1 escalated; -1 not pending, or changed since it was read; -2 unknown run; -4 not running ]]
local status = rcall('HGET', KEYS[1], 'status')
if not status then return -2 end
if status ~= 'RUNNING' then return -4 end
local pending = rcall('HGET', KEYS[2], ARGV[3])
if pending ~= ARGV[4] then return -1 end
rcall('HSET', KEYS[2], ARGV[3], ARGV[5])
local entry = cjson.decode(pending)
local events = new_events()
add_event(events, 'approval.escalated', entry.node, entry.token, ARGV[6])
rcall('HSET', KEYS[1], 'last', ARGV[2])
flush_events(events, KEYS[1], KEYS[3], ARGV[1], ARGV[2])
return 1
