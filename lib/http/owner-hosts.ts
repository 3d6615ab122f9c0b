// GET/PUT /api/hosts: the extra names the device answers to (beyond loopback,
// its own addresses and <name>.local), for owners who reach it by another name.
import type { McpClient } from "../people/clients";
import { BODIES, type BodyOf } from "./bodies";
import { badRequest } from "./http-error";
import type { HostPolicy } from "./host-policy";
import { requireClient } from "./middleware";
import { OWNER_API_MAX_BODY_BYTES } from "./owner-api";
import { jsonAnswer, type RouteSpec } from "./pipeline";

export function hostRoutes(hosts: HostPolicy, verifyToken: (token: string) => McpClient | undefined): RouteSpec[] {
  const admin = requireClient(verifyToken, "admin");
  return [
    {
      method: "GET",
      pattern: "/api/hosts",
      maxBody: 0,
      errors: "api",
      use: [admin],
      handler: () => jsonAnswer(200, { hosts: hosts.extraHosts() }),
    },
    {
      method: "PUT",
      pattern: "/api/hosts",
      maxBody: OWNER_API_MAX_BODY_BYTES,
      errors: "api",
      use: [admin],
      body: BODIES.hosts,
      handler: (ctx) => {
        const problem = hosts.setExtraHosts((ctx.json as BodyOf<"hosts">).hosts);
        if (problem) throw badRequest(problem);
        return jsonAnswer(200, { hosts: hosts.extraHosts() });
      },
    },
  ];
}
