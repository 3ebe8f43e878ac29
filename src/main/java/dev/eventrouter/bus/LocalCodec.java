package dev.eventrouter.bus;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.MessageCodec;

import java.util.Map;
import java.util.WeakHashMap;

/**
 * Carries a message between verticles of one node as the object itself: {@code transform} hands the receiver the
 * sender's record, so the hop costs no encoding and no parsing. For messages that are sent local-only and whose
 * records are not changed once sent (the ingest request and its reply); anything that may cross the cluster stays
 * JSON. A message of such a type that is sent to another node fails rather than being encoded.
 * https://vertx.io/docs/vertx-core/java/#_message_codecs
 */
public final class LocalCodec<T> implements MessageCodec<T, T> {

  /** The types carried this way. */
  private static final Class<?>[] LOCAL_TYPES = {IngestRequest.class, IngestReply.class, SpendPush.class};
  /** The Vert.x instances whose bus has the codecs: each verticle that sends or answers them registers them once. */
  private static final Map<Vertx, Boolean> REGISTERED = new WeakHashMap<>();

  private final Class<T> type;

  LocalCodec(Class<T> type) {
    this.type = type;
  }

  /** Makes the local types the default codecs of this Vert.x instance's bus, once however many verticles ask. */
  public static void register(Vertx vertx) {
    synchronized (REGISTERED) {
      if (REGISTERED.putIfAbsent(vertx, Boolean.TRUE) == null) {
        for (Class<?> type : LOCAL_TYPES) {
          registerOne(vertx, type);
        }
      }
    }
  }

  private static <T> void registerOne(Vertx vertx, Class<T> type) {
    vertx.eventBus().registerDefaultCodec(type, new LocalCodec<>(type));
  }

  @Override
  public void encodeToWire(Buffer buffer, T message) {
    throw new UnsupportedOperationException(type.getSimpleName() + " is sent to this node's own verticles only");
  }

  @Override
  public T decodeFromWire(int pos, Buffer buffer) {
    throw new UnsupportedOperationException(type.getSimpleName() + " is sent to this node's own verticles only");
  }

  @Override
  public T transform(T message) {
    return message;
  }

  @Override
  public String name() {
    return "local-" + type.getSimpleName();
  }

  @Override
  public byte systemCodecID() {
    return -1;
  }
}
