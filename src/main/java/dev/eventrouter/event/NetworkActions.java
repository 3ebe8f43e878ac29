package dev.eventrouter.event;

import dev.eventrouter.config.Network;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which of a network's own conversion counts (its action types, as its reporting API names them) each event we
 * deliver under a mapped name is held against in the reconciliation (docs/reports.md#reconcile). A workspace may
 * override or extend the table ({@code report.reconcile_actions}).
 *
 * <p>Meta: the pixel's standard events are counted under {@code offsite_conversion.fb_pixel_<event>}, and every
 * custom event under {@code offsite_conversion.fb_pixel_custom}
 * (https://developers.facebook.com/docs/marketing-api/reference/ads-action-stats/). TikTok's report has one count,
 * {@code conversion}, of the ad group's optimization event alone, which the report does not name: the safe reading
 * is to hold it against the purchase event only (CompletePayment), and a workspace optimizing for another event says
 * so in its table.
 */
public final class NetworkActions {

  /** Meta's custom events, all under one count. */
  public static final String META_CUSTOM = "offsite_conversion.fb_pixel_custom";

  private static final Map<String, String> META = Map.of(
      "Purchase", "offsite_conversion.fb_pixel_purchase",
      "CompleteRegistration", "offsite_conversion.fb_pixel_complete_registration",
      "Lead", "offsite_conversion.fb_pixel_lead",
      "AddToCart", "offsite_conversion.fb_pixel_add_to_cart",
      "InitiateCheckout", "offsite_conversion.fb_pixel_initiate_checkout",
      "AddPaymentInfo", "offsite_conversion.fb_pixel_add_payment_info",
      "ViewContent", "offsite_conversion.fb_pixel_view_content",
      "Search", "offsite_conversion.fb_pixel_search",
      "AddToWishlist", "offsite_conversion.fb_pixel_add_to_wishlist");

  private static final Map<String, String> TIKTOK = Map.of("CompletePayment", "conversion");

  private NetworkActions() {}

  /**
   * The action type a delivered event of that mapped name is counted under by the network, or null when its count
   * is not compared (TikTok's events other than its optimization event).
   *
   * @param overrides the workspace's {@code reconcile_actions} for that network: mapped name to action type
   */
  public static String actionType(Network network, String mappedEvent, Map<String, String> overrides) {
    String own = overrides.get(mappedEvent);
    if (own != null) {
      return own;
    }
    return network == Network.META ? META.getOrDefault(mappedEvent, META_CUSTOM) : TIKTOK.get(mappedEvent);
  }

  /** Every action type the table (with the workspace's overrides) names for a network. */
  public static Set<String> actionTypes(Network network, Map<String, String> overrides) {
    Set<String> types = new HashSet<>(network == Network.META ? META.values() : TIKTOK.values());
    if (network == Network.META) {
      types.add(META_CUSTOM);
    }
    types.addAll(overrides.values());
    return types;
  }

}
