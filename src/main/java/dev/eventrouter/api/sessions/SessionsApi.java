package dev.eventrouter.api.sessions;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.config.TelegramConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.event.ClickSession;
import dev.eventrouter.event.InviteSession;
import dev.eventrouter.http.ApiException;
import dev.eventrouter.http.Edge;
import dev.eventrouter.http.Responses;
import dev.eventrouter.http.StoreClient;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.time.Instant;
import java.util.List;

/** {@code POST /api/v1/sessions} (the ad click) and {@code POST /api/v1/sessions/invites} (who joined through it). */
public final class SessionsApi {

  private final StoreClient store;

  public SessionsApi(StoreClient store) {
    this.store = store;
  }

  public void capture(RoutingContext rc) {
    JsonObject body = Edge.ownBody(rc);
    Edge.Visitor visitor = Edge.visitor(rc);
    if (visitor != null && body.containsKey("session_id")) {
      // A public key could otherwise fill in the empty fields of a session someone else made.
      throw ApiException.validation(List.of(new ApiException.FieldError("session_id",
          "is chosen by the server when the request has a publishable key")));
    }
    WorkspaceConfig workspace = Edge.workspace(rc);
    ClickSession click = sentTo(workspace, ClickEnrichment.enrich(SessionValidator.click(body, Instant.now()),
        visitor));
    String channel = click.origin().channel();
    String botName = click.origin().bot();
    store.ask(Addresses.SESSIONS_CAPTURE, click.toJson(), rc)
        .compose(stored -> inviteLink(rc, workspace, channel, click.sessionId()))
        .onSuccess(inviteLink -> {
          JsonObject data = new JsonObject().put("session_id", click.sessionId());
          if (botName != null) {
            data.put("start_link", "https://t.me/" + botName + "?start=" + click.sessionId());
          }
          if (inviteLink != null) {
            data.put("invite_link", inviteLink);
          }
          Responses.ok(rc, data);
        })
        .onFailure(rc::fail);
  }

  /**
   * The click with the bot and channel the visitor is sent to, so the report counts the click where its starts and
   * joins are counted: the channel it names, else the first channel of the bot it names (of the default bot when it
   * names none); the bot it names, else the one whose channel that is, else the workspace's bot_name.
   */
  static ClickSession sentTo(WorkspaceConfig workspace, ClickSession click) {
    ClickSession.Origin origin = click.origin();
    TelegramConfig namedBot = origin.bot() == null ? workspace.telegram() : workspace.bot(origin.bot());
    String channel = origin.channel() != null ? origin.channel() : namedBot == null ? null : namedBot.channelId();
    TelegramConfig channelBot = channel == null ? null : workspace.botOfChannel(channel);
    String bot = origin.bot() != null ? origin.bot()
        : channelBot != null && channelBot.name() != null ? channelBot.name() : workspace.botName();
    return click.withOrigin(new ClickSession.Origin(origin.ad(), bot, channel, origin.country()));
  }

  /**
   * The session's own invite link of its channel, when one of the workspace's bots makes links for it: taken from the
   * pool made ahead. The session is stored already, so an empty pool or any failure here only leaves the link out
   * (the page falls back to the bot's start link).
   */
  private Future<String> inviteLink(RoutingContext rc, WorkspaceConfig workspace, String channel, String sessionId) {
    TelegramConfig telegram = channel == null ? null : workspace.botOfChannel(channel);
    if (telegram == null) {
      return Future.succeededFuture(null);
    }
    // A visitor's capture (publishable key) leaves the pool's reserve to the bot's own server-side captures, so
    // anonymous callers cannot empty it faster than Telegram lets it be refilled.
    int reserve = Edge.visitor(rc) == null ? 0 : telegram.anonymousReserve();
    return store.ask(Addresses.SESSIONS_INVITE_LINK, new JsonObject().put("workspace_id", workspace.id().toString())
            .put("chat_id", channel).put("session_id", sessionId).put("reserve", reserve), rc)
        .map(reply -> reply.getString("invite_link"))
        .otherwise((String) null);
  }

  public void invite(RoutingContext rc) {
    InviteSession invite = SessionValidator.invite(Edge.ownBody(rc));
    store.ask(Addresses.SESSIONS_INVITE, invite.toJson(), rc)
        .onSuccess(stored -> Responses.ok(rc, new JsonObject()
            .put("session_id", invite.sessionId())
            .put("telegram_id", invite.telegramId())))
        .onFailure(rc::fail);
  }
}
