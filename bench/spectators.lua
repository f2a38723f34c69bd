-- wrk script for the spectators of `make bench` (bench/day.py).
--   wrk ... -s bench/spectators.lua URL -- etag    each connection thread sends the ETag it
--                                                 last got (If-None-Match), as a phone does
--   wrk ... -s bench/spectators.lua URL -- plain   no ETag: every answer is a full 200
-- Counts the answers by status; done() prints one line "STATUS 200=... 304=... other=...".

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  mode = args[1] or "plain"
  etag = nil
  n200, n304, nother = 0, 0, 0
end

function request()
  local headers = { ["Accept-Encoding"] = "gzip" }
  if mode == "etag" and etag then
    headers["If-None-Match"] = etag
  end
  return wrk.format("GET", nil, headers)
end

function response(status, headers, body)
  if status == 200 then
    n200 = n200 + 1
    if mode == "etag" then
      etag = headers["ETag"] or headers["etag"]
    end
  elseif status == 304 then
    n304 = n304 + 1
  else
    nother = nother + 1
  end
end

function done(summary, latency, requests)
  local a, b, c = 0, 0, 0
  for _, t in ipairs(threads) do
    a = a + t:get("n200")
    b = b + t:get("n304")
    c = c + t:get("nother")
  end
  io.write(string.format("STATUS 200=%d 304=%d other=%d\n", a, b, c))
end
