#!/usr/bin/env bash
# Throughput benchmark of the packaged service: see bench/README.md.
#   bench/run.sh            full run: the ceilings and scenarios (a), (b), (c) (with two integrations, and four),
#                           about 8 minutes
#   bench/run.sh --smoke    the same table in small, a few seconds a scenario (exercised by BenchSmokeIT)
#   bench/run.sh --profile  also records the service (scenarios (a) and (c)) and the ceilings beside them
#                           (ceiling-durable, ceiling-forward) with JDK Flight Recorder, samples PostgreSQL's
#                           statements (bench/PgActivity.java), and prints both sides by library and by statement
#   bench/run.sh --soak     scenario (a) until 20 million events are stored (BENCH_SOAK_EVENTS), printing the
#                           insert rate of each million
#   bench/run.sh --report   the funnel report instead: scenario (a)'s rate without the report's rollups, with them
#                           (default budget), unbudgeted, and without the cohorts (in turn, the service restarted
#                           between), how far behind
#                           each run left the rollups and how long they took to catch up, then the report's latency over a month
#                           of rollups seeded as 10 million events leave them (bench/ReportLatency.java); with
#                           --smoke, the same in small
#   bench/run.sh --costs    the cost import instead: Meta's insights of 10,000 ads x 30 days (300,000 rows, from
#                           bench/FakeNetworks.java) polled and stored, and scenario (a)'s rate without a poll and
#                           with one running beside it, in three rounds (bench/SpendPollWatch.java); with --smoke, in
#                           small
#   bench/run.sh --parts    also prices each part of the service's insert statement: PostgreSQL alone with partition
#                           routing (the service's statement), without the (workspace_id, event_id) index, with the
#                           last_sessions upsert and with an empty outbox insert (bench/PgCeiling.java variants),
#                           and three designs of the delivery path's writes at (c)'s rate (deliver-*)
# Environment: DATABASE_URL (an external PostgreSQL instead of the embedded one), BENCH_PORT (default 18080),
# BENCH_KEEP=1 (keep the work directory with the logs), BENCH_HTTP_SERVER_METRICS=true (the service with Vert.x's
# per-request HTTP server meters, management.http_server_metrics, to price them); for --report,
# BENCH_REPORT_VARIANTS (some of: without with unbudgeted nocohorts), BENCH_REPORT_ROUNDS and BENCH_REPORT_LATENCY=0
# (no latency half).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=full
profile=0
soak=0
parts=0
report=0
costs=0
for arg in "$@"; do
  case "$arg" in
    --smoke) mode=smoke ;;
    --profile) profile=1 ;;
    --soak) soak=1 ;;
    --parts) parts=1 ;;
    --report) report=1 ;;
    --costs) costs=1 ;;
    -h | --help) sed -n '2,29p' "$0"; exit 0 ;;
    *) echo "bench: unknown option $arg (try --help)" >&2; exit 2 ;;
  esac
done
if [ "$mode" = smoke ]; then
  warmup=1; duration=3; forward_duration=3; drain=20; high=16; low=8; clicks=20000
  report_days=2; report_events=200000; report_requests=5; report_rounds=1; cohort_days=7
  cost_ads=1000; cost_rounds=1
else # (c) runs a minute: long enough to see whether its backlog grows
  warmup=10; duration=20; forward_duration=60; drain=120; high=256; low=64; clicks=200000
  report_days=30; report_events=10000000; report_requests=40; report_rounds=3; cohort_days=90
  cost_ads=10000; cost_rounds=3
fi

jar=target/event-router.jar
[ -f "$jar" ] || mvn -B -q package -DskipTests

