package dev.eventrouter.config;

/** @param sourceTimeoutMs time budget of each session source; a slower source is skipped */
public record SessionConfig(long sourceTimeoutMs) {}
