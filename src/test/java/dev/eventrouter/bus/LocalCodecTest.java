package dev.eventrouter.bus;

import dev.eventrouter.event.ConversionEvent;
import dev.eventrouter.support.Await;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LocalCodecTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    Await.result(vertx.close());
  }

  @Test
  @DisplayName("the ingest request and its reply cross the bus as the records themselves, registered once however "
      + "many verticles ask")
  void sameRecords() {
    LocalCodec.register(vertx);
    LocalCodec.register(vertx); // a second HttpVerticle instance, or the SessionVerticle, asks again
    IngestRequest request = new IngestRequest(new ConversionEvent(UUID.randomUUID(), "FTD", 42, "s1",
        new BigDecimal("49.99"), "USD", new JsonObject().put("email", "a@b.c"), null), Instant.now(), null, null,
        Instant.now().plusSeconds(5));
    IngestReply reply = new IngestReply("evt_1", "s1", IngestReply.PROCESSED, false);
    AtomicReference<IngestRequest> received = new AtomicReference<>();
    Await.result(vertx.eventBus().<IngestRequest>localConsumer(Addresses.EVENTS_INGEST, message -> {
      received.set(message.body());
      message.reply(reply);
    }).completion());

    Message<IngestReply> answer = Await.result(vertx.eventBus().<IngestReply>request(Addresses.EVENTS_INGEST,
        request, new DeliveryOptions().setLocalOnly(true)));

    assertThat(received.get()).as("not a copy: nothing encoded or parsed").isSameAs(request);
    assertThat(answer.body()).isSameAs(reply);
  }

  @Test
  @DisplayName("a local record is never written for the wire: sending one to another node fails")
  void neverOnTheWire() {
    LocalCodec<IngestReply> codec = new LocalCodec<>(IngestReply.class);
    IngestReply reply = new IngestReply("evt_1", null, IngestReply.PROCESSED, true);
    assertThatThrownBy(() -> codec.encodeToWire(Buffer.buffer(), reply))
        .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("IngestReply");
    assertThatThrownBy(() -> codec.decodeFromWire(0, Buffer.buffer()))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(codec.transform(reply)).isSameAs(reply);
    assertThat(codec.name()).isEqualTo("local-IngestReply");
    assertThat(codec.systemCodecID()).isEqualTo((byte) -1);
  }
}
