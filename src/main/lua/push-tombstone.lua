--[[ Push a tombstone onto an external agent job's result list and let the list expire (JobQueues says why): one
  step, so the list never stays without its time to live. A script rather than MULTI/EXEC, which a Redis Cluster
  connection does not offer.
  KEYS[1] the job's result list  ARGV[1] the tombstone  ARGV[2] time to live in milliseconds
  Returns: the list's length ]]
local length = rcall('RPUSH', KEYS[1], ARGV[1])
rcall('PEXPIRE', KEYS[1], ARGV[2])
return length
