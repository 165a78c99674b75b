--[[ Let the Redis state of finished runs go once their events are persisted: expire (or delete) every key of each
  run and drop the runs from the active set, in one step however many runs a batch ended. A run that is running again
  (a failed run resumed since its failure was persisted) or compensating keeps its state.
  KEYS[1] active runs  KEYS[2..] the keys of the runs (same shard), ARGV[2] per run, its meta hash first
  ARGV[1] retention in milliseconds (0 deletes at once)  ARGV[2] keys per run  ARGV[3..] the run ids
  Returns: number of keys expired or deleted ]]
-- DEL and ZREM take many names at once, but unpack passes them on Lua's C stack (8,000 slots): in slices of this many
local SLICE = 1000
local function each_slice(list, call)
  for i = 1, #list, SLICE do
    call(unpack(list, i, math.min(i + SLICE - 1, #list)))
  end
end
local retention, per_run = tonumber(ARGV[1]), tonumber(ARGV[2])
local keys, runs = {}, {}
for i = 3, #ARGV do
  local first = 2 + (i - 3) * per_run
  local status = rcall('HGET', KEYS[first], 'status')
  if status ~= 'RUNNING' and status ~= 'COMPENSATING' then
    for k = first, first + per_run - 1 do keys[#keys + 1] = KEYS[k] end
    runs[#runs + 1] = ARGV[i]
  end
end
local touched = 0
if retention == 0 then
  each_slice(keys, function(...) touched = touched + rcall('DEL', ...) end)
else
  for _, key in ipairs(keys) do
    touched = touched + rcall('PEXPIRE', key, retention)
  end
end
each_slice(runs, function(...) rcall('ZREM', KEYS[1], ...) end)
return touched