if ! command -v wrk > /dev/null && [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
  echo "bench: installing wrk (Debian package)" >&2
  apt-get install -y -q wrk > /dev/null 2>&1 || { apt-get update -q > /dev/null && apt-get install -y -q wrk > /dev/null; }
fi
command -v wrk > /dev/null || { echo "bench: wrk is missing (Debian package wrk) and cannot be installed here" >&2; exit 3; }

port=${BENCH_PORT:-18080}
fake_port=$((port + 10))
management_port=$((port + 20))
ceiling_port=$((port + 30))
work=$(mktemp -d /tmp/event-router-bench.XXXXXX)
service_pid=
fake_pid=
ceiling_pid=

cleanup() {
  [ -n "$service_pid" ] && kill "$service_pid" 2> /dev/null && wait "$service_pid" 2> /dev/null || true
  [ -n "$fake_pid" ] && kill "$fake_pid" 2> /dev/null && wait "$fake_pid" 2> /dev/null || true
  [ -n "$ceiling_pid" ] && kill "$ceiling_pid" 2> /dev/null && wait "$ceiling_pid" 2> /dev/null || true
  if [ "${BENCH_KEEP:-0}" = 1 ]; then echo "bench: logs kept in $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

# One key opens one workspace: a key for the plain workspace, another for the forwarding one (hash-key wants 24
# characters or more, on its standard input).
key=bench-key-1-0123456789abcdef
key2=bench-key-2-0123456789abcdef
plain_ws=11111111-1111-4111-8111-111111111111
forward_ws=22222222-2222-4222-8222-222222222222
key3=bench-key-3-0123456789abcdef
report_ws=33333333-3333-4333-8333-333333333333
# ceiling-forward's events: a workspace the service does not have, so its forwarders' cursors (which read their own
# workspaces' events) never have to read past them while the scenarios after it are measured.
ceiling_ws=44444444-4444-4444-8444-444444444444
# (c) with four integrations: Meta, TikTok, Snapchat and Google Ads, its users' clicks captured with their ids.
key4=bench-key-4-0123456789abcdef
forward4_ws=55555555-5555-4555-8555-555555555555
unlimited='{"per_second": 1000000, "burst": 1000000}'
hash1=$(printf '%s' "$key" | java -jar "$jar" hash-key)
hash2=$(printf '%s' "$key2" | java -jar "$jar" hash-key)
hash3=$(printf '%s' "$key3" | java -jar "$jar" hash-key)
hash4=$(printf '%s' "$key4" | java -jar "$jar" hash-key)
# write_config [REPORTS] [costs]: the service's config, with REPORTS as its "reports" section when given, and with a
# Meta cost source (the fake's act_1, its first poll reading 30 days) on the report workspace given "costs".
write_config() {
  local reports="" cost_sources=""
  [ -z "${1:-}" ] || reports="\"reports\": $1,"
  [ "${2:-}" != costs ] || cost_sources=", \"cost_sources\": [{\"id\": \"bench-meta\", \"type\": \"meta\",
     \"ad_account_id\": \"1\", \"access_token\": \"bench-token\", \"api_base\": \"http://127.0.0.1:$fake_port\",
     \"allow_private_network\": true, \"initial_days\": 29}]"
  cat > "$work/config.json" << EOF
{
  "http": {"host": "127.0.0.1", "port": $port},
  "management": {"host": "127.0.0.1", "port": $management_port,
                 "http_server_metrics": ${BENCH_HTTP_SERVER_METRICS:-false}},
  "database": {"data_dir": "$work/postgres"${BENCH_DATABASE:+, $BENCH_DATABASE}},
  $reports
  "workspaces": [
    {"id": "$plain_ws", "name": "bench", "api_keys": ["$hash1"], "rate_limit": $unlimited},
    {"id": "$forward_ws", "name": "bench-forward", "api_keys": ["$hash2"],
     "rate_limit": $unlimited,
     "integrations": [
       {"id": "meta", "type": "meta", "pixel_id": "1234567890", "access_token": "bench-token",
        "api_base": "http://127.0.0.1:$fake_port", "allow_private_network": true},
       {"id": "tiktok", "type": "tiktok", "pixel_code": "BENCH", "access_token": "bench-token",
        "api_base": "http://127.0.0.1:$fake_port", "page_url": "https://bench.example/",
        "allow_private_network": true}]},
    {"id": "$forward4_ws", "name": "bench-forward-four", "api_keys": ["$hash4"],
     "rate_limit": $unlimited,
     "integrations": [
       {"id": "meta", "type": "meta", "pixel_id": "1234567890", "access_token": "bench-token",
        "api_base": "http://127.0.0.1:$fake_port", "allow_private_network": true},
       {"id": "tiktok", "type": "tiktok", "pixel_code": "BENCH", "access_token": "bench-token",
        "api_base": "http://127.0.0.1:$fake_port", "page_url": "https://bench.example/",
        "allow_private_network": true},
       {"id": "snapchat", "type": "snapchat", "pixel_id": "bench-pixel", "access_token": "bench-token",
        "api_base": "http://127.0.0.1:$fake_port", "page_url": "https://bench.example/",
        "allow_private_network": true},
       {"id": "google", "type": "google_ads", "customer_id": "1234567890", "developer_token": "bench-token",
        "client_id": "bench", "client_secret": "bench-secret", "refresh_token": "bench-refresh",
        "token_url": "http://127.0.0.1:$fake_port/token", "api_base": "http://127.0.0.1:$fake_port",
        "allow_private_network": true,
        "conversion_actions": {"REG": "1", "FTD": "2", "Subscribe": "3", "DEP": "2", "JoinRequest": "3",
                               "Purchase": "2", "TRIAL": "4", "Level Up": "5"}}]},
    {"id": "$report_ws", "name": "bench-report", "api_keys": ["$hash3"], "rate_limit": $unlimited$cost_sources}
  ]
}
EOF
}
start_service() {
  java -Xmx512m -jar "$jar" --config "$work/config.json" >> "$work/service.log" 2>&1 &
  service_pid=$!
}
stop_service() {
  kill "$service_pid" 2> /dev/null && wait "$service_pid" 2> /dev/null || true
  service_pid=
}
write_config

java -Xmx512m -Dbench.ads="$cost_ads" -cp "$jar" bench/FakeNetworks.java "$fake_port" > "$work/fake.log" 2>&1 &
fake_pid=$!
start_service

wait_for() { # url seconds
  local deadline=$((SECONDS + $2))
  until curl -fs -o /dev/null "$1"; do
    [ $SECONDS -lt $deadline ] || { echo "bench: $1 did not answer within $2 s; see $work" >&2; BENCH_KEEP=1; exit 4; }
    sleep 0.2
  done
}
wait_for "http://127.0.0.1:$port/health" 90
wait_for "http://127.0.0.1:$fake_port/stats" 60

clk=$(getconf CLK_TCK)
ticks() { # CPU ticks (user + system) of each given pid, as "pid:ticks" words
  local pid
  for pid in "$@"; do
    [ -r "/proc/$pid/stat" ] && awk -v pid="$pid" '{printf "%s:%d ", pid, $14 + $15}' "/proc/$pid/stat" 2> /dev/null
  done
  echo
}
# spent BEFORE AFTER: the ticks spent between two ticks samples by the processes in both. A process that ended
# in between (a PostgreSQL backend, an autovacuum worker) is left out rather than subtracting its whole past.
spent() {
  python3 -c 'import sys
before, after = (dict(w.split(":") for w in a.split()) for a in sys.argv[1:])
print(sum(int(t) - int(before[p]) for p, t in after.items() if p in before))' "$1" "$2"
}
# The embedded server's postmaster (its command line names the data directory) and all its backends.
postgres_pids() {
  local postmaster
  for postmaster in $(pgrep -f -- "-D $work/postgres" || true); do
    echo "$postmaster $(pgrep -P "$postmaster" | tr '\n' ' ')"
  done
}
machine_ticks() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8}' /proc/stat; }
# What a run measures: the service (target=service) or the durable ceiling (target=ceiling), which has no metrics
# endpoint but counts its stored events and commits at /stats.
target=service
ceiling_stat() { curl -fs "http://127.0.0.1:$ceiling_port/stats" | python3 -c "import json, sys; print(json.load(sys.stdin)['$1'])"; }
stored() {
  if [ "$target" = ceiling ]; then ceiling_stat stored; return; fi
  curl -fs "http://127.0.0.1:$management_port/metrics" | awk '/^event_router_events_stored_total/ {s += $NF} END {printf "%d", s}'
}
commits() {
  if [ "$target" = ceiling ]; then ceiling_stat commits; return; fi
  curl -fs "http://127.0.0.1:$management_port/metrics" | awk '/^event_router_write_commits_total/ {s += $NF} END {printf "%d", s}'
}
heap() {
  [ "$target" = ceiling ] && { echo 0; return; }
  curl -fs "http://127.0.0.1:$management_port/metrics" | awk '/^jvm_memory_used_bytes\{.*area="heap"/ {s += $NF} END {printf "%d", s}'
}
fake_stats() { curl -fs "http://127.0.0.1:$fake_port/stats"; }

# The fakes a forwarding scenario's events are owed to (BENCH_NETWORKS, space-separated).
export BENCH_NETWORKS="meta tiktok"
# delivered_all N: waits (up to the drain time) until each of the scenario's fakes holds N distinct events.
delivered_all() {
  local deadline=$((SECONDS + drain))
  until python3 -c 'import json, os, sys; s = json.loads(sys.argv[1]); sys.exit(min(s[n]["unique"] for n in os.environ["BENCH_NETWORKS"].split()) < int(sys.argv[2]))' \
      "$(fake_stats)" "$1"; do
    [ $SECONDS -lt $deadline ] || return 1
    sleep 0.5
  done
}

results="$work/results.jsonl"
: > "$results"

jdk_bin=$(dirname "$(readlink -f "$(command -v java)")")

# run NAME WORKSPACE KEY SESSION(0/1) CONNECTIONS FORWARDED(0/1) [PROFILE(0/1)]
run() {
  local name=$1 ws=$2 k=$3 session=$4 conns=$5 forwarded=$6 record=${7:-0}
  export BENCH_WORKSPACE=$ws BENCH_KEY=$k BENCH_SESSION=$session
  local at_port=$port at_pid=$service_pid
  [ "$target" = ceiling ] && { at_port=$ceiling_port; at_pid=$ceiling_pid; }
  local before
  before=$(stored)
  [ "$forwarded" = 1 ] && curl -fs -X POST "http://127.0.0.1:$fake_port/reset" > /dev/null
  wrk -t2 -c"$conns" -d"${warmup}s" -s bench/event.lua "http://127.0.0.1:$at_port" > /dev/null
  if [ "$forwarded" = 1 ]; then # let the warm-up's deliveries arrive, then count from zero
    delivered_all $(($(stored) - before)) || echo "bench: the warm-up's deliveries did not all arrive" >&2
    curl -fs -X POST "http://127.0.0.1:$fake_port/reset" > /dev/null
  fi
  local stored0 commits0 pg svc0 pg0 fake0 all0 peak=0 h
  stored0=$(stored); commits0=$(commits); pg=$(postgres_pids)
  svc0=$(ticks "$at_pid"); pg0=$(ticks $pg); fake0=$(ticks "$fake_pid"); all0=$(machine_ticks)
  [ "$record" = 1 ] && "$jdk_bin/jcmd" "$at_pid" JFR.start name=bench settings=profile \
    filename="$work/$name.jfr" > /dev/null
  local seconds=$duration started=$SECONDS backlog="$work/backlog-$name.txt"
  [ "$forwarded" = 1 ] && seconds=$forward_duration
  : > "$backlog"
  local sampler=""
  if [ "$record" = 1 ]; then # PostgreSQL's side of the profile: its statements, sampled over the same seconds
    java -Xmx128m -cp "$jar" bench/PgActivity.java "$(pg_url)" "$seconds" "$work/$name.pg.txt" &
    sampler=$!
  fi
  wrk -t2 -c"$conns" -d"${seconds}s" -s bench/event.lua "http://127.0.0.1:$at_port" > "$work/wrk-$name.txt" &
  local wrk_pid=$!
  while kill -0 "$wrk_pid" 2> /dev/null; do
    h=$(heap); [ "${h:-0}" -gt "$peak" ] && peak=$h
    # The backlog each second: events stored (each owed to every fake of the scenario) less the deliveries they hold.
    [ "$forwarded" = 1 ] && python3 -c 'import json, os, sys
s = json.loads(sys.argv[3]); n = os.environ["BENCH_NETWORKS"].split()
print(int(sys.argv[1]), len(n) * int(sys.argv[2]) - sum(s[k]["unique"] for k in n))' \
      "$((SECONDS - started))" "$(($(stored) - stored0))" "$(fake_stats)" >> "$backlog"
    sleep 1
  done
  wait "$wrk_pid"
  [ "$record" = 1 ] && "$jdk_bin/jcmd" "$at_pid" JFR.stop name=bench > /dev/null
  [ -n "$sampler" ] && { wait "$sampler" || echo "bench: PgActivity failed" >&2; }
  local svc1 pg1 fake1 all1 stored1 at_end after_drain=""
  svc1=$(ticks "$at_pid"); pg1=$(ticks $pg); fake1=$(ticks "$fake_pid"); all1=$(machine_ticks)
  stored1=$(stored)
  local commits1
  commits1=$(commits)
  at_end=$(fake_stats)
  if [ "$forwarded" = 1 ]; then
    delivered_all $((stored1 - stored0)) || true
    after_drain=$(fake_stats)
  fi
  python3 - "$name" "$conns" "$work/wrk-$name.txt" "$((stored1 - stored0))" "$(spent "$svc0" "$svc1")" "$(spent "$pg0" "$pg1")" \
      "$(spent "$fake0" "$fake1")" "$((all1 - all0))" "$clk" "$peak" "$(awk '/VmHWM/ {print $2}' "/proc/$at_pid/status")" \
      "$forwarded" "$at_end" "${after_drain:-null}" "$((commits1 - commits0))" "$backlog" >> "$results" << 'EOF'
import json, os, sys
(name, conns, wrk_out, accepted, svc, pg, fake, total, clk, heap, rss, forwarded, at_end, after, commits,
 backlog) = sys.argv[1:]
networks = os.environ["BENCH_NETWORKS"].split()
fields = dict(kv.split("=") for kv in open(wrk_out).read().split("RESULT ", 1)[1].split())
seconds = int(fields["duration_us"]) / 1e6
cores = lambda ticks: int(ticks) / int(clk) / seconds
row = {"scenario": name, "connections": int(conns), "requests": int(fields["requests"]),
       "accepted": int(accepted), "seconds": seconds,
       "per_second": int(accepted) / seconds, "requests_per_second": int(fields["requests"]) / seconds,
       "errors": int(fields["status_errors"]) + int(fields["connect_errors"]) + int(fields["timeouts"]),
       "p50_ms": int(fields["p50_us"]) / 1000, "p99_ms": int(fields["p99_us"]) / 1000,
       "max_ms": int(fields["max_us"]) / 1000, "heap_mb": int(heap) / 2**20, "rss_mb": int(rss) / 1024,
       "per_commit": int(accepted) / max(1, int(commits)),
       "cpu": {"service": cores(svc), "postgres": cores(pg), "fakes": cores(fake),
               "load and rest": cores(int(total) - int(svc) - int(pg) - int(fake))}}
if forwarded == "1":
    end, after = json.loads(at_end), json.loads(after)
    row["networks"] = len(networks)
    row["delivered_per_second"] = min(end[n]["unique"] for n in networks) / seconds
    row["delivered_by_network"] = {n: end[n]["unique"] / seconds for n in networks}
    row["backlog_at_end"] = sum(int(accepted) - end[n]["unique"] for n in networks)
    row["lost"] = sum(max(0, int(accepted) - after[n]["unique"]) for n in networks)
    row["duplicated"] = sum(after[n]["received"] - after[n]["unique"] for n in networks)
    # Growth of the backlog: the least-squares slope of its samples after the first third of the run (the start
    # fills the pipeline), in events per second; a backlog that keeps pace stays near 0.
    samples = [tuple(map(int, line.split())) for line in open(backlog)]
    samples = samples[len(samples) // 3:]
    if len(samples) >= 2:
        mt = sum(t for t, _ in samples) / len(samples)
        mb = sum(b for _, b in samples) / len(samples)
        var = sum((t - mt) ** 2 for t, _ in samples)
        row["backlog_growth_per_second"] = sum((t - mt) * (b - mb) for t, b in samples) / var if var else 0.0
print(json.dumps(row))
EOF
}

# The database the service uses, for the PostgreSQL ceiling. The embedded server's password is new at each start
# and never logged: the service keeps the URL in the data directory (mode 0600).
pg_url() {
  if [ -n "${DATABASE_URL:-}" ]; then echo "$DATABASE_URL"; return; fi
  cat "$work/postgres/connection-url"
}

# ceiling_says LINE PID DEADLINE [EACH]: waits until the ceiling run prints LINE, running the command EACH at every
# look; stops the benchmark if the run ends first.
ceiling_says() {
  until grep -qs "^$1\$" "$work/pg-ceiling.txt"; do
    [ -z "${4:-}" ] || "$4"
    kill -0 "$2" 2> /dev/null && [ $SECONDS -lt "$3" ] \
      || { echo "bench: the PostgreSQL ceiling did not print '$1'; see $work/pg-ceiling.txt" >&2; BENCH_KEEP=1; exit 4; }
    sleep 0.2
  done
}

ceiling_sample() { pg1=$(ticks $pg); all1=$(machine_ticks); }

# ceiling_postgres BATCH [VARIANT NAME [RATE]]: PostgreSQL alone, at the service's write pool size (8 connections) and
# commit size, with the statement of bench/PgCeiling.java's VARIANT (plain: the events rows only); the deliver-*
# variants insert at RATE events/s at most and deliver to both networks beside it.
ceiling_postgres() {
  local batch=$1 variant=${2:-plain} name=${3:-ceiling-postgres} rate=${4:-0} pg pg0 all0 pg1 all1 started=$SECONDS
  : > "$work/pg-ceiling.txt" # emptied before the run starts: what it prints is read as it comes
  java -Xmx512m -cp "$jar" bench/PgCeiling.java "$(pg_url)" 8 "$batch" "$warmup" "$duration" "$variant" "$rate" \
    > "$work/pg-ceiling.txt" 2>&1 &
  local ceiling_pid=$!
  ceiling_says measuring "$ceiling_pid" $((started + 60))
  pg=$(postgres_pids) # now with the ceiling's own connections
  pg0=$(ticks $pg); all0=$(machine_ticks); pg1=$pg0; all1=$all0
  # Its connections' backends end within moments of "measured": the last look before it (at most 0.2 s early) counts.
  ceiling_says measured "$ceiling_pid" $((started + 60 + duration)) ceiling_sample
  wait "$ceiling_pid"
  python3 - "$work/pg-ceiling.txt" "$batch" "$(spent "$pg0" "$pg1")" "$((all1 - all0))" "$clk" "$name" \
      >> "$results" << 'EOF'
import json, sys
(out, batch, pg, total, clk, name) = sys.argv[1:]
fields = dict(kv.split("=") for kv in open(out).read().split("RESULT ", 1)[1].split())
seconds = int(fields["duration_us"]) / 1e6
cores = lambda ticks: int(ticks) / int(clk) / seconds
row = {"scenario": name, "connections": 8, "per_second": int(fields["rows"]) / seconds,
       "per_commit": int(batch), "p50_ms": int(fields["p50_us"]) / 1000,
       "p99_ms": int(fields["p99_us"]) / 1000, "max_ms": int(fields["max_us"]) / 1000,
       "cpu": {"service": 0, "postgres": cores(pg), "fakes": 0, "load and rest": cores(int(total) - int(pg))}}
if "delivered" in fields: # written and delivered in PostgreSQL alone: nothing reaches a fake to be lost or doubled
    row.update({"delivered_per_second": int(fields["delivered"]) / seconds, "backlog_at_end": int(fields["backlog"]),
                "lost": "-", "duplicated": "-"})
print(json.dumps(row))
EOF
}

# soak: scenario (a) at the higher connection count until BENCH_SOAK_EVENTS are stored; the time of each million.
soak() {
  local target=${BENCH_SOAK_EVENTS:-20000000} base n next=1000000 peak=0 h marks
  export BENCH_WORKSPACE=$plain_ws BENCH_KEY=$key BENCH_SESSION=1
  wrk -t2 -c"$high" -d"${warmup}s" -s bench/event.lua "http://127.0.0.1:$port" > /dev/null
  base=$(stored)
  marks=$(date +%s.%N)
  wrk -t2 -c"$high" -d24h -s bench/event.lua "http://127.0.0.1:$port" > "$work/wrk-soak.txt" &
  local wrk_pid=$!
  while :; do
    n=$(($(stored) - base))
    while [ "$n" -ge "$next" ]; do
      marks="$marks $(date +%s.%N)"
      echo "bench: soak: $((next / 1000000)) million stored" >&2
      next=$((next + 1000000))
    done
    [ "$n" -lt "$target" ] || break
    kill -0 "$wrk_pid" 2> /dev/null || { echo "bench: wrk stopped early; see $work" >&2; BENCH_KEEP=1; exit 4; }
    h=$(heap); [ "${h:-0}" -gt "$peak" ] && peak=$h
    sleep 1
  done
  kill -INT "$wrk_pid"; wait "$wrk_pid" || true
  python3 - "$high" "$peak" "$(awk '/VmHWM/ {print $2}' "/proc/$service_pid/status")" \
      "$(du -sm "$work/postgres" 2> /dev/null | cut -f1)" $marks << 'EOF'
import sys
conns, heap, rss, disk, *marks = sys.argv[1:]
marks = [float(m) for m in marks]
rates = [1e6 / (b - a) for a, b in zip(marks, marks[1:])]
mean = len(rates) * 1e6 / (marks[-1] - marks[0])
print(f"\nsoak: {len(rates)} million events stored, scenario (a) at {conns} connections\n")
print("| million | seconds | events/s | of the first million | of the mean |")
print("|---|---|---|---|---|")
for i, rate in enumerate(rates):
    print(f"| {i + 1} | {1e6 / rate:.0f} | {rate:,.0f} | {rate / rates[0]:.0%} | {rate / mean:.0%} |")
worst = min(rates) / mean
print(f"\nslowest million: {worst:.0%} of the mean, {min(rates) / rates[0]:.0%} of the first (target at least 85% "
      f"of the mean: {'met' if worst >= 0.85 else 'MISSED'}); mean {mean:,.0f} events/s; peak heap "
      f"{int(heap) / 2**20:.0f} MB, peak RSS {int(rss) / 1024:.0f} MB; embedded data directory {disk or '-'} MB")
EOF
}

# report_bench: after a warm-up run, scenario (a) at the higher connection count without the report's rollups (a
# round an hour: the one at start only), with them kept every second (so their cost falls inside the measured
# seconds; the defaults, 15 s behind a 60 s lag, would move it after them) within the default budget
# (reports.rollup_budget_percent, 3), and with them unbudgeted (100), in turn (each round starting with the next), the
# service restarted between and PostgreSQL left quiet before each (bench/Settle.java); then the report's latency over
# a month.
# rollup_lag: seconds from the rollups' reach (the report's rolled_up_to) to now.
# rollup_lag [REPORT]: how many seconds behind now the funnel's rollups reach (REPORT cohorts: the cohorts').
rollup_lag() {
  curl -fs -H "x-api-key: $key" "http://127.0.0.1:$port/api/v1/reports/${1:-funnel}" | python3 -c 'import datetime, json, sys
upto = datetime.datetime.fromisoformat(json.load(sys.stdin)["data"]["rolled_up_to"].replace("Z", "+00:00"))
print(int((datetime.datetime.now(datetime.timezone.utc) - upto).total_seconds()))'
}
# caught_up SECONDS [REPORT]: waits until the rollups (REPORT cohorts: the cohorts) reach within 5 s of now.
caught_up() {
  local deadline=$((SECONDS + $1)) lag
  until lag=$(rollup_lag "${2:-funnel}") && [ "$lag" -lt 5 ]; do
    [ $SECONDS -lt $deadline ] || { echo "bench: the rollups did not catch up within $1 s" >&2; BENCH_KEEP=1; exit 4; }
    sleep 1
  done
}

report_bench() {
  local round i variant started
  # BENCH_REPORT_VARIANTS narrows the runs to some of the four (e.g. "with nocohorts" with BENCH_REPORT_ROUNDS=6: a
  # longer paired measurement of one difference); BENCH_REPORT_LATENCY=0 leaves out the latency half.
  local variants=(${BENCH_REPORT_VARIANTS:-without with unbudgeted nocohorts})
  local count=${#variants[@]}
  : > "$work/lags.txt"
  # A first run, not counted, on the service already started: the machine's and the fresh database's first minute is
  # slower than the rest (seen: a first run at half the rate of the next), and would fall on whichever variant came
  # first.
  run "a-warm-up" "$plain_ws" "$key" 1 "$high" 0
  for round in $(seq "${BENCH_REPORT_ROUNDS:-$report_rounds}"); do
    # Each round starts with the next variant (a Latin square), so a drift of the machine during the benchmark falls
    # on every variant alike instead of on the one that always runs first.
    for i in $(seq 0 $((count - 1))); do
      variant=${variants[$(( (i + round - 1) % count ))]}
      stop_service
      case $variant in
        without) write_config '{"rollup_every_ms": 3600000}' ;;
        with) write_config '{"rollup_every_ms": 1000, "rollup_lag_ms": 1000}' ;;
        unbudgeted) write_config '{"rollup_every_ms": 1000, "rollup_lag_ms": 1000, "rollup_budget_percent": 100}' ;;
        nocohorts) write_config '{"rollup_every_ms": 1000, "rollup_lag_ms": 1000, "cohorts": false}' ;;
      esac
      start_service
      wait_for "http://127.0.0.1:$port/health" 90
      # The runs without leave their events to the next run with: rolled up before it is measured, so it pays for
      # its own events only.
      [ "$variant" = without ] || caught_up 900
      # A run that keeps the cohorts pays for its own events' only: those of a run without them are caught up first.
      [ "$variant" = without ] || [ "$variant" = nocohorts ] || caught_up 900 cohorts
      # Every run starts on a quiet database: the dirty pages and autovacuums the run and catch-up before it left are
      # done first, so each run pays for its own events only.
      java -Xmx128m -cp "$jar" bench/Settle.java "$(pg_url)" 300
      run "a-$variant-rollups" "$plain_ws" "$key" 1 "$high" 0
      if [ "$variant" != without ]; then # how far behind the run left the rollups, and how long they took to catch up
        started=$SECONDS
        echo "$variant $(rollup_lag) $( caught_up 900; echo $((SECONDS - started)) )" >> "$work/lags.txt"
      fi
    done
  done
  if [ "${BENCH_REPORT_LATENCY:-1}" != 0 ]; then
    java -Xmx256m -cp "$jar" bench/ReportLatency.java "$(pg_url)" "$port" "$report_ws" "$key3" "$report_days" \
      "$report_events" "$report_requests" > "$work/report.txt" 2>&1 \
      || { cat "$work/report.txt" >&2; BENCH_KEEP=1; exit 4; }
    # The cohorts over 90 click days (a week in the smoke run) of the same workspace, after the funnel's shapes.
    java -Xmx256m -cp "$jar" bench/ReportLatency.java "$(pg_url)" "$port" "$report_ws" "$key3" "$cohort_days" \
      "$report_events" "$report_requests" cohorts > "$work/cohorts.txt" 2>&1 \
      || { cat "$work/cohorts.txt" >&2; BENCH_KEEP=1; exit 4; }
  fi
  python3 - "$results" "$work/report.txt" "$mode" "$high" "$work/lags.txt" "$work/cohorts.txt" << 'EOF'
