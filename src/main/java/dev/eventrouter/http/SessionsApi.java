package dev.eventrouter.http;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.config.TelegramConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.event.ClickSession;
import dev.eventrouter.event.InviteSession;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.time.Instant;
import java.util.List;

/** {@code POST /api/v1/sessions} (the ad click) and {@code POST /api/v1/sessions/invites} (who joined through it). */
final class SessionsApi {

  private final StoreClient store;

  SessionsApi(StoreClient store) {
    this.store = store;
  }

  void capture(RoutingContext rc) {
    JsonObject body = Edge.ownBody(rc);
    Edge.Visitor visitor = Edge.visitor(rc);
    if (visitor != null && body.containsKey("session_id")) {
      // A public key could otherwise fill in the empty fields of a session someone else made.
      throw ApiException.validation(List.of(new ApiException.FieldError("session_id",
          "is chosen by the server when the request has a publishable key")));
    }
    ClickSession click = ClickEnrichment.enrich(SessionValidator.click(body, Instant.now()), visitor);
    WorkspaceConfig workspace = Edge.workspace(rc);
    store.ask(Addresses.SESSIONS_CAPTURE, click.toJson(), rc)
        .compose(stored -> inviteLink(rc, workspace, click.sessionId()))
        .onSuccess(inviteLink -> {
          JsonObject data = new JsonObject().put("session_id", click.sessionId());
          if (workspace.botName() != null) {
            data.put("start_link", "https://t.me/" + workspace.botName() + "?start=" + click.sessionId());
          }
          if (inviteLink != null) {
            data.put("invite_link", inviteLink);
          }
          Responses.ok(rc, data);
        })
        .onFailure(rc::fail);
  }

  /**
   * The session's own invite link of the workspace's channel, when it makes them: taken from the pool made ahead.
   * The session is stored already, so an empty pool or any failure here only leaves the link out (the page falls
   * back to the bot's start link).
   */
  private Future<String> inviteLink(RoutingContext rc, WorkspaceConfig workspace, String sessionId) {
    TelegramConfig telegram = workspace.telegram();
    if (telegram == null || !telegram.makesInviteLinks()) {
      return Future.succeededFuture(null);
    }
    // A visitor's capture (publishable key) leaves the pool's reserve to the bot's own server-side captures, so
    // anonymous callers cannot empty it faster than Telegram lets it be refilled.
    int reserve = Edge.visitor(rc) == null ? 0 : telegram.anonymousReserve();
    return store.ask(Addresses.SESSIONS_INVITE_LINK, new JsonObject().put("workspace_id", workspace.id().toString())
            .put("chat_id", telegram.channelId()).put("session_id", sessionId).put("reserve", reserve), rc)
        .map(reply -> reply.getString("invite_link"))
        .otherwise((String) null);
  }

  void invite(RoutingContext rc) {
    InviteSession invite = SessionValidator.invite(Edge.ownBody(rc));
    store.ask(Addresses.SESSIONS_INVITE, invite.toJson(), rc)
        .onSuccess(stored -> Responses.ok(rc, new JsonObject()
            .put("session_id", invite.sessionId())
            .put("telegram_id", invite.telegramId())))
        .onFailure(rc::fail);
  }
}
