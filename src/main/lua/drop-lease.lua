--[[ Give a lease up, only if its owner still holds it (one that ran out may be another's now).
  KEYS[1] the lease  ARGV[1] the owner
  Returns: 1 given up; 0 not held by the owner ]]
if rcall('GET', KEYS[1]) == ARGV[1] then
  rcall('DEL', KEYS[1])
  return 1
end
return 0
