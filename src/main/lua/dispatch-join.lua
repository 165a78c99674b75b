--[[ Dispatch a join token, once: the coordinator resolved its input after the last arrival; put it on its node's
  task stream. The token has counted as in flight since join.completed, so the counter does not move.
  KEYS[1] meta  KEYS[2] tokens  KEYS[3] consumed  KEYS[4] task stream (same shard)
  ARGV[1] token id  ARGV[2] node  ARGV[3] now  ARGV[4] field count, then the token's fields
  Returns: 1 dispatched; -1 already dispatched; -2 unknown run; -3 token not in flight at this node; -4 not running ]]
local status = rcall('HGET', KEYS[1], 'status')
if not status then return -2 end
if status ~= 'RUNNING' then return -4 end
if rcall('HGET', KEYS[2], ARGV[1]) ~= ARGV[2] then return -3 end
if rcall('SADD', KEYS[3], 'd:' .. ARGV[1]) == 0 then return -1 end
local fields = read_fields(5, tonumber(ARGV[4]))
rcall('XADD', KEYS[4], '*', unpack(fields))
rcall('HSET', KEYS[1], 'last', ARGV[3])
return 1
