// The device's Wi-Fi from the owner API: what it is joined to (never the
// password), new credentials stored the way the setup page and Improv store
// them, and a scan. The password is write-only: no answer, log line or error
// carries it. A host without a radio (the simulator) says so.
import { taggedText } from "../errors";
import { checkWifiJoin } from "../net/wifi-credentials";
import type { Log, Wifi, WifiNetwork } from "../ports";
import { clipForMessage } from "../util/text";
import { onlyFields } from "./owner-fields";
import type { ApiHandler, ApiReply } from "./owner-routes";
import type { Route } from "./router";

/** The sentence a host without a radio answers. */
export const NO_RADIO_SENTENCE = "this host has no Wi-Fi radio; it uses the network of the computer it runs on.";
/** Networks a scan answer lists at most. */
export const WIFI_SCAN_MAX = 20;
/** Control characters, refused in a network name (it is shown and logged). */
const CONTROL = /[\u0000-\u001f\u007f]/;

const noRadio = (): ApiReply => ({ status: 409, body: { error: `Conflict: ${taggedText("not-present", NO_RADIO_SENTENCE)}` } });
const bad = (sentence: string): ApiReply => ({ status: 400, body: { error: `Bad request: ${sentence}` } });

/** GET /api/wifi's answer. */
function view(wifi: Wifi | undefined): ApiReply {
  if (!wifi)
    return {
      status: 200,
      body: { present: false, message: `This host has no Wi-Fi radio: it uses the network of the computer it runs on.` },
    };
  const s = wifi.status();
  const body: { [key: string]: unknown } = { present: true, state: s.state, ssid: s.ssid ?? null, scan: wifi.scan !== undefined };
  if (s.rssiDbm !== undefined) body.rssi_dbm = s.rssiDbm;
  if (s.address !== undefined) body.address = s.address;
  return { status: 200, body };
}

function store(wifi: Wifi | undefined, body: { [key: string]: unknown }, log: Log): ApiReply {
  if (!wifi) return noRadio();
  const extra = onlyFields(body, ["ssid", "password"], ["ssid"]);
  if (extra) return extra;
  const { ssid } = body;
  const password = body.password ?? "";
  if (typeof ssid !== "string") return bad("ssid is a string of 1-32 bytes.");
  if (CONTROL.test(ssid)) return bad("the network name holds a control character.");
  if (typeof password !== "string") return bad("password is a string: empty for an open network, else 8-63 characters.");
  // checkWifiJoin names the field, never its value.
  const problem = checkWifiJoin({ ssid, password });
  if (problem) return bad(problem);
  wifi.join({ ssid, password });
  log.info("owner api: Wi-Fi credentials stored; joining");
  return {
    status: 202,
    body: {
      ssid,
      state: "connecting",
      note:
        `The device joins "${clipForMessage(ssid, 32)}" now and answers on that network. ` +
        "If it cannot join after several tries it opens its setup access point (Halo-setup) again.",
    },
  };
}

async function scan(wifi: Wifi | undefined): Promise<ApiReply> {
  if (!wifi) return noRadio();
  if (!wifi.scan) return { status: 409, body: { error: "Conflict: not-present: this radio cannot scan." } };
  let found: WifiNetwork[];
  try {
    found = await wifi.scan();
  } catch {
    return { status: 502, body: { error: "Bad gateway: the radio's scan failed; try again." } };
  }
  const networks = found
    .filter((n) => typeof n.ssid === "string" && n.ssid !== "" && !CONTROL.test(n.ssid))
    .sort((a, b) => b.rssiDbm - a.rssiDbm)
    .slice(0, WIFI_SCAN_MAX)
    .map((n) => ({ ssid: n.ssid, rssi_dbm: n.rssiDbm, secure: n.secure }));
  return { status: 200, body: { networks } };
}

export function wifiRoutes(wifi: Wifi | undefined, log: Log): Array<Route<ApiHandler>> {
  return [
    { method: "GET", pattern: "/api/wifi", handler: () => view(wifi) },
    { method: "PUT", pattern: "/api/wifi", handler: ({ body }) => store(wifi, body, log) },
    { method: "GET", pattern: "/api/wifi/scan", handler: () => scan(wifi) },
  ];
}
