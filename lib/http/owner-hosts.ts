// GET/PUT /api/hosts: the extra names the device answers to (beyond loopback,
// its own addresses and <name>.local), for owners who reach it by another name.
import type { McpClient } from "../people/clients";
import { HttpError } from "./http-error";
import type { HostPolicy } from "./host-policy";
import { requireClient } from "./middleware";
import { API_JSON_BODY, OWNER_API_MAX_BODY_BYTES } from "./owner-api";
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
      use: [admin, ...API_JSON_BODY],
      handler: (ctx) => {
        const body = ctx.json as { [key: string]: unknown };
        if (Object.keys(body).some((k) => k !== "hosts")) throw new HttpError(400, "Bad request: unknown field; the only field is hosts.");
        const problem = hosts.setExtraHosts(body.hosts);
        if (problem) throw new HttpError(400, `Bad request: ${problem}`);
        return jsonAnswer(200, { hosts: hosts.extraHosts() });
      },
    },
  ];
}
