--[[ Reads, in one step, how far a run's token counter is from the tokens it holds in flight: every step that moves the
  counter adds or removes the same tokens in the tokens hash, so the two agree unless a step was lost or a key was
  changed by hand. Read-only; the supervisor's counter snapshots call it for the metric tokenflow.counter.divergence.
  KEYS[1] the run's counter  KEYS[2] the run's tokens hash
  Returns: the counter minus the tokens in flight; 0 when the run has no counter (it ended) ]]
local counter = rcall('GET', KEYS[1])
if not counter then return 0 end
return tonumber(counter) - rcall('HLEN', KEYS[2])
