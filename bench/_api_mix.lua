-- wrk request script of bench/api_mix.ts: every thread walks the same list of
-- request paths (written by api_mix.ts from a seed), each from its own
-- starting point, so two runs on the same database send the same requests.
local paths = dofile(os.getenv("API_MIX_PATHS"))
local threads = 0
local index = 0

function setup(thread)
  thread:set("start", threads * 7919)
  threads = threads + 1
end

function init(args)
  index = start or 0
end

function request()
  index = index % #paths + 1
  return wrk.format("GET", paths[index])
end
