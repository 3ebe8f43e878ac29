package dev.eventrouter.forward.webhook;

import dev.eventrouter.common.CheckedRequests;
import dev.eventrouter.common.Sha256;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.config.WebhookConfig;
import dev.eventrouter.event.ClickData;
import dev.eventrouter.event.EventIds;
import dev.eventrouter.forward.NetworkApi;
import dev.eventrouter.forward.Outbound;
import dev.eventrouter.forward.Outcome;
import dev.eventrouter.forward.UserDataMapping;
import dev.eventrouter.store.ClaimedDelivery;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * A webhook to the advertiser's own tracker, CRM or backend (Keitaro, Binom, ...): one request per event and per change
 * of its conversion status (so an upstream tracker learns of approvals and chargebacks), to the
 * configured URL with its placeholders filled in, the configured method and headers, and the event as a JSON body:
 * the fields the bot sent, with the event id, the mapped name and the click data of its session. Each request is
 * signed with HMAC-SHA256 and the integration's secret, as GitHub signs its webhooks
 * (https://docs.github.com/en/webhooks/using-webhooks/validating-webhook-deliveries): header
 * {@code X-Event-Router-Signature: sha256=<hex>} over the body, or, for GET, over the URL as sent. Answers: 2xx
 * delivered; 408, 429 and 5xx retried (honouring Retry-After); any other status failed, a redirect (3xx) too: it is
 * never followed, so the headers and the signature go to the configured URL only.
 */
public final class WebhookApi implements NetworkApi {

  public static final String SIGNATURE_HEADER = "X-Event-Router-Signature";
  /** The event's id, the same on every retry, so a receiver can drop what it already has. */
  public static final String EVENT_ID_HEADER = "X-Event-Router-Event-Id";
  /**
   * Which change of the conversion the request carries (0: as first received): with the event id, what a receiver
   * drops a retry by, since one conversion sends a request per change of its status.
   */
  public static final String CHANGE_HEADER = "X-Event-Router-Change";

  /** No user data is hashed or dropped: the receiver is the advertiser's own system and gets it as sent. */
  private static final UserDataMapping AS_SENT = new UserDataMapping(ids -> ids, List.of(), List.of());

  @Override
  public Network network() {
    return Network.WEBHOOK;
  }

  @Override
  public boolean batches() {
    return false;
  }

  /** The one event of the request, as it goes to the receiver (a credential test's carries its test code). */
  @Override
  public JsonObject body(IntegrationConfig integration, List<ClaimedDelivery> jobs) {
    JsonObject body = event(integration, jobs.get(0));
    if (integration.testEventCode() != null) {
      body.put("test_event_code", integration.testEventCode());
    }
    return body;
  }

  @Override
  public JsonObject event(IntegrationConfig integration, ClaimedDelivery job) {
    JsonObject event = new JsonObject()
        .put("event_id", EventIds.format(job.eventId()))
        .put("workspace_id", job.workspaceId().toString())
        .put("event_name", job.eventName())
        .put("mapped_event", job.mappedEvent())
        .put("telegram_id", job.telegramId())
        .put("session_id", job.sessionId())
        .put("value", job.value() == null ? null : job.value().toPlainString())
        .put("currency", job.currency())
        .put("user_data", job.userData())
        .put("received_at", job.receivedAt().toString())
        .put("conversion_status", job.conversionStatus())
        .put("previous_status", job.previousStatus())
        .put("change", job.change())
        .put("session", session(job.click()));
    if (job.limitedDataUse() != null) {
      event.put("limited_data_use", job.limitedDataUse());
    }
    return event;
  }

  /** The click data of the event's session, or null when none was captured. */
  private static JsonObject session(ClickData click) {
    if (click.equals(ClickData.NONE)) {
      return null;
    }
    JsonObject session = new JsonObject().put("fbclid", click.fbclid()).put("fbc", click.fbc())
        .put("fbp", click.fbp()).put("ttclid", click.ttclid()).put("ttp", click.ttp());
    return click.ids().putInto(session).put("client_ip", click.clientIp()).put("user_agent", click.userAgent())
        .put("landing_url", click.landingUrl());
  }

  @Override
  public Future<HttpResponse<Buffer>> send(Outbound out, IntegrationConfig integration, JsonObject body,
                                           long timeoutMs) {
    WebhookConfig webhook = integration.webhook();
    String url;
    try {
      url = WebhookUrl.expand(webhook.url(), body);
    } catch (CheckedRequests.Refused refused) {
      return Future.failedFuture(refused);
    }
    return out.request(integration, HttpMethod.valueOf(webhook.method()), url).compose(request -> {
      request.timeout(timeoutMs).putHeader(EVENT_ID_HEADER, body.getString("event_id"))
          .putHeader(CHANGE_HEADER, String.valueOf(body.getInteger("change", 0)));
      webhook.headers().forEach(request::putHeader);
      if ("GET".equals(webhook.method())) {
        return signed(request, integration, url.getBytes(StandardCharsets.UTF_8)).send();
      }
      Buffer payload = body.toBuffer();
      return signed(request, integration, payload.getBytes()).putHeader("Content-Type", "application/json")
          .sendBuffer(payload);
    });
  }

  /** The request with its signature of {@code content}, made with the integration's secret (an alert webhook's too). */
  public static HttpRequest<Buffer> signed(HttpRequest<Buffer> request, IntegrationConfig integration,
                                           byte[] content) {
    return request.putHeader(SIGNATURE_HEADER, "sha256=" + Sha256.hmacHex(integration.accessToken(), content));
  }

  @Override
  public Outcome classify(int status, Buffer body, long retryAfterMs) {
    // The receiver's body is not kept: it could quote the request's headers back.
    if (status >= 200 && status < 300) {
      return new Outcome.Delivered();
    }
    String error = "webhook HTTP " + status + (status / 100 == 3 ? " (redirects are not followed)" : "");
    return status == 408 || status == 429 || status >= 500 ? new Outcome.Retry(error, retryAfterMs)
        : new Outcome.Failed(error);
  }

  @Override
  public Outcome.Unconfirmed shortfall(Buffer body, int sent) {
    return null;
  }

  @Override
  public UserDataMapping userData() {
    return AS_SENT;
  }

  /** A timeout's or connection error's own message may quote the URL, whose query can carry a credential. */
  @Override
  public String describe(Throwable failure) {
    return "webhook request failed: " + (failure instanceof TimeoutException ? "no answer within the request timeout"
        : failure.getClass().getSimpleName());
  }
}
