--[[ Switch a running run to a new revision of its workflow, once, from the revision the patch was made against.
  Refused when a node the new revision removes holds a token in flight, a join arrival or a pending approval.
  KEYS[1] meta  KEYS[2] tokens  KEYS[3] joins  KEYS[4] approvals  KEYS[5] events stream
  ARGV[1] run id  ARGV[2] now  ARGV[3] expected revision  ARGV[4] new revision  ARGV[5] removed nodes (JSON array)
  ARGV[6] run.patched data (JSON object text)
  Returns: 1 switched; -2 unknown run; -4 not running; -6 not at the expected revision; -8 a removed node is live ]]
local state = rcall('HMGET', KEYS[1], 'status', 'revision')
if not state[1] then return -2 end
if state[1] ~= 'RUNNING' then return -4 end
if state[2] ~= ARGV[3] then return -6 end
local removed = {}
for _, node in ipairs(cjson.decode(ARGV[5])) do removed[node] = true end
if next(removed) ~= nil then
  local function node_of(place) return (string.gsub(place, '#%d+$', '')) end
  for _, place in ipairs(rcall('HVALS', KEYS[2])) do
    if removed[node_of(place)] then return -8 end
  end
  for _, field in ipairs(rcall('HKEYS', KEYS[3])) do
    if removed[node_of(field)] then return -8 end
  end
  for _, entry in ipairs(rcall('HVALS', KEYS[4])) do
    if removed[cjson.decode(entry).node] then return -8 end
  end
end
rcall('HSET', KEYS[1], 'revision', ARGV[4], 'last', ARGV[2])
local events = new_events()
add_event(events, 'run.patched', nil, nil, ARGV[6])
flush_events(events, KEYS[1], KEYS[5], ARGV[1], ARGV[2])
return 1
