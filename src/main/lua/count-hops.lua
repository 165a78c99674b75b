--[[ Add hops to a tenant's count of one minute, which expires once no sliding minute can need it.
  KEYS[1] the tenant's minute (RedisKeys.tenantHops)  ARGV[1] hops to add  ARGV[2] seconds the count is kept
  Returns: the minute's count ]]
local count = rcall('INCRBY', KEYS[1], ARGV[1])
rcall('EXPIRE', KEYS[1], ARGV[2])
return count
