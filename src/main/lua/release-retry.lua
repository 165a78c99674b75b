--[[ Release a retry that is due: put the token's kept fields (with the attempt retry-node.lua set) back on its node's
  task stream, once, however many coordinators see the same due time.
  KEYS[1] due times  KEYS[2] meta  KEYS[3] tokens  KEYS[4] retries  KEYS[5] the node's task stream
  ARGV[1] due-times member ("retry <run> <token> <node>")  ARGV[2] token id  ARGV[3] now
  ARGV[4] the node's timeout in ms ('' for none): the new attempt is due to time out then
  Returns: 1 released; -1 already released by another coordinator; -3 the token is no longer in flight (its run moved
  on, e.g. a patch or a late completion); -4 the run is not running (ended, or gone from Redis) ]]
if rcall('ZREM', KEYS[1], ARGV[1]) == 0 then return -1 end
local status = rcall('HGET', KEYS[2], 'status')
if status ~= 'RUNNING' then return -4 end
if not rcall('HGET', KEYS[3], ARGV[2]) then return -3 end
local kept = rcall('HGET', KEYS[4], ARGV[2])
if not kept then return -3 end
rcall('XADD', KEYS[5], '*', unpack(cjson.decode(kept)))
if ARGV[4] ~= '' then
  local run, token, node = string.match(ARGV[1], '^%a+ (%S+) (%S+) (%S+)$')
  rcall('ZADD', KEYS[1], tonumber(ARGV[3]) + tonumber(ARGV[4]), timeout_member(run, token, node))
end
rcall('HSET', KEYS[2], 'last', ARGV[3])
return 1
