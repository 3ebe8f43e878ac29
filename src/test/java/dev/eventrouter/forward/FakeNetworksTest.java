package dev.eventrouter.forward;

import dev.eventrouter.support.FakeAdNetworks;
import dev.eventrouter.support.TestApp;
import dev.eventrouter.support.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;

/**
 * For test classes that start the real service per test (each with its own config) against fake Meta and TikTok
 * servers and a database of the class's own; after each test the service stops, its tables are emptied and the
 * fakes forget what they received and were scripted to say.
 */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class FakeNetworksTest {

  static final Duration DEADLINE = Duration.ofSeconds(15);

  protected Vertx vertx;
  protected FakeAdNetworks fake;
  protected String databaseUrl;
  /** The service of the test under way, started by the test. */
  protected TestApp app;

  @BeforeAll
  void startFake(Vertx vertx) {
    this.vertx = vertx;
    fake = FakeAdNetworks.start(vertx);
    databaseUrl = TestDatabase.freshDatabaseUrl();
  }

  @AfterAll
  void stopFake() {
    fake.stop();
  }

  /** How many deliveries of the network are in this state. */
  protected long count(String network, String status) {
    return app.rows("SELECT count(*) FROM deliveries WHERE network = $1 AND status = $2", network, status).get(0)
        .getLong(0);
  }

  @AfterEach
  void stopService() {
    if (app != null) {
      app.close(); // its forwarders end their cycles first
      app = null;
      TestApp.truncate(databaseUrl);
    }
    fake.reset();
  }
}
