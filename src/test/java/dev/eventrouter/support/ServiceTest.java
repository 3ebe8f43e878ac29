package dev.eventrouter.support;

import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * For test classes that share one running service (the standard test config) on a database of their own, with
 * every table emptied before each test.
 */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ServiceTest {

  protected String databaseUrl;
  protected TestApp app;

  @BeforeAll
  void startService(Vertx vertx) {
    databaseUrl = TestDatabase.freshDatabaseUrl();
    app = TestApp.start(vertx, TestApp.config(databaseUrl));
  }

  @AfterAll
  void stopService() {
    app.close();
  }

  @BeforeEach
  void emptyTables() {
    app.truncate();
  }
}
