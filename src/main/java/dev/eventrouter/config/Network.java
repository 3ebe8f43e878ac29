package dev.eventrouter.config;

/** Where events are forwarded: the ad networks, and the advertisers' own trackers by webhook. */
public enum Network {
  META("meta"),
  TIKTOK("tiktok"),
  SNAPCHAT("snapchat"),
  WEBHOOK("webhook");

  public final String id;

  Network(String id) {
    this.id = id;
  }
}
