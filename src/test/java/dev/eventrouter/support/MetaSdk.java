package dev.eventrouter.support;

import com.facebook.ads.sdk.serverside.EventRequest;
import com.facebook.ads.sdk.serverside.UserData;
import com.google.gson.Gson;
import io.vertx.core.json.JsonObject;

import java.lang.reflect.Method;

/**
 * Meta's official Java Business SDK (com.facebook.business.sdk:facebook-java-business-sdk) as a reader and writer of
 * what Meta is sent: its {@code serverside} model (EventRequest, Event, UserData, CustomData) through the very Gson it
 * sends requests with, so its field names, types and adapters decide.
 */
public final class MetaSdk {

  private static final Gson GSON = sdkGson();

  private MetaSdk() {}

  /**
   * A request body as the SDK's model reads it; a body it cannot read throws (Gson's JsonSyntaxException), as a string
   * where its model has a list does. {@code ge} is left out: the SDK only writes genders (from its GenderEnum), its
   * reader throws on any element of that list, so {@link #genders} takes it instead.
   */
  public static EventRequest read(JsonObject body) {
    JsonObject copy = body.copy();
    for (Object event : copy.getJsonArray("data")) {
      JsonObject user = ((JsonObject) event).getJsonObject("user_data");
      if (user != null) {
        user.remove("ge");
      }
    }
    return GSON.fromJson(copy.encode(), EventRequest.class);
  }

  /** The {@code ge} of the body's event at {@code index}, as sent (null when absent). */
  public static Object genders(JsonObject body, int index) {
    return body.getJsonArray("data").getJsonObject(index).getJsonObject("user_data").getValue("ge");
  }

  /** What the SDK sends for this user: its own normalising, hashing and JSON form of every key. */
  public static JsonObject written(UserData user) {
    return new JsonObject(GSON.toJson(user));
  }

  /** The SDK's own Gson (EventRequest.getGson, package-private): the adapters it registers are part of its model. */
  private static Gson sdkGson() {
    try {
      Method gson = EventRequest.class.getDeclaredMethod("getGson");
      gson.setAccessible(true);
      return (Gson) gson.invoke(null);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("the SDK's Gson is not where 24.0.1 keeps it", e);
    }
  }
}
