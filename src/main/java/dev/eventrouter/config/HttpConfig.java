package dev.eventrouter.config;

/**
 * @param instances        HttpVerticle instances (one event loop each)
 * @param requestTimeoutMs how long a request may wait for the store before it is answered 503
 */
public record HttpConfig(String host, int port, int maxBodyBytes, int instances, long requestTimeoutMs) {}
