package dev.eventrouter.config;

/** Where events are forwarded: the ad networks, and the advertisers' own trackers by webhook. */
public enum Network {
  META("meta"),
  TIKTOK("tiktok"),
  SNAPCHAT("snapchat"),
  GOOGLE_ADS("google_ads"),
  WEBHOOK("webhook");

  public final String id;

  Network(String id) {
    this.id = id;
  }
}