import json, os, statistics, sys
results, report, mode, conns, lag_file, cohort_file = sys.argv[1:]
rows = [json.loads(line) for line in open(results)]
names = {"without": "without the rollups", "with": "with them (budget 3%)", "unbudgeted": "unbudgeted",
         "nocohorts": "with them, no cohorts"}
rates = {v: [r["per_second"] for r in rows if r["scenario"] == f"a-{v}-rollups"] for v in names}
variants = [v for v in names if rates[v]]
lags = {v: [line.split()[1:] for line in open(lag_file) if line.split()[0] == v] for v in variants}
print(f"\n{mode} report run: scenario (a) at {conns} connections after an uncounted warm-up run, runs in turn "
      f"{', '.join(names[v] for v in variants)} (the rollups a round every second, 1 s behind; no cohorts: "
      f"reports.cohorts false), each round starting with the next variant, the service restarted and PostgreSQL "
      f"left quiet before each; after each run with the rollups, how far behind they were and the seconds they took "
      f"to catch up\n")
# Each ratio is taken within a round (paired: the same stretch of the machine's time), then averaged.
pairs = [(a, b) for a, b in (("with", "without"), ("unbudgeted", "without"), ("with", "nocohorts"))
         if a in variants and b in variants]
print("| round | " + " | ".join(f"events/s {names[v]}" + (" (behind, caught up after)" if v != "without" else "")
                                 for v in variants) + "".join(f" | {a} / {b}" for a, b in pairs) + " |")
