package dev.eventrouter.support;

import io.vertx.core.json.JsonObject;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * HTTP/1.1 over a plain socket, one request per connection: sends exactly the bytes given (broken request lines, bad
 * percent-encoding, invalid UTF-8), which no HTTP client library would.
 */
public final class RawHttp {

  /** A parsed answer: status, headers (lower-case names) and body. */
  public record Response(int status, Map<String, String> headers, byte[] body) {

    public String text() {
      return new String(body, StandardCharsets.UTF_8);
    }

    /** The body as JSON, or null when it is not a JSON object. */
    public JsonObject json() {
      try {
        return new JsonObject(text());
      } catch (RuntimeException notJson) {
        return null;
      }
    }
  }

  private RawHttp() {}

  /** A request with Host, Content-Length and Connection: close added after the given header lines. */
  public static Response request(int port, String method, String target, Map<String, String> headers, byte[] body) {
    StringBuilder head = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n")
        .append("Host: 127.0.0.1:").append(port).append("\r\n");
    headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
    head.append("Content-Length: ").append(body.length).append("\r\nConnection: close\r\n\r\n");
    byte[] headBytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
    byte[] all = new byte[headBytes.length + body.length];
    System.arraycopy(headBytes, 0, all, 0, headBytes.length);
    System.arraycopy(body, 0, all, headBytes.length, body.length);
    return exchange(port, all);
  }

  /** Sends the bytes as they are and reads the one answer until the server closes the connection. */
  public static Response exchange(int port, byte[] bytes) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
      socket.setSoTimeout(15_000);
      OutputStream out = socket.getOutputStream();
      out.write(bytes);
      out.flush();
      socket.shutdownOutput();
      return parse(readAll(socket.getInputStream()));
    } catch (IOException e) {
      throw new UncheckedIOException("no answer to a raw request", e);
    }
  }

  private static byte[] readAll(InputStream in) throws IOException {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    in.transferTo(buffer);
    return buffer.toByteArray();
  }

  /** Status 0 when the server closed the connection without an answer. */
  public static Response parse(byte[] raw) {
    if (raw.length == 0) {
      return new Response(0, Map.of(), raw);
    }
    String text = new String(raw, StandardCharsets.ISO_8859_1);
    int end = text.indexOf("\r\n\r\n");
    if (end < 0) {
      throw new AssertionError("not an HTTP response: " + text);
    }
    String[] lines = text.substring(0, end).split("\r\n");
    int status = Integer.parseInt(lines[0].split(" ")[1]);
    Map<String, String> headers = new TreeMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
    }
    byte[] body = new byte[raw.length - end - 4];
    System.arraycopy(raw, end + 4, body, 0, body.length);
    return new Response(status, headers, body);
  }
}
