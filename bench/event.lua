-- wrk script: one spec-shaped event per request, telegram_id and event_name varied, value on purchases.
-- Settings come from the environment: BENCH_WORKSPACE, BENCH_KEY, BENCH_SESSION (1: the bot passes session_id),
-- BENCH_USERS (how many users, each with session s<telegram_id>; 5 million by default).
local names = {"REG", "FTD", "Subscribe", "DEP", "JoinRequest", "Purchase", "TRIAL", "Level Up"}
local monetary = {FTD = true, DEP = true, Purchase = true}
local workspace = os.getenv("BENCH_WORKSPACE")
local with_session = os.getenv("BENCH_SESSION") == "1"
local users = tonumber(os.getenv("BENCH_USERS") or "5000000")
local counter = 0

wrk.method = "POST"
wrk.path = "/api/v1/events/custom"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["x-api-key"] = os.getenv("BENCH_KEY")

function init(args)
  math.randomseed(os.time() + math.floor(os.clock() * 1000000))
  counter = math.random(0, #names - 1)
end

function request()
  counter = counter + 1
  local telegram_id = math.random(1, users)
  local name = names[(counter % #names) + 1]
  local body = '{"workspace_id":"' .. workspace .. '","event_name":"' .. name .. '","telegram_id":' .. telegram_id
  if with_session then
    body = body .. ',"session_id":"s' .. telegram_id .. '"'
  end
  if monetary[name] then
    body = body .. ',"value":49.99,"currency":"USD"'
  end
  body = body .. ',"user_data":{"email":"user' .. telegram_id .. '@example.com","client_ip":"203.0.113.7"}}'
  return wrk.format(nil, nil, nil, body)
end

function done(summary, latency, requests)
  io.write(string.format("RESULT requests=%d duration_us=%d status_errors=%d connect_errors=%d timeouts=%d "
      .. "p50_us=%d p99_us=%d max_us=%d\n", summary.requests, summary.duration, summary.errors.status,
      summary.errors.connect, summary.errors.timeout, latency:percentile(50), latency:percentile(99), latency.max))
end