print("|---" * (1 + len(variants) + len(pairs)) + "|")
for i in range(min(len(rates[v]) for v in variants)):
    cells = [f"{rates[v][i]:,.0f}" + (f" ({lags[v][i][0]} s, {lags[v][i][1]} s)" if v != "without" else "")
             for v in variants]
    print(f"| {i + 1} | " + " | ".join(cells) + "".join(f" | {rates[a][i] / rates[b][i]:.1%}" for a, b in pairs)
          + " |")
share = {p: statistics.mean(rates[p[0]][i] / rates[p[1]][i] for i in range(min(len(rates[p[0]]), len(rates[p[1]]))))
         for p in pairs}
spread = {p: statistics.stdev(rates[p[0]][i] / rates[p[1]][i] for i in range(len(rates[p[1]])))
          if len(rates[p[1]]) > 1 else 0 for p in pairs}
print("| mean | " + " | ".join(f"{statistics.mean(rates[v]):,.0f}" for v in variants)
      + "".join(f" | {share[p]:.1%} (sd {spread[p]:.1%})" for p in pairs) + " |")
verdict = lambda ok: "met" if ok else "MISSED"
targets = []
if ("with", "without") in share:
    s = share[("with", "without")]
    targets.append(f"  ingest with the rollups (default budget): {s:.1%} of without (target 95% at least): "
                   f"{verdict(s >= 0.95)}")
