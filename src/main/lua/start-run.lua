--[[ Start a run: create its state, emit its entry tokens to their task streams, append run.started and one
  token.emitted per entry token.
  KEYS[1] meta  KEYS[2] counter  KEYS[3] tokens  KEYS[4] active runs  KEYS[5] events stream
  KEYS[6..] task streams of the entry tokens (same shard)
  ARGV[1] run id  ARGV[2] now (epoch ms)  ARGV[3] workflow id  ARGV[4] workflow version  ARGV[5] ir revision
  ARGV[6] run input (JSON text)  ARGV[7] run.started data (JSON object text)  ARGV[8] number of entry tokens
  then per token: token id, node, token.emitted data (JSON), stream KEYS index, field count, fields...
  Returns: number of tokens emitted, or -1 when the run exists already ]]
if rcall('EXISTS', KEYS[1]) == 1 then return -1 end
local run, now = ARGV[1], ARGV[2]
rcall('HSET', KEYS[1], 'status', 'RUNNING', 'seq', 0, 'workflow', ARGV[3], 'version', ARGV[4],
  'revision', ARGV[5], 'input', ARGV[6], 'created', now, 'last', now)
local events = new_events()
add_event(events, 'run.started', nil, nil, ARGV[7])
local n = tonumber(ARGV[8])
local at = 9
for _ = 1, n do
  local token, node, data, stream = ARGV[at], ARGV[at + 1], ARGV[at + 2], KEYS[tonumber(ARGV[at + 3])]
  local fields
  fields, at = read_fields(at + 5, tonumber(ARGV[at + 4]))
  rcall('HSET', KEYS[3], token, node)
  rcall('XADD', stream, '*', unpack(fields))
  add_event(events, 'token.emitted', node, token, data)
end
rcall('SET', KEYS[2], n)
rcall('ZADD', KEYS[4], now, run)
flush_events(events, KEYS[1], KEYS[5], run, now)
return n
