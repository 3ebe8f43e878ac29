package dev.eventrouter.http;

import dev.eventrouter.support.Await;
import dev.eventrouter.support.LogCapture;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static dev.eventrouter.support.ApiAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

/** The one error mapper, on a router of its own: no service, no database. */
@ExtendWith(VertxExtension.class)
class ErrorResponderUnitTest {

  @Test
  @DisplayName("an unexpected failure is 500 internal_error, logged with the request id, never shown to the client")
  void unexpectedFailure(Vertx vertx) throws IOException {
    Router router = Router.router(vertx);
    router.get("/early").handler(rc -> {
      throw new IllegalStateException("before any id");
    });
    router.route().handler(RequestIds::assign);
    Promise<Void> gone = Promise.promise();
    router.get("/gone").handler(rc -> vertx.setPeriodic(10, id -> {
      if (rc.response().closed()) {
        vertx.cancelTimer(id);
        rc.fail(new IllegalStateException("after the client left"));
        gone.complete();
      }
    }));
    router.get("/answered").handler(rc -> {
      rc.response().end("done");
      throw new IllegalStateException("after the answer");
    });
    router.get("/boom").handler(rc -> {
      throw new IllegalStateException("secret detail 7f3a");
    });
    router.get("/limited").handler(rc -> rc.fail(ApiException.retryLater(ErrorCode.RATE_LIMITED, 4)));
    router.get("/teapot").handler(rc -> rc.fail(418));
    ErrorResponder errors = new ErrorResponder();
    router.route().failureHandler(errors);
    router.errorHandler(404, errors.forStatus(404));
    HttpServer server = Await.result(vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1"));
    WebClient client = WebClient.create(vertx);
    LogCapture logs = LogCapture.start();
    try {
      HttpResponse<Buffer> boom = Await.result(client.get(server.actualPort(), "127.0.0.1", "/boom").send());
      JsonObject error = assertError(boom, 500, "internal_error");
      assertThat(boom.bodyAsString()).doesNotContain("secret detail");
      String requestId = boom.getHeader(RequestIds.HEADER);
      assertThat(logs.text()).contains("request " + requestId + " GET /boom failed").contains("secret detail 7f3a");
      assertThat(error.getString("message")).isEqualTo(ErrorCode.INTERNAL_ERROR.defaultMessage);

      HttpResponse<Buffer> limited = Await.result(client.get(server.actualPort(), "127.0.0.1", "/limited").send());
      assertError(limited, 429, "rate_limited");
      assertThat(limited.getHeader("Retry-After")).isEqualTo("4");

      HttpResponse<Buffer> teapot = Await.result(client.get(server.actualPort(), "127.0.0.1", "/teapot").send());
      assertError(teapot, 400, "bad_request");
      assertThat(teapot.getHeader("Retry-After")).as("only where there is a delay to tell").isNull();
      assertThat(logs.text()).as("client errors are not logged as failures")
          .doesNotContain("/limited failed").doesNotContain("/teapot failed");
      assertError(Await.result(client.get(server.actualPort(), "127.0.0.1", "/nothing").send()), 404, "not_found");
      assertThat(requestId).matches("[0-9a-f]{16}");

      assertError(Await.result(client.get(server.actualPort(), "127.0.0.1", "/early").send()), 500, "internal_error");
      assertThat(logs.text()).contains("request - GET /early failed");
      HttpResponse<Buffer> answered = Await.result(client.get(server.actualPort(), "127.0.0.1", "/answered").send());
      assertThat(answered.bodyAsString()).as("an answer already sent is left alone").isEqualTo("done");
      assertThat(logs.text()).doesNotContain("/answered failed");

      try (Socket socket = new Socket("127.0.0.1", server.actualPort())) {
        socket.getOutputStream().write("GET /gone HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      }
      Await.result(gone.future());
      assertThat(logs.text()).as("no answer is attempted to a client that left").doesNotContain("/gone failed");
    } finally {
      logs.stop();
      client.close();
      Await.result(server.close());
    }
  }
}
