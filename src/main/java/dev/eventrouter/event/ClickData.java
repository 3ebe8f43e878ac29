package dev.eventrouter.event;

/**
 * What the ad networks get from the click behind an event: Meta's fbc/fbp, TikTok's ttclid/ttp, Google's and
 * Snapchat's ids, and the browser's IP, user agent and landing page. Any field may be null; ids never is.
 */
public record ClickData(String fbclid, String fbc, String fbp, String ttclid, String ttp, String clientIp,
                        String userAgent, String landingUrl, ClickIds ids) {

  /** An event without a captured click session. */
  public static final ClickData NONE = new ClickData(null, null, null, null, null, null, null, null);

  /** A click without Google's or Snapchat's ids. */
  public ClickData(String fbclid, String fbc, String fbp, String ttclid, String ttp, String clientIp,
                   String userAgent, String landingUrl) {
    this(fbclid, fbc, fbp, ttclid, ttp, clientIp, userAgent, landingUrl, ClickIds.NONE);
  }

  /**
   * From a captured click session. Without a captured {@code _fbc}, fbc is built as Meta documents it:
   * {@code fb.1.<ms when the fbclid was first seen>.<fbclid>}, subdomain index 1 for a value made server-side,
   * fbclid with its case untouched.
   */
  public static ClickData of(ClickSession click) {
    String fbc = click.fbc();
    if (fbc == null && click.fbclid() != null) {
      fbc = "fb.1." + click.clickedAt().toEpochMilli() + "." + click.fbclid();
    }
    return new ClickData(click.fbclid(), fbc, click.fbp(), click.ttclid(), click.ttp(), click.clientIp(),
        click.userAgent(), click.landingUrl(), click.ids());
  }
}