if ("with", "nocohorts") in share:
    s = share[("with", "nocohorts")]
    targets.append(f"  ingest with the cohorts' bookkeeping: {s:.1%} of without it (target 95% at least): "
                   f"{verdict(s >= 0.95)}")
fields = lambda line: dict(kv.split("=", 1) for kv in line.split()[1:])
if os.path.exists(report):
    lines = open(report).read().splitlines()
    result = fields(next(l for l in lines if l.startswith("RESULT ")))
    print(f"\nthe report over {result['days']} days of rollups seeded as {int(result['events']):,} events leave "
          f"them ({int(result['rows']):,} rollup rows), one request at a time\n")
    print("| shape | p50 ms | p95 ms | max ms | answered | refused (503) |")
    print("|---|---|---|---|---|---|")
    for line in (l for l in lines if l.startswith("SHAPE ")):
        f = fields(line)
        print(f"| {f['name']} | {f['p50_ms']} | {f['p95_ms']} | {f['max_ms']} | {f['requests']} | {f['refused']} |")
    refused = sum(int(fields(l)["refused"]) for l in lines if l.startswith("SHAPE "))
    print(f"| **all shapes** | {result['p50_ms']} | {result['p95_ms']} | {result['max_ms']} "
          f"| {result['requests']} | {refused} |")
    cohort_lines = open(cohort_file).read().splitlines()
    cohorts = fields(next(l for l in cohort_lines if l.startswith("RESULT ")))
    print(f"\nthe cohorts over {cohorts['days']} click days ({int(cohorts['rows']):,} cohort rows), the default "
          f"ages, one request at a time\n")
    print("| shape | p50 ms | p95 ms | max ms | answered |")
    print("|---|---|---|---|---|")
    for line in (l for l in cohort_lines if l.startswith("SHAPE ")):
        f = fields(line)
        print(f"| {f['name']} | {f['p50_ms']} | {f['p95_ms']} | {f['max_ms']} | {f['requests']} |")
    print(f"| **both** | {cohorts['p50_ms']} | {cohorts['p95_ms']} | {cohorts['max_ms']} | {cohorts['requests']} |")
    full = "" if mode == "full" else ", over the full run only"
    p95, cohort_p95 = float(result["p95_ms"]), float(cohorts["p95_ms"])
    targets.append(f"  report p95: {p95:.0f} ms (target 300 ms at most{full}): {verdict(p95 <= 300)}")
    targets.append(f"  cohorts p95: {cohort_p95:.0f} ms (target 300 ms at most{full}): {verdict(cohort_p95 <= 300)}")
