package dev.eventrouter.forward;

import java.util.UUID;

/**
 * One integration of one workspace, on its network: what a channel, its breaker and its metrics belong to. Every
 * part comes from the config, so it is safe as a metric label.
 */
public record IntegrationKey(String network, UUID workspaceId, String integrationId) {

  @Override
  public String toString() {
    return network + ":" + workspaceId + "/" + integrationId;
  }
}
