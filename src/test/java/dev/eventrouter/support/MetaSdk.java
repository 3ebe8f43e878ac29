package dev.eventrouter.support;

import com.facebook.ads.sdk.serverside.EventRequest;
import com.facebook.ads.sdk.serverside.UserData;
import com.google.gson.Gson;
import dev.eventrouter.common.Sha256;
import io.vertx.core.json.JsonObject;

import java.lang.reflect.Method;

import static org.assertj.core.api.Assertions.assertThat;

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

  /**
   * The tests' rich user (Mary Smith of Menlo Park, CA, born 1997-02-16) read back: each customer-information key as
   * the list of one hash the SDK's model keeps.
   */
  public static void assertMary(UserData user, String event) {
    assertThat(user.getEmails()).as(event).containsExactly(Sha256.hex("mary@example.com"));
    assertThat(user.getPhones()).as(event).containsExactly(Sha256.hex("16505551212"));
    assertThat(user.getFirstNames()).as(event).containsExactly(Sha256.hex("mary"));
    assertThat(user.getLastNames()).as(event).containsExactly(Sha256.hex("smith"));
    assertThat(user.getDatesOfBirth()).as(event).containsExactly(Sha256.hex("19970216"));
    assertThat(user.getCities()).as(event).containsExactly(Sha256.hex("menlopark"));
    assertThat(user.getStates()).as(event).containsExactly(Sha256.hex("ca"));
    assertThat(user.getZipcodes()).as(event).containsExactly(Sha256.hex("94025"));
    assertThat(user.getCountryCodes()).as(event).containsExactly(Sha256.hex("us"));
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