print("\ntargets:")
print("\n".join(targets))
EOF
}

# cost_bench: after a warm-up run, in rounds, scenario (a) at the higher connection count without a cost poll, then
# with one: PostgreSQL left quiet after each run (bench/Settle.java), the service restarted with the report
# workspace's Meta cost source and its state forgotten, so its first poll (30 days of the fake's ads) starts with the
# service and runs beside the measured seconds (paced by the host's load); then, the poll done, its state forgotten
# again, how long the next first poll takes on the idle service.
cost_bench() {
  local round rows=$((30 * cost_ads))
  # Rollups a second behind (as the report benchmark's), so caught_up can tell when a run's events are in them.
  local rollups='{"rollup_every_ms": 1000, "rollup_lag_ms": 1000}'
  : > "$work/polls.txt"
  run "a-warm-up" "$plain_ws" "$key" 1 "$high" 0
  for round in $(seq "$cost_rounds"); do
    stop_service
    write_config "$rollups"
    start_service
    wait_for "http://127.0.0.1:$port/health" 90
    java -Xmx128m -cp "$jar" bench/Settle.java "$(pg_url)" 300
    run "a-without-poll" "$plain_ws" "$key" 1 "$high" 0
    # The run's events rolled up and PostgreSQL left quiet again, so the run with the poll does not carry the one
    # without's leftovers; then forgotten while the service (and with it the embedded PostgreSQL) still runs,
    # without the source.
    caught_up 900
    java -Xmx128m -cp "$jar" bench/Settle.java "$(pg_url)" 300
    java -Xmx128m -cp "$jar" bench/SpendPollWatch.java reset "$(pg_url)" || { BENCH_KEEP=1; exit 4; }
    stop_service
    write_config "$rollups" costs
    start_service
    wait_for "http://127.0.0.1:$port/health" 90
    run "a-with-poll" "$plain_ws" "$key" 1 "$high" 0
    java -Xmx128m -cp "$jar" bench/SpendPollWatch.java wait "$port" "$key3" bench-meta "$rows" 1800 \
      > /dev/null || { BENCH_KEEP=1; exit 4; }
    caught_up 900
    java -Xmx128m -cp "$jar" bench/SpendPollWatch.java reset "$(pg_url)" || { BENCH_KEEP=1; exit 4; }
    java -Xmx128m -cp "$jar" bench/SpendPollWatch.java wait "$port" "$key3" bench-meta "$rows" 600 \
      >> "$work/polls.txt" || { BENCH_KEEP=1; exit 4; }
  done
  python3 - "$results" "$work/polls.txt" "$mode" "$high" "$rows" << 'EOF'
import json, statistics, sys
results, polls, mode, conns, rows = sys.argv[1:]
runs = [json.loads(line) for line in open(results)]
rate = lambda name: [r["per_second"] for r in runs if r["scenario"] == name]
without, with_poll = rate("a-without-poll"), rate("a-with-poll")
took = [float(dict(kv.split("=") for kv in line.split()[1:])["poll_seconds"]) for line in open(polls)]
print(f"\n{mode} cost run: scenario (a) at {conns} connections without a cost poll and with one beside it (Meta's "
      f"insights of {int(rows) // 30:,} ads x 30 days, {int(rows):,} rows, pages of 500), after an uncounted warm-up "
      f"run\n")
print("| round | events/s without | events/s with the poll | with / without | idle poll stored in |")
print("|---|---|---|---|---|")
for i, (a, b, t) in enumerate(zip(without, with_poll, took)):
    print(f"| {i + 1} | {a:,.0f} | {b:,.0f} | {b / a:.1%} | {t:.1f} s |")
share = statistics.mean(with_poll) / statistics.mean(without)
print(f"| mean | {statistics.mean(without):,.0f} | {statistics.mean(with_poll):,.0f} | {share:.1%} | "
      f"{statistics.mean(took):.1f} s |")
verdict = lambda ok: "met" if ok else "MISSED"
print("\ntargets:")
print(f"  ingest beside the poll: {share:.1%} of without (target 95% at least): {verdict(share >= 0.95)}")
print(f"  poll of {int(rows):,} rows stored in {max(took):.1f} s at most (target under 60 s"
      f"{'' if mode == 'full' else ', for 300,000 rows over the full run only'}): {verdict(max(took) < 60)}")
EOF
}

echo "bench: $mode$([ "$soak" = 1 ] && echo " soak") run on $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(date -u +%F)" >&2
# The server's memory, durability and checkpoint settings, which every figure below depends on.
java -Xmx128m -cp "$jar" bench/ServerSettings.java "$(pg_url)"
if [ "$soak" = 1 ]; then
  soak
  exit 0
fi
if [ "$costs" = 1 ]; then
  cost_bench
  exit 0
fi
if [ "$report" = 1 ]; then
  report_bench
  exit 0
fi
run ceiling-401 "$plain_ws" wrong-key 1 "$high" 0
# The durable ceiling, on the same PostgreSQL and events table, while the service stands idle; stopped before the
# service is measured.
java -Xmx512m -cp "$jar" bench/DurableCeiling.java "$ceiling_port" "$(pg_url)" "$plain_ws" \
  "$(printf '%s' "$key" | sha256sum | cut -d' ' -f1)" 8 > "$work/ceiling.log" 2>&1 &
ceiling_pid=$!
wait_for "http://127.0.0.1:$ceiling_port/stats" 60
target=ceiling
run ceiling-durable "$plain_ws" "$key" 1 "$high" 0
run ceiling-durable "$plain_ws" "$key" 1 "$low" 0
# Its profile beside the service's: the same load, recorded the same way.
[ "$profile" = 1 ] && run ceiling-profiled "$plain_ws" "$key" 1 "$high" 0 1
kill "$ceiling_pid"; wait "$ceiling_pid" 2> /dev/null || true; ceiling_pid=
# ceiling-forward: the same, on a workspace of its own, with a forwarder per network reading the stored events past
# a cursor and sending them to the fakes in the service's batches (500, 50 ms linger): (c)'s load and connections
# against the physical limit of storing durably and delivering each event once.
java -Xmx512m -cp "$jar" bench/DurableCeiling.java "$ceiling_port" "$(pg_url)" "$ceiling_ws" \
  "$(printf '%s' "$key2" | sha256sum | cut -d' ' -f1)" 8 "$fake_port" 500 50 > "$work/ceiling-forward.log" 2>&1 &
ceiling_pid=$!
wait_for "http://127.0.0.1:$ceiling_port/stats" 60
run ceiling-forward "$ceiling_ws" "$key2" 1 "$low" 1
[ "$profile" = 1 ] && run ceiling-forward-profiled "$ceiling_ws" "$key2" 1 "$low" 1 1
target=service
kill "$ceiling_pid"; wait "$ceiling_pid" 2> /dev/null || true; ceiling_pid=
run a-session-supplied "$plain_ws" "$key" 1 "$high" 0
run a-session-supplied "$plain_ws" "$key" 1 "$low" 0
run b-session-omitted "$plain_ws" "$key" 0 "$high" 0
run c-two-integrations "$forward_ws" "$key2" 1 "$low" 1
# (c) again with four integrations, its users' clicks captured first (each with a gclid and a Snapchat click id).
java -Xmx128m -cp "$jar" bench/Clicks.java "$(pg_url)" "$forward4_ws" "$clicks" > /dev/null
BENCH_NETWORKS="meta tiktok snapchat google_ads" BENCH_USERS=$clicks \
  run c-four-integrations "$forward4_ws" "$key4" 1 "$low" 1
