--[[ Let the Redis state of finished runs go once their events are persisted: expire (or delete) every key of each
  run and drop the runs from the active set, in one step however many runs a batch ended.
  KEYS[1] active runs  KEYS[2..] the keys of the runs (same shard)
  ARGV[1] retention in milliseconds (0 deletes at once)  ARGV[2..] the run ids
  Returns: number of keys expired or deleted ]]
local retention = tonumber(ARGV[1])
local touched = 0
for i = 2, #KEYS do
  if retention == 0 then
    touched = touched + rcall('DEL', KEYS[i])
  else
    touched = touched + rcall('PEXPIRE', KEYS[i], retention)
  end
end
for i = 2, #ARGV do
  rcall('ZREM', KEYS[1], ARGV[i])
end
return touched
