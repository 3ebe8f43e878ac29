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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

  /** A connection kept open: bytes sent as they are, answers read as they come, the server's close seen. */
  public static final class Connection implements AutoCloseable {

    private static final int READ_MS = 20_000;
    private static final Pattern CONTENT_LENGTH = Pattern.compile("(?i)\r\ncontent-length: *([0-9]+)");
    private final Socket socket;

    private Connection(Socket socket) {
      this.socket = socket;
    }

    /** Connects and sends {@code text} (ISO-8859-1), which may be a request's first part only. */
    public static Connection open(int port, String text) {
      try {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        socket.setSoTimeout(READ_MS);
        Connection connection = new Connection(socket);
        connection.send(text);
        return connection;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** More bytes; a connection the server closed already takes none (its close is seen by the reads). */
    public Connection send(String text) {
      try {
        OutputStream out = socket.getOutputStream();
        out.write(text.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
      } catch (IOException closedByServer) {
        // seen by the reads
      }
      return this;
    }

    /** Everything until the server closes the connection (status 0: closed without an answer). */
    public Response answer() {
      try {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        byte[] chunk = new byte[8192];
        for (int n; (n = read(chunk)) > 0; ) {
          buffer.write(chunk, 0, n);
        }
        return parse(buffer.toByteArray());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /**
     * The status line and headers of the next answer, its body (by Content-Length) read past, the connection left
     * open for the next.
     */
    public String head() {
      try {
        StringBuilder head = new StringBuilder();
        byte[] one = new byte[1];
        while (!head.toString().endsWith("\r\n\r\n") && read(one) > 0) {
          head.append((char) one[0]);
        }
        Matcher length = CONTENT_LENGTH.matcher(head);
        if (length.find()) {
          socket.getInputStream().readNBytes(Integer.parseInt(length.group(1)));
        }
        return head.toString();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** Waits up to {@code ms} for the server to close the connection; false while it stays open. */
    public boolean closedWithin(int ms) {
      try {
        socket.setSoTimeout(ms);
        try {
          return read(new byte[1]) < 0;
        } catch (java.net.SocketTimeoutException open) {
          return false;
        } finally {
          socket.setSoTimeout(READ_MS);
        }
      } catch (IOException e) {
        return true;
      }
    }

    /** A connection reset by the server counts as its end. */
    private int read(byte[] into) throws IOException {
      try {
        return socket.getInputStream().read(into);
      } catch (java.net.SocketException reset) {
        return -1;
      }
    }

    @Override
    public void close() {
      try {
        socket.close();
      } catch (IOException ignored) {
        // closing
      }
    }
  }
}
