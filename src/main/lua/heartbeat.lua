--[[ A worker's heartbeat for a token it is still working on: the run counts as active (the inactivity timeout spares a
  long task) and the node's timeout, if it has one, starts again. Nothing is appended to the run's events.
  KEYS[1] meta  KEYS[2] tokens  KEYS[3] active runs  KEYS[4] due times
  ARGV[1] run id  ARGV[2] now  ARGV[3] token id  ARGV[4] node  ARGV[5] the new due time of its timeout ('' for none)
  Returns: 1; -2 unknown run; -3 token not in flight at this node; -4 run not running ]]
local status = rcall('HGET', KEYS[1], 'status')
if not status then return -2 end
if status ~= 'RUNNING' then return -4 end
local node = ARGV[4]
local place = rcall('HGET', KEYS[2], ARGV[3])
if not place or (place ~= node and string.sub(place, 1, #node + 1) ~= node .. '#') then return -3 end
rcall('HSET', KEYS[1], 'last', ARGV[2])
rcall('ZADD', KEYS[3], 'XX', ARGV[2], ARGV[1])
if ARGV[5] ~= '' then
  rcall('ZADD', KEYS[4], 'XX', ARGV[5], timeout_member(ARGV[1], ARGV[3], node))
end
return 1
