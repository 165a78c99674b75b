--[[ Let the Redis state of finished runs go once their events are persisted: expire (or delete) every key of each
  run and drop the runs from the active set, in one step however many runs a batch ended.
  KEYS[1] active runs  KEYS[2..] the keys of the runs (same shard)
  ARGV[1] retention in milliseconds (0 deletes at once)  ARGV[2..] the run ids
  Returns: number of keys expired or deleted ]]
-- DEL and ZREM take many names at once, but unpack passes them on Lua's C stack (8,000 slots): in slices of this many
local SLICE = 1000
local function each_slice(list, from, call)
  for i = from, #list, SLICE do
    call(unpack(list, i, math.min(i + SLICE - 1, #list)))
  end
end
local retention = tonumber(ARGV[1])
local touched = 0
if retention == 0 then
  each_slice(KEYS, 2, function(...) touched = touched + rcall('DEL', ...) end)
else
  for i = 2, #KEYS do
    touched = touched + rcall('PEXPIRE', KEYS[i], retention)
  end
end
each_slice(ARGV, 2, function(...) rcall('ZREM', KEYS[1], ...) end)
return touched
