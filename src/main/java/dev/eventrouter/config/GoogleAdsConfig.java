package dev.eventrouter.config;

import java.util.List;
import java.util.Map;

/**
 * A Google Ads integration's own settings
 * (https://developers.google.com/google-ads/api/docs/conversions/upload-clicks).
 * Its refresh token is the integration's {@code accessToken}, so a refused one pauses it and a new one in the config
 * resumes it, as a token does for Meta.
 *
 * @param customerId      the account the conversions are uploaded to, 10 digits without dashes
 * @param loginCustomerId the manager account the credentials reach it through, or null
 * @param developerToken  the API developer token, sent as the {@code developer-token} header
 * @param clientId        the OAuth client the refresh token was issued to
 * @param clientSecret    that client's secret
 * @param tokenUrl        where access tokens are refreshed (Google's unless a test double's)
 * @param actions         our event name to the id of the conversion action it is uploaded as; names without one are
 *                        not sent to this integration
 */
public record GoogleAdsConfig(String customerId, String loginCustomerId, String developerToken, String clientId,
                              String clientSecret, String tokenUrl, Map<String, String> actions) {

  /** What must never be logged, stored or answered, beside the refresh token. */
  public List<String> secrets() {
    return List.of(developerToken, clientSecret);
  }

  /** The resource name of the conversion action this event name is uploaded as, or null. */
  public String actionResource(String actionId) {
    return "customers/" + customerId + "/conversionActions/" + actionId;
  }

  /** Never print the credentials. */
  @Override
  public String toString() {
    return "GoogleAdsConfig[" + customerId + " " + actions + "]";
  }
}