# PostgreSQL alone, committing the rows of (a) at the commit size the service reached there.
a_batch=$(python3 -c 'import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
print(max(1, round(next(r for r in rows if r["scenario"] == "a-session-supplied")["per_commit"])))' "$results")
ceiling_postgres "$a_batch"
if [ "$parts" = 1 ]; then
  for variant in partitioned partitioned-no-workspace-index last-sessions empty-outbox; do
    ceiling_postgres "$a_batch" "$variant" "pg-$variant"
  done
  # The delivery path's writes, each design at (c)'s stored rate and commit size of this run (issue 45).
  read -r c_batch c_rate < <(python3 -c 'import json, sys
c = next(json.loads(l) for l in open(sys.argv[1]) if json.loads(l)["scenario"] == "c-two-integrations")
print(max(1, round(c["per_commit"])), round(c["per_second"]))' "$results")
  for variant in deliver-outbox deliver-locked deliver-cursor; do
    ceiling_postgres "$c_batch" "$variant" "pg-$variant" "$c_rate"
  done
fi
# Recorded in a run of its own, so the recording's cost stays out of the (a) rows above.
[ "$profile" = 1 ] && run a-profiled "$plain_ws" "$key" 1 "$high" 0 1
[ "$profile" = 1 ] && run c-profiled "$forward_ws" "$key2" 1 "$low" 1 1

python3 - "$results" "$mode" << 'EOF'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
ceiling = rows[0]["requests_per_second"]
durable = {r["connections"]: r for r in rows if r["scenario"] == "ceiling-durable"}
high = max(durable)
def rate(r):
    return r["requests_per_second"] if r["scenario"] == "ceiling-401" else r["per_second"]
forward = next(r for r in rows if r["scenario"] == "ceiling-forward")
def of_durable(r):
    """The ceiling row a scenario is read against: for (a) and (b), ceiling-durable at the same connections, else the
    higher count; for (c), ceiling-forward."""
    if r["scenario"].startswith("c-"):
        return forward
    return durable.get(r["connections"], durable[high]) if r["scenario"][:2] in ("a-", "b-") else None
a_rows = {r["connections"]: r for r in rows if r["scenario"] == "a-session-supplied"}
print(f"\n{sys.argv[2]} run; the ceilings: the same load answered 401 (HTTP, routing, auth; no body read, no store), "
      f"a minimal durable server storing the same events in the same table (ceiling-durable), and PostgreSQL alone "
      f"inserting the same rows at the service's pool size and commit size (ceiling-postgres)\n")
print("| scenario | conns | events/s | p50 ms | p99 ms | max ms | of 401 ceiling | of durable ceiling | events/commit "
      "| delivered/s | backlog at end | backlog growth/s | lost | duplicated | heap MB | RSS MB "
      "| CPU cores: service / postgres / fakes / load+rest | µs per event: service / postgres |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
dash = "-"
for r in rows:
    cpu = r["cpu"]
    anchor = of_durable(r)
    cells = [r["scenario"], r["connections"], f"{rate(r):,.0f}", f"{r['p50_ms']:.1f}", f"{r['p99_ms']:.1f}",
             f"{r['max_ms']:.0f}", f"{rate(r) / ceiling:.0%}", f"{rate(r) / rate(anchor):.0%}" if anchor else dash,
             dash if r["scenario"] == "ceiling-401" else f"{r['per_commit']:.0f}"]
    cells += ([f"{r['delivered_per_second']:,.0f}", f"{r['backlog_at_end']:,}",
               f"{r.get('backlog_growth_per_second', 0):,.0f}", r["lost"], r["duplicated"]]
              if "delivered_per_second" in r else [dash] * 5)
    cells += [f"{r['heap_mb']:.0f}" if r.get("heap_mb") else dash, f"{r['rss_mb']:.0f}" if "rss_mb" in r else dash]
    cells.append(f"{cpu['service']:.2f} / {cpu['postgres']:.2f} / {cpu['fakes']:.2f} / {cpu['load and rest']:.2f}")
    # CPU time per event: what each side spends for one stored event (cores / events per second).
    cells.append(dash if r["scenario"] == "ceiling-401" else
                 f"{cpu['service'] / rate(r) * 1e6:.0f} / {cpu['postgres'] / rate(r) * 1e6:.0f}")
    print("| " + " | ".join(str(c) for c in cells) + " |")
print("\nceiling-durable: its own process in the service column (it has no heap metric); ceiling-postgres: p50/p99/max "
      "are its commit times, events/commit is the commit size the service reached in the first (a) row")
errors = sum(r.get("errors", 0) for r in rows if r["scenario"] != "ceiling-401")
if any(r["scenario"].startswith("pg-") for r in rows):
    print("\npg-*: bench/PgCeiling.java's variants at the same commit size, each adding or taking one part of the "
          "insert statement: partition routing (the service's statement), without the workspace index, with the "
          "last_sessions upsert (before V14), with the empty outbox insert (before V14); pg-deliver-*: at (c)'s "
          "stored rate and commit size, the events and their delivery to two networks in PostgreSQL alone (no HTTP): "
          "today's outbox (row, lease, outcome with its payload), the outbox claimed by row locks with the request's "
          "body stored once, and a cursor per network over the events in the order of their transactions")
print(f"\nrequests answered other than 200 in the stored scenarios and the durable ceiling: {errors}")

# The targets, each read in this run: shares of the durable ceiling, never absolute times.
def verdict(ok):
    return "met" if ok else "MISSED"
print("\ntargets:")
for conns, a in sorted(a_rows.items(), reverse=True):
    share = a["per_second"] / durable[conns]["per_second"]
    print(f"  (a) at {conns} connections: {share:.0%} of ceiling-durable (target 85%): {verdict(share >= 0.85)}")
low = min(a_rows)
p50 = a_rows[low]["p50_ms"] / max(durable[low]["p50_ms"], 0.001)
print(f"  (a) p50 at {low} connections: {p50:.2f}x the ceiling's (target 1.5x at most): {verdict(p50 <= 1.5)}")
for b in (r for r in rows if r["scenario"].startswith("b-")):
    share = b["per_second"] / durable[high]["per_second"]
    print(f"  (b): {share:.0%} of ceiling-durable at {b['connections']} connections (target 75%): "
          f"{verdict(share >= 0.75)}")
def keeps_up(r):
    """Delivered of stored, and whether the backlog stays flat: its slope within 2% of the stored rate either way."""
    growth = r.get("backlog_growth_per_second", 0)
    return r["delivered_per_second"] / r["per_second"], growth, abs(growth) <= 0.02 * r["per_second"]
share, growth, flat = keeps_up(forward)
print(f"  ceiling-forward (not a target, the anchor): stored {forward['per_second']:,.0f}/s, delivered "
      f"{forward['delivered_per_second']:,.0f}/s a network ({share:.0%} of stored), backlog growth {growth:,.0f}/s "
      f"({'flat' if flat else 'not flat'}); lost {forward['lost']}, duplicated {forward['duplicated']}")
for c in (r for r in rows if r["scenario"] == "c-two-integrations"): # the recorded c-profiled is not judged
    a = a_rows.get(c["connections"], a_rows[low])
    share, growth, flat = keeps_up(c)
    of_forward = c["delivered_per_second"] / forward["delivered_per_second"]
    of_a = c["per_second"] / a["per_second"]
    print(f"  (c): delivered {of_forward:.0%} of ceiling-forward's delivered rate (target 90%): "
          f"{verdict(of_forward >= 0.9)}")
    print(f"  (c): delivered {share:.0%} of its own stored rate (target 95%), backlog growth {growth:,.0f}/s after "
          f"the first third (flat: within 2% of the stored rate): {verdict(share >= 0.95 and flat)}")
    print(f"  (c): stored {of_a:.0%} of (a) at {a['connections']} connections (target 50%): {verdict(of_a >= 0.5)}")
    print(f"  (c): lost {c['lost']}, duplicated {c['duplicated']}: {verdict(c['lost'] == 0 and c['duplicated'] == 0)}")
for c4 in (r for r in rows if r["scenario"] == "c-four-integrations"):
    two = next(r for r in rows if r["scenario"] == "c-two-integrations")
    share, growth, flat = keeps_up(c4)
    print(f"  (c) with four integrations (read beside (c), no target of its own): stored {c4['per_second']:,.0f}/s "
          f"({c4['per_second'] / two['per_second']:.0%} of (c)'s), delivered {c4['delivered_per_second']:,.0f}/s a "
          f"network ({share:.0%} of stored, {c4['delivered_per_second'] / forward['delivered_per_second']:.0%} of "
          f"ceiling-forward's two), backlog growth {growth:,.0f}/s; lost {c4['lost']}, duplicated "
          f"{c4['duplicated']}: {verdict(c4['lost'] == 0 and c4['duplicated'] == 0)}")
    print("    delivered/s by network: " + ", ".join(f"{n} {v:,.0f}" for n, v in c4["delivered_by_network"].items()))
peak = max(r.get("heap_mb", 0) for r in rows)
print(f"  heap: peak {peak:.0f} MB (target 512 MB at most): {verdict(peak <= 512)}")
EOF

if [ "$profile" = 1 ]; then
  for recorded in ceiling-profiled a-profiled ceiling-forward-profiled c-profiled; do
    "$jdk_bin/jfr" print --json --events jdk.ExecutionSample "$work/$recorded.jfr" > "$work/$recorded.json"
  done
  python3 - "$work" "$results" << 'EOF'
import collections, json, sys
work, results = sys.argv[1:]
all_rows = [json.loads(line) for line in open(results)]
rows = {r["scenario"]: r for r in all_rows}
def name(frame):
    method = frame["method"]
    return method["type"]["name"].replace("/", ".") + "." + method["name"]
LIBRARIES = ["dev.eventrouter", "io.netty", "com.fasterxml.jackson", "io.vertx.pgclient", "io.vertx.sqlclient",
             "io.vertx.ext.web", "io.vertx.core.eventbus", "io.vertx.core.json", "io.vertx", "io.micrometer",
             "java.util.regex", "java.util", "java.lang", "jdk", "sun"]
def library(frame_name):
    return next((lib for lib in LIBRARIES if frame_name.startswith(lib + ".")), "other")
def profile(recorded):
    events = json.load(open(f"{work}/{recorded}.json"))["recording"]["events"]
    top, ours, libraries = (collections.Counter() for _ in range(3))
    for event in events:
        frames = event["values"]["stackTrace"]["frames"]
        if not frames:
            continue
        top[name(frames[0])] += 1
        libraries[library(name(frames[0]))] += 1
        ours[next((name(f) for f in frames if name(f).startswith("dev.eventrouter.")),
                  "(no dev.eventrouter frame)")] += 1
    return sum(top.values()), top, ours, libraries
def statements(recorded):
    """PostgreSQL's active time per stored event by statement (bench/PgActivity.java): µs, and the share waiting."""
    r, lines = rows[recorded], [line.rstrip("\n").split("\t") for line in open(f"{work}/{recorded}.pg.txt")]
    looks = int(next(l[1] for l in lines if l[0] == "samples"))
    per_event = r["seconds"] / max(1, looks) / max(1, r["accepted"]) * 1e6
    return {l[2]: (int(l[0]) * per_event, int(l[1]) / int(l[0])) for l in lines if l[0] != "samples"}
def compare(ceiling, service):
    """The JVM's CPU per stored event by library, and PostgreSQL's active time by statement, ceiling beside service."""
    (plain_c, recorded_c), (plain_s, recorded_s) = ceiling, service
    conns = rows[recorded_s]["connections"]
    # Each side's CPU per event comes from its unrecorded row at the same connections; the profile splits it.
    unrecorded = {r["scenario"]: r["cpu"]["service"] / r["per_second"] * 1e6 for r in all_rows
                  if r["connections"] == conns and r["scenario"] in (plain_c, plain_s)}
    profiles = {plain: profile(recorded) for plain, recorded in (ceiling, service)}
    print(f"\n{plain_s} beside {plain_c}, at {conns} connections (JFR, recorded in runs of their own): the JVM's "
          f"CPU per stored event split by the library of the top frame")
    print(f"\n| library (top frame) | {plain_c} µs/event | {plain_s} µs/event | difference |")
    print("|---|---|---|---|")
    libs = set()
    for total, top, ours, libraries in profiles.values():
        libs |= set(libraries)
    def micros(plain, lib):
        total, _, _, libraries = profiles[plain]
        return libraries[lib] / total * unrecorded[plain] if total else 0
    for lib in sorted(libs, key=lambda l: micros(plain_c, l) - micros(plain_s, l)):
        c, a = micros(plain_c, lib), micros(plain_s, lib)
        print(f"| {lib} | {c:.1f} | {a:.1f} | {a - c:+.1f} |")
    print(f"| **all** | {unrecorded[plain_c]:.1f} | {unrecorded[plain_s]:.1f} | "
          f"{unrecorded[plain_s] - unrecorded[plain_c]:+.1f} |")
    pg = {plain: statements(recorded) for plain, recorded in (ceiling, service)}
    print("\nPostgreSQL's active time per stored event by statement (pg_stat_activity sampled, bench/PgActivity.java; "
          "µs, and the share of it waiting on I/O, the WAL or a lock)")
    print(f"\n| statement (its start) | {plain_c} | {plain_s} |")
    print("|---|---|---|")
    keys = sorted(set(pg[plain_c]) | set(pg[plain_s]),
                  key=lambda k: -max(pg[plain_c].get(k, (0, 0))[0], pg[plain_s].get(k, (0, 0))[0]))
    cell = lambda v: f"{v[0]:.1f} ({v[1]:.0%} waiting)" if v else "-"
    for key in keys[:14]:
        print(f"| `{key.replace('|', '/')}` | {cell(pg[plain_c].get(key))} | {cell(pg[plain_s].get(key))} |")
    print(f"| **all** | {sum(v[0] for v in pg[plain_c].values()):.1f} | "
          f"{sum(v[0] for v in pg[plain_s].values()):.1f} |")
    for plain, recorded in (ceiling, service):
        total, top, ours, _ = profiles[plain]
        print(f"\n{recorded}: {total} CPU samples, recording kept at {work}/{recorded}.jfr (BENCH_KEEP=1)")
        for title, counter in (("hottest frames", top), ("nearest dev.eventrouter frame", ours)):
            if plain == plain_c and title.startswith("nearest"):
                continue
            print(f"  {title}:")
            for key, count in counter.most_common(12):
                print(f"    {count / total:6.1%}  {key}")
compare(("ceiling-durable", "ceiling-profiled"), ("a-session-supplied", "a-profiled"))
compare(("ceiling-forward", "ceiling-forward-profiled"), ("c-two-integrations", "c-profiled"))
EOF
fi
