--[[ Start compensating an ended run: its status becomes COMPENSATING (until the last compensator reports), the steps
  after the first are kept in meta 'comp', and the first compensator's token goes to its task stream. The run's
  meta is made again from the arguments when Redis has let it go (a finished run is kept for the retention only), and
  the expiry of the keys this step writes is cleared.
  KEYS[1] meta  KEYS[2] counter  KEYS[3] tokens  KEYS[4] events stream  KEYS[5] retries  KEYS[6] due times
  KEYS[7] the first compensator's task stream
  ARGV[1] run id  ARGV[2] now  ARGV[3] the seq of the run's last event  ARGV[4] the status it ended in
  ARGV[5] workflow id  ARGV[6] version  ARGV[7] ir revision  ARGV[8] run input  ARGV[9] created (epoch ms)
  ARGV[10] compensation.started data  ARGV[11] the steps after the first (JSON array text, kept in meta 'comp')
  ARGV[12] first step: task kind  ARGV[13] token id  ARGV[14] compensating node  ARGV[15] place
  ARGV[16] token.emitted data  ARGV[17] field count  ARGV[18..] the token's fields
  Returns: 1 started; -4 the run is not ended (running, or compensating already); -6 Redis holds events of the run
  the caller did not see ]]
local run, now, seq = ARGV[1], ARGV[2], tonumber(ARGV[3])
local state = rcall('HMGET', KEYS[1], 'status', 'seq')
if state[1] and state[1] ~= 'COMPLETED' and state[1] ~= 'FAILED' and state[1] ~= 'CANCELLED' then return -4 end
if state[1] and tonumber(state[2]) ~= seq then return -6 end

rcall('PERSIST', KEYS[1])
rcall('DEL', KEYS[2], KEYS[3], KEYS[5])
rcall('HSET', KEYS[1], 'seq', seq, 'workflow', ARGV[5], 'version', ARGV[6], 'revision', ARGV[7], 'input', ARGV[8],
  'created', ARGV[9], 'status', 'COMPENSATING', 'ended', ARGV[4], 'comp', ARGV[11], 'last', now)
local events = new_events()
add_event(events, 'compensation.started', nil, nil, ARGV[10])
local token, node = ARGV[13], ARGV[14]
add_event(events, 'token.emitted', node, token, ARGV[16])
rcall('HSET', KEYS[3], token, ARGV[15])
rcall('SET', KEYS[2], 1)
dispatch_task(KEYS[5], KEYS[6], ARGV[12], run, now, token, node, KEYS[7], 18, 17 + tonumber(ARGV[17]))
flush_events(events, KEYS[1], KEYS[4], run, now, seq)
return 1
