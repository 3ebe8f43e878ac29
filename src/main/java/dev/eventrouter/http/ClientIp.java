package dev.eventrouter.http;

import dev.eventrouter.common.IpBlock;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;

import java.util.List;

/**
 * The address of the client a request comes from. The direct peer, unless it is one of the trusted proxies: then
 * X-Forwarded-For read from the right, past every trusted proxy, to the first address they did not add themselves
 * (what a proxy chain appends; anything further left the client could have written). Only literals are taken.
 */
public final class ClientIp {

  private ClientIp() {}

  static String of(HttpServerRequest request, List<IpBlock> trustedProxies) {
    SocketAddress peer = request.remoteAddress();
    return of(peer == null ? null : peer.hostAddress(), request.headers().getAll("X-Forwarded-For"), trustedProxies);
  }

  /** The client, given the peer's address (null for a peer without one) and the X-Forwarded-For headers in order. */
  public static String of(String peer, List<String> forwarded, List<IpBlock> trustedProxies) {
    if (peer == null || !trusted(peer, trustedProxies)) {
      return peer;
    }
    String client = peer;
    for (int h = forwarded.size() - 1; h >= 0; h--) {
      String[] hops = forwarded.get(h).split(",");
      for (int i = hops.length - 1; i >= 0; i--) {
        String hop = hops[i].strip();
        if (IpBlock.parse(hop) == null) {
          return client; // not an address: the chain cannot be followed further
        }
        client = hop;
        if (!trusted(hop, trustedProxies)) {
          return client;
        }
      }
    }
    return client;
  }

  private static boolean trusted(String address, List<IpBlock> proxies) {
    return proxies.stream().anyMatch(block -> block.contains(address));
  }
}
