--[[ Reprocess a parked task: its kept fields go back onto the node's task stream as attempt 1 of a new series, with
  the input as it was or as given, and the run is watched by the inactivity timeout again. Appends node.reprocessed.
  KEYS[1] meta  KEYS[2] tokens  KEYS[3] kept tasks  KEYS[4] active runs  KEYS[5] events stream  KEYS[6] task stream
  KEYS[7] due times
  ARGV[1] run id  ARGV[2] now  ARGV[3] token id  ARGV[4] node  ARGV[5] the token's place  ARGV[6] dlq entry id
  ARGV[7] the new input (JSON text, '' keeps it)  ARGV[8] node.reprocessed data (JSON object text)
  ARGV[9] the node's timeout in ms ('' for none)
  Returns: 1 sent; -1 the entry is not parked any more (reprocessed or discarded); -2 unknown run; -3 token not in
  flight at this node; -4 run not running ]]
local run, now, token = ARGV[1], ARGV[2], ARGV[3]
local status = rcall('HGET', KEYS[1], 'status')
if not status then return -2 end
if status ~= 'RUNNING' then return -4 end
if rcall('HGET', KEYS[3], 'p:' .. token) ~= ARGV[6] then return -1 end
if rcall('HGET', KEYS[2], token) ~= ARGV[5] then return -3 end
local fields = cjson.decode(rcall('HGET', KEYS[3], token))
for i = 1, #fields, 2 do
  if fields[i] == 'attempt' then fields[i + 1] = '1' end
  if ARGV[7] ~= '' and (fields[i] == 'input' or fields[i] == 'input_ref') then
    fields[i], fields[i + 1] = 'input', ARGV[7]
  end
end
rcall('HSET', KEYS[3], token, cjson.encode(fields))
rcall('HDEL', KEYS[3], 'p:' .. token)
rcall('HINCRBY', KEYS[1], 'parked', -1)
rcall('XADD', KEYS[6], '*', unpack(fields))
if ARGV[9] ~= '' then
  rcall('ZADD', KEYS[7], tonumber(now) + tonumber(ARGV[9]), timeout_member(run, token, ARGV[4]))
end
rcall('ZADD', KEYS[4], now, run)
local events = new_events()
add_event(events, 'node.reprocessed', ARGV[4], token, ARGV[8])
set_meta(events, 'last', now)
set_meta(events, 'active', now)
flush_events(events, KEYS[1], KEYS[5], run, now)
return 1
