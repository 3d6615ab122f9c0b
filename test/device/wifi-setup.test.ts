import assert from "node:assert/strict";
import { parseForm, PORTAL_BODY_MAX_BYTES, PORTAL_PROBE_PATHS, portalRequest } from "../../lib/net/portal.ts";
import { checkWifiJoin } from "../../lib/net/wifi-credentials.ts";
import { WIFI_FAILS_BEFORE_SETUP, WIFI_RETRY_FIRST_MS, WIFI_RETRY_MAX_MS, WifiSetup } from "../../lib/net/wifi-setup.ts";

const AP = "192.168.4.1";

describe("Wi-Fi setup flow", () => {
  it("opens setup without stored credentials, and joins as a station with them", () => {
    assert.equal(new WifiSetup(false).current(), "setup");
    assert.equal(new WifiSetup(true).current(), "station");
  });

  it("retries with doubling backoff up to the ceiling, and resets once connected", () => {
    const w = new WifiSetup(true);
    w.apply({ kind: "connected" });
    const delays: number[] = [];
    for (let i = 0; i < 10; i++) {
      w.apply({ kind: "disconnected" });
      delays.push(w.retryDelayMs());
    }
    assert.deepEqual(delays.slice(0, 4), [WIFI_RETRY_FIRST_MS, 2 * WIFI_RETRY_FIRST_MS, 4 * WIFI_RETRY_FIRST_MS, 8 * WIFI_RETRY_FIRST_MS]);
    assert.equal(delays[9], WIFI_RETRY_MAX_MS);
    assert.equal(w.current(), "station", "a network that once worked is retried, never replaced by setup");
    w.apply({ kind: "connected" });
    w.apply({ kind: "disconnected" });
    assert.equal(w.retryDelayMs(), WIFI_RETRY_FIRST_MS);
  });

  it("opens setup after repeated failures with credentials that never worked", () => {
    const w = new WifiSetup(true);
    for (let i = 1; i < WIFI_FAILS_BEFORE_SETUP; i++) assert.equal(w.apply({ kind: "disconnected" }), "station");
    assert.equal(w.apply({ kind: "disconnected" }), "setup");
    assert.equal(w.apply({ kind: "credentials-saved" }), "station");
    assert.equal(w.apply({ kind: "long-press" }), "setup", "the button opens setup at any time");
  });

  it("checks credentials like 802.11 does, naming the field and never the value", () => {
    assert.equal(checkWifiJoin({ ssid: "home", password: "" }), undefined, "open network");
    assert.equal(checkWifiJoin({ ssid: "home", password: "12345678" }), undefined);
    assert.equal(checkWifiJoin({ ssid: "home", password: "a".repeat(63) }), undefined);
    assert.equal(checkWifiJoin({ ssid: "home", password: "0123456789abcdef".repeat(4) }), undefined, "64 hex digits");
    assert.match(checkWifiJoin({ ssid: "", password: "" }) ?? "", /empty/);
    assert.match(checkWifiJoin({ ssid: "é".repeat(17), password: "" }) ?? "", /32 bytes/);
    const short = checkWifiJoin({ ssid: "home", password: "secret1" }) ?? "";
    assert.match(short, /8 to 63/);
    assert.ok(!short.includes("secret1"));
    assert.match(checkWifiJoin({ ssid: "home", password: "pässwörd1" }) ?? "", /ASCII/);
  });
});

describe("captive portal pages", () => {
  it("redirects every connectivity probe to the setup page", () => {
    for (const path of PORTAL_PROBE_PATHS) {
      const a = portalRequest("GET", path, "", AP, "Halo");
      assert.equal(a.status, 302, path);
      assert.equal(a.headers.location, `http://${AP}/`);
    }
    assert.equal(portalRequest("GET", "/generate_204?x=1", "", AP, "Halo").status, 302);
  });

  it("serves the form for any other page, with the device name escaped", () => {
    const a = portalRequest("GET", "/anything", "", AP, "<b>Desk</b>");
    assert.equal(a.status, 200);
    assert.match(a.body, /<form method="post" action="\/setup">/);
    assert.ok(a.body.includes("&#60;b&#62;Desk") && !a.body.includes("<b>Desk"));
  });

  it("takes credentials from the form, decoded", () => {
    const a = portalRequest("POST", "/setup", "ssid=My+Home%20Net&password=p%40ss+word", AP, "Halo");
    assert.equal(a.status, 200);
    assert.deepEqual(a.join, { ssid: "My Home Net", password: "p@ss word" });
  });

  it("refuses bad, oversized and hostile forms without keeping anything", () => {
    const cases: Array<[string, number, RegExp]> = [
      ["ssid=home&password=short", 400, /8 to 63/],
      ["password=12345678", 400, /could not be read/],
      ["ssid=%E0%A4%A&password=", 400, /could not be read/],
      ["ssid=" + "a".repeat(PORTAL_BODY_MAX_BYTES), 413, /too large/],
      ["ssid=%3Cscript%3E&password=x", 400, /8 to 63/],
    ];
    for (const [body, status, message] of cases) {
      const a = portalRequest("POST", "/setup", body, AP, "Halo");
      assert.equal(a.status, status, body.slice(0, 40));
      assert.match(a.body, message);
      assert.equal(a.join, undefined);
    }
    assert.equal(portalRequest("PUT", "/setup", "", AP, "Halo").status, 405);
  });

  it("parses forms with repeated, empty and prototype-named keys safely", () => {
    assert.deepEqual(parseForm(""), {});
    assert.deepEqual(parseForm("a=1&a=2&b"), { a: "1", b: "" });
    const f = parseForm("__proto__=x&ssid=y");
    assert.equal(f?.ssid, "y");
    assert.equal(({} as { polluted?: string }).polluted, undefined);
  });
});
