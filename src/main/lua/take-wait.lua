--[[ Take a held token out of its wait, once however many instances try: a timer that is due, a signal's timeout, or
  the signal it waited for. Sends the node's completion (or its timeout failure) on the completions stream, as a
  worker would, so the coordinator routes it like any other.
  KEYS[1] meta  KEYS[2] tokens  KEYS[3] the run's waits  KEYS[4] the shard's wait due times  KEYS[5] completions stream
  KEYS[6] the signal's index (a signal node; else KEYS[3] again)
  ARGV[1] token  ARGV[2] due member ('<run> <token>'; '' when none)  ARGV[3] index member ('' when none)
  ARGV[4..] the completion's fields and values
  Returns: 1 taken (the completion is sent); 0 not held (taken already); -3 the token is no longer in flight or the
  run is not running (the wait is dropped, nothing is sent) ]]
if ARGV[2] ~= '' then rcall('ZREM', KEYS[4], ARGV[2]) end
if ARGV[3] ~= '' then rcall('SREM', KEYS[6], ARGV[3]) end
if rcall('HDEL', KEYS[3], ARGV[1]) == 0 then return 0 end
if rcall('HGET', KEYS[1], 'status') ~= 'RUNNING' or not rcall('HGET', KEYS[2], ARGV[1]) then return -3 end
rcall('XADD', KEYS[5], '*', unpack(ARGV, 4, #ARGV))
return 1
