package dev.eventrouter.support;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A small SOCKS5 proxy for tests (https://www.rfc-editor.org/rfc/rfc1928): CONNECT only, with username/password
 * authentication (https://www.rfc-editor.org/rfc/rfc1929) when given credentials. It goes on from
 * {@link HttpProxy#OUTGOING_ADDRESS}, so a server behind it sees the proxy's address. Records the targets and users
 * it was asked for.
 */
public final class Socks5Proxy {

  /** One connection the proxy made: the user it authenticated (null for none) and the target as asked. */
  public record Seen(String username, String target) {}

  private static final int VERSION = 5;
  private static final int NO_AUTH = 0;
  private static final int USER_PASS = 2;
  private static final int NO_METHOD = 0xFF;

  private final List<Seen> seen = new CopyOnWriteArrayList<>();
  private final String username;
  private final String password;
  private NetServer server;
  private NetClient onward;

  private Socks5Proxy(String username, String password) {
    this.username = username;
    this.password = password;
  }

  /** @param username null for a proxy that asks for no credentials */
  public static Socks5Proxy start(Vertx vertx, String username, String password) {
    Socks5Proxy proxy = new Socks5Proxy(username, password);
    proxy.onward = vertx.createNetClient(new NetClientOptions().setLocalAddress(HttpProxy.OUTGOING_ADDRESS));
    proxy.server = vertx.createNetServer().connectHandler(proxy::serve).listen(0, "127.0.0.1").await();
    return proxy;
  }

  public int port() {
    return server.actualPort();
  }

  public List<Seen> seen() {
    return List.copyOf(seen);
  }

  public void stop() {
    server.close().await();
    onward.close().await();
  }

  /** One client: greeting, authentication, request, then the tunnel. Reads what has arrived so far each time. */
  private void serve(NetSocket client) {
    Buffer[] pending = {Buffer.buffer()};
    String[] user = {null};
    int[] stage = {0}; // 0 greeting, 1 authentication, 2 request, 3 tunnelling
    client.handler(data -> {
      pending[0].appendBuffer(data);
      while (stage[0] < 3) {
        int used = switch (stage[0]) {
          case 0 -> greeting(client, pending[0], stage);
          case 1 -> authentication(client, pending[0], stage, user);
          default -> request(client, pending[0], stage, user[0]);
        };
        if (used <= 0) {
          return; // more bytes needed, or the connection was refused and closed
        }
        pending[0] = pending[0].getBuffer(used, pending[0].length());
      }
    });
  }

  private int greeting(NetSocket client, Buffer in, int[] stage) {
    if (in.length() < 2 || in.length() < 2 + in.getUnsignedByte(1)) {
      return 0;
    }
    int methods = in.getUnsignedByte(1);
    int wanted = username == null ? NO_AUTH : USER_PASS;
    boolean offered = false;
    for (int i = 0; i < methods; i++) {
      offered |= in.getUnsignedByte(2 + i) == wanted;
    }
    if (in.getUnsignedByte(0) != VERSION || !offered) {
      client.end(Buffer.buffer(new byte[] {VERSION, (byte) NO_METHOD}));
      return -1;
    }
    client.write(Buffer.buffer(new byte[] {VERSION, (byte) wanted}));
    stage[0] = wanted == USER_PASS ? 1 : 2;
    return 2 + methods;
  }

  private int authentication(NetSocket client, Buffer in, int[] stage, String[] user) {
    if (in.length() < 2) {
      return 0;
    }
    int userLength = in.getUnsignedByte(1);
    if (in.length() < 3 + userLength || in.length() < 3 + userLength + in.getUnsignedByte(2 + userLength)) {
      return 0;
    }
    int passwordLength = in.getUnsignedByte(2 + userLength);
    String givenUser = in.getString(2, 2 + userLength, StandardCharsets.UTF_8.name());
    String givenPassword = in.getString(3 + userLength, 3 + userLength + passwordLength,
        StandardCharsets.UTF_8.name());
    if (!username.equals(givenUser) || !password.equals(givenPassword)) {
      client.end(Buffer.buffer(new byte[] {1, 1}));
      return -1;
    }
    client.write(Buffer.buffer(new byte[] {1, 0}));
    user[0] = givenUser;
    stage[0] = 2;
    return 3 + userLength + passwordLength;
  }

  private int request(NetSocket client, Buffer in, int[] stage, String user) {
    if (in.length() < 5) {
      return 0;
    }
    int type = in.getUnsignedByte(3);
    int addressLength = switch (type) {
      case 1 -> 4;
      case 3 -> 1 + in.getUnsignedByte(4);
      case 4 -> 16;
      default -> -1;
    };
    if (addressLength < 0 || in.getUnsignedByte(1) != 1) {
      client.end(Buffer.buffer(new byte[] {VERSION, 7, 0, 1, 0, 0, 0, 0, 0, 0})); // command not supported
      return -1;
    }
    int length = 4 + addressLength + 2;
    if (in.length() < length) {
      return 0;
    }
    String host;
    try {
      host = type == 3 ? in.getString(5, 5 + addressLength - 1, StandardCharsets.US_ASCII.name())
          : InetAddress.getByAddress(in.getBytes(4, 4 + addressLength)).getHostAddress();
    } catch (UnknownHostException e) {
      client.close();
      return -1;
    }
    int port = in.getUnsignedShort(4 + addressLength);
    seen.add(new Seen(user, host + ":" + port));
    stage[0] = 3;
    client.pause();
    onward.connect(port, host).onSuccess(remote -> {
      client.handler(null);
      client.write(Buffer.buffer(new byte[] {VERSION, 0, 0, 1, 0, 0, 0, 0, 0, 0}));
      remote.pipeTo(client);
      client.pipeTo(remote);
    }).onFailure(failure -> client.end(Buffer.buffer(new byte[] {VERSION, 5, 0, 1, 0, 0, 0, 0, 0, 0})));
    return length;
  }
}
