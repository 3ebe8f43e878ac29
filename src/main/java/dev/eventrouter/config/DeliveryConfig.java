package dev.eventrouter.config;

/**
 * How forwarding behaves.
 *
 * @param batchSize          most events in one request to a network (both allow 1000)
 * @param lingerMs           how long a forwarder waits after a notification for more events to share the request
 * @param requestTimeoutMs   one request to a network
 * @param initialBackoffMs   first retry delay; doubles each attempt, with jitter
 * @param maxBackoffMs       longest retry delay
 * @param scanIntervalMs     how often the table is scanned for due retries and work left by another node
 * @param breakerFailures    consecutive failures that open an integration's circuit breaker
 * @param breakerResetMs     how long an open breaker waits before it tries again
 * @param pauseProbeMs       how often an integration paused on a refused token is tried with one held delivery
 * @param keepPayloads       whether each request's outcome stores the payload it sent, for the event debugger (about a
 *                           kilobyte more written per delivery; see bench/RESULTS.md)
 */
public record DeliveryConfig(int batchSize, long lingerMs, long requestTimeoutMs, long initialBackoffMs,
                             long maxBackoffMs, long scanIntervalMs, int breakerFailures, long breakerResetMs,
                             long pauseProbeMs, boolean keepPayloads) {}
