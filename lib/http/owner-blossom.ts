// Owner API endpoints of Blossom: the servers the device uploads to and downloads from. An owner setting no
// tool can change; empty means the owner's BUD-03 kind 10063 list from the relays.
import type { BlossomClient } from "../nostr/blossom";
import type { Log } from "../ports";
import { BODIES } from "./bodies";
import { ok, withBody, type OwnerRoute } from "./owner-route";

/** What Blossom offers the owner (BlossomClient implements it). */
export type BlossomOwner = Pick<BlossomClient, "ownerServers" | "setOwnerServers" | "servers">;

export function blossomRoutes(blossom: BlossomOwner | undefined, log: Log): OwnerRoute[] {
  if (!blossom) return [];
  return [
    {
      method: "GET",
      pattern: "/api/blossom",
      handler: async () => ok({ servers: blossom.ownerServers(), in_use: await blossom.servers() }),
    },
    withBody({
      method: "PUT",
      pattern: "/api/blossom/servers",
      body: BODIES.blossomServers,
      handler: ({ body }) => {
        const servers = blossom.setOwnerServers([...body.servers]);
        log.info(`owner api: blossom servers set (${servers.length})`);
        return ok({ servers });
      },
    }),
  ];
}
