// The owner API's Wi-Fi endpoints, transport-free: a host without a radio
// says so; with the simulated radio (lib's WifiSetup modes) the credentials
// reach the port, the password is never answered, logged or echoed.
import assert from "node:assert/strict";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { simWifi, SIM_WIFI_ADDRESS, type SimWifi } from "../../hosts/sim/ports/wifi.ts";
import type { Halo } from "../../lib/app/halo.ts";
import { testHalo } from "../support/halo.ts";
import { encodeUtf8 } from "../../lib/util/utf8.ts";

const PASSWORD = "correct-HORSE-battery";

describe("owner API: Wi-Fi", () => {
  let log: ReturnType<typeof memoryLog>;

  function build(wifi?: SimWifi): { halo: Halo; token: string } {
    log = memoryLog();
    const halo = testHalo(memoryPorts({ log, wifi }));
    return { halo, token: halo.ensureOwnerToken()! };
  }

  async function api(app: { halo: Halo; token: string }, method: string, path: string, body?: unknown, token = app.token) {
    const res = await app.halo.handleHttp({
      method,
      path,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : encodeUtf8(typeof body === "string" ? body : JSON.stringify(body)),
    });
    const text = typeof res.body === "string" ? res.body : new TextDecoder().decode(res.body);
    return { status: res.status, text, json: JSON.parse(text) };
  }

  it("on a host without a radio: GET says so, PUT and the scan are 409 with the not-present tag", async () => {
    const app = build();
    const get = await api(app, "GET", "/api/wifi");
    assert.equal(get.status, 200);
    assert.equal(get.json.present, false);
    assert.match(get.json.message, /no Wi-Fi radio/);
    const put = await api(app, "PUT", "/api/wifi", { ssid: "Home", password: PASSWORD });
    assert.equal(put.status, 409);
    assert.match(put.json.error, /^Conflict: not-present: this host has no Wi-Fi radio/);
    assert.doesNotMatch(put.text, /HORSE/);
    assert.equal((await api(app, "GET", "/api/wifi/scan")).status, 409);
  });

  it("stores the credentials through the port, answers the state and never the password", async () => {
    const wifi = simWifi({
      inRange: [
        { ssid: "Home", rssiDbm: -48, secure: true },
        { ssid: "Cafe", rssiDbm: -70, secure: false },
      ],
    });
    const app = build(wifi);
    assert.deepEqual((await api(app, "GET", "/api/wifi")).json, { present: true, state: "setup", ssid: null, scan: true });
    const put = await api(app, "PUT", "/api/wifi", { ssid: "Home", password: PASSWORD });
    assert.equal(put.status, 202, put.text);
    assert.equal(put.json.ssid, "Home");
    assert.doesNotMatch(put.text, /HORSE/);
    assert.deepEqual(wifi.joins, [{ ssid: "Home", password: PASSWORD }]);
    const now = await api(app, "GET", "/api/wifi");
    assert.deepEqual(now.json, { present: true, state: "connected", ssid: "Home", scan: true, rssi_dbm: -48, address: SIM_WIFI_ADDRESS });
    // An open network: no password at all.
    assert.equal((await api(app, "PUT", "/api/wifi", { ssid: "Cafe" })).status, 202);
    assert.deepEqual(wifi.joins[1], { ssid: "Cafe", password: "" });
    const scan = await api(app, "GET", "/api/wifi/scan");
    assert.deepEqual(scan.json.networks, [
      { ssid: "Home", rssi_dbm: -48, secure: true },
      { ssid: "Cafe", rssi_dbm: -70, secure: false },
    ]);
    assert.ok(log.lines.some((l) => /Wi-Fi credentials stored/.test(l)));
    assert.ok(
      log.lines.every((l) => !l.includes(PASSWORD)),
      "no log line carries the password",
    );
  });

  it("refuses bad and hostile input naming the field, never the value, and keeps serving", async () => {
    const wifi = simWifi();
    const app = build(wifi);
    const secretish = "HOSTILE-pass-1234567";
    const cases: Array<[unknown, number, RegExp]> = [
      [{}, 400, /'ssid' is required/],
      [{ ssid: "", password: secretish }, 400, /network name is empty/],
      [{ ssid: "x".repeat(33), password: secretish }, 400, /longer than 32 bytes/],
      [{ ssid: "é".repeat(17), password: secretish }, 400, /longer than 32 bytes/],
      [{ ssid: "Home\nEvil", password: secretish }, 400, /control character/],
      [{ ssid: 42, password: secretish }, 400, /'ssid' must be string/],
      [{ ssid: "Home", password: "short" }, 400, /8 to 63 characters/],
      [{ ssid: "Home", password: "p".repeat(64) }, 400, /8 to 63 characters/],
      [{ ssid: "Home", password: `${secretish}\u00e9` }, 400, /printable ASCII/],
      [{ ssid: "Home", password: ["HOSTILE-pass-1234567"] }, 400, /'password' must be string/],
      [{ ssid: "Home", password: secretish, extra: 1 }, 400, /unknown field; the fields are ssid, password/],
      [`{"ssid":"Home","password":"${secretish}"`, 400, /not valid JSON/],
      [{ ssid: "Home", password: secretish.repeat(1000) }, 413, /./],
    ];
    for (const [body, status, error] of cases) {
      const r = await api(app, "PUT", "/api/wifi", body);
      assert.equal(r.status, status, `${JSON.stringify(body).slice(0, 60)}: ${r.text}`);
      assert.match(r.json.error, error);
      assert.doesNotMatch(r.text, /HOSTILE/, "no error echoes the password");
    }
    assert.deepEqual(wifi.joins, [], "nothing bad reached the radio");
    assert.ok(log.lines.every((l) => !/HOSTILE/.test(l)));
    // 64 hex digits is a raw key, and is taken.
    assert.equal((await api(app, "PUT", "/api/wifi", { ssid: "Home", password: "ab".repeat(32) })).status, 202);
    // A member's token is refused; the server still answers.
    const member = app.halo.core.clients.create("kid", "user", "kid");
    assert.equal((await api(app, "PUT", "/api/wifi", { ssid: "Evil", password: "12345678" }, member)).status, 403);
    assert.equal((await api(app, "GET", "/api/wifi", undefined, member)).status, 403);
    assert.equal((await api(app, "GET", "/api/wifi")).json.ssid, "Home");
  });
});
