// The device's Wi-Fi from the owner API: what it is joined to (never the
// password), new credentials stored the way the setup page and Improv store
// them, and a scan. The password is write-only: no answer, log line or error
// carries it. A host without a radio (the simulator) says so.
import { HaloError } from "../errors";
import { checkWifiJoin } from "../net/wifi-credentials";
import type { Log, Wifi, WifiNetwork } from "../ports";
import { clipForMessage } from "../util/text";
import { BODIES, type BodyOf } from "./bodies";
import { badRequest, HttpError } from "./http-error";
import { ok, withBody, type ApiReply, type OwnerRoute } from "./owner-route";

/** The sentence a host without a radio answers. */
export const NO_RADIO_SENTENCE = "this host has no Wi-Fi radio; it uses the network of the computer it runs on.";
/** Networks a scan answer lists at most. */
export const WIFI_SCAN_MAX = 20;
/** Control characters, refused in a network name (it is shown and logged). */
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The radio, or the refusal of a host without one. */
function radio(wifi: Wifi | undefined): Wifi {
  if (!wifi) throw new HaloError("not-present", NO_RADIO_SENTENCE);
  return wifi;
}

/** GET /api/wifi's answer. */
function view(wifi: Wifi | undefined): ApiReply {
  if (!wifi) return ok({ present: false, message: `This host has no Wi-Fi radio: it uses the network of the computer it runs on.` });
  const s = wifi.status();
  const body: { [key: string]: unknown } = { present: true, state: s.state, ssid: s.ssid ?? null, scan: wifi.scan !== undefined };
  if (s.rssiDbm !== undefined) body.rssi_dbm = s.rssiDbm;
  if (s.address !== undefined) body.address = s.address;
  return ok(body);
}

function store(wifi: Wifi, body: BodyOf<"wifi">, log: Log): ApiReply {
  const { ssid } = body;
  const password = body.password ?? "";
  if (CONTROL.test(ssid)) throw badRequest("the network name holds a control character.");
  // checkWifiJoin names the field, never its value.
  const problem = checkWifiJoin({ ssid, password });
  if (problem) throw badRequest(problem);
  wifi.join({ ssid, password });
  log.info("owner api: Wi-Fi credentials stored; joining");
  return ok(
    {
      ssid,
      state: "connecting",
      note:
        `The device joins "${clipForMessage(ssid, 32)}" now and answers on that network. ` +
        "If it cannot join after several tries it opens its setup access point (Halo-setup) again.",
    },
    202,
  );
}

async function scan(wifi: Wifi): Promise<ApiReply> {
  if (!wifi.scan) throw new HaloError("not-present", "this radio cannot scan.");
  let found: WifiNetwork[];
  try {
    found = await wifi.scan();
  } catch {
    throw new HttpError(502, "Bad gateway: the radio's scan failed; try again.");
  }
  const networks = found
    .filter((n) => typeof n.ssid === "string" && n.ssid !== "" && !CONTROL.test(n.ssid))
    .sort((a, b) => b.rssiDbm - a.rssiDbm)
    .slice(0, WIFI_SCAN_MAX)
    .map((n) => ({ ssid: n.ssid, rssi_dbm: n.rssiDbm, secure: n.secure }));
  return ok({ networks });
}

export function wifiRoutes(wifi: Wifi | undefined, log: Log): OwnerRoute[] {
  return [
    { method: "GET", pattern: "/api/wifi", handler: () => view(wifi) },
    withBody({ method: "PUT", pattern: "/api/wifi", body: BODIES.wifi, handler: ({ body }) => store(radio(wifi), body, log) }),
    { method: "GET", pattern: "/api/wifi/scan", handler: () => scan(radio(wifi)) },
  ];
}
