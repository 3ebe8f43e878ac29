package dev.eventrouter.config;

import java.util.List;

/**
 * A key a static prelanding page may carry in the open: it can only create click sessions, and only from the pages
 * of {@code allowedOrigins} (checked on the request's Origin, and granted to browsers through CORS).
 *
 * @param hash           the SHA-256 digest of the key (32 bytes); the key itself is never kept
 * @param allowedOrigins origins as browsers send them: scheme, host and port when not the default, lowercase
 */
public record PublishableKey(byte[] hash, List<String> allowedOrigins) {}
