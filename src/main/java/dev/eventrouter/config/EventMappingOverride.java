package dev.eventrouter.config;

/**
 * One row of a workspace's {@code event_map} as written: each part it leaves out (null) keeps the default table's
 * value, or, for a name the table does not know, the name itself (merged at lookup by EventMap).
 */
public record EventMappingOverride(String meta, String tiktok, String snapchat, Boolean monetary) {}
