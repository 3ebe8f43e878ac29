package dev.eventrouter.config;

/** The ad networks events are forwarded to. */
public enum Network {
  META("meta"),
  TIKTOK("tiktok");

  public final String id;

  Network(String id) {
    this.id = id;
  }
}
