--[[ Take a lease that nobody holds, or keep one its owner holds: the lease of a shard a supervisor writes the event
  log of (supervisor.ShardLeases). Its time to live starts again each time it is kept, so a lease whose owner died
  is free once it runs out.
  KEYS[1] the lease  ARGV[1] the owner  ARGV[2] the time to live (ms)
  Returns: 1 held by the owner now (taken or kept); 0 held by another owner ]]
local holder = rcall('GET', KEYS[1])
if holder == false then
  rcall('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
if holder == ARGV[1] then
  rcall('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
