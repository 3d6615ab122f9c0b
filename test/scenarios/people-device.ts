// A scripted run through people, roles, device actions, introspection and the owner
// API. It returns a transcript; the Node and XS runs must match line for line.
import { simAudioOut, simLed, simOta } from "../../hosts/sim/ports/hardware.ts";
import { validateDeviceActions } from "../../lib/device/actions.ts";
import { ConfigStore } from "../../lib/device/config.ts";
import { runDeviceArray } from "../../lib/device/device-array.ts";
import { isProtectedKey, scanForProtectedKeys } from "../../lib/device/protected-keys.ts";
import { createHalo, type HttpRequest } from "../../lib/app/halo.ts";
import { derivePrincipal } from "../../lib/people/principals.ts";
import type { Digest, Ports, System } from "../../lib/ports.ts";
import { standInDigest } from "../support/digests.ts";
import { djb2 } from "../../lib/util/hash.ts";
import { encodeUtf8 } from "../../lib/util/utf8.ts";
import { portablePorts } from "../support/portable-ports.ts";
import { simWifi } from "../../hosts/sim/ports/wifi.ts";

/** A deterministic stand-in for sha256 (not cryptographic): scenarios need the same bytes on every engine. */
const scenarioDigest: Digest = standInDigest((data) => {
  let text = "";
  for (let i = 0; i < data.length; i++) text += String.fromCharCode(data[i]);
  const out = new Uint8Array(32);
  for (let i = 0; i < 8; i++) {
    const h = djb2(i + ":" + text);
    out.set([h >>> 24, (h >>> 16) & 255, (h >>> 8) & 255, h & 255], i * 4);
  }
  return out;
});

/** A fixed board, so the status text is the same on every engine. */
const fixedSystem: System = {
  info: () => ({
    firmwareVersion: "9.9.9",
    build: "scenario",
    simulated: false,
    uptimeMs: 61000,
    freeHeapBytes: 150000,
    totalHeapBytes: 320000,
    freePsramBytes: 7000000,
    totalPsramBytes: 8388608,
    flashUsedBytes: 4096,
    flashTotalBytes: 24576,
    wifi: "connected",
    wifiRssiDbm: -61,
    timeZone: "Europe/Berlin",
  }),
  reboot: () => undefined,
};

export function scenarioPorts(): Ports {
  const base = portablePorts();
  return {
    ...base,
    digest: scenarioDigest,
    system: fixedSystem,
    led: simLed(),
    audioOut: simAudioOut(base.log),
    ota: simOta("9.9.9"),
    wifi: simWifi({ inRange: [{ ssid: "Home", rssiDbm: -50, secure: true }] }),
  };
}

export async function runPeopleDeviceScenario(ports: Ports = scenarioPorts()): Promise<string[]> {
  const out: string[] = [];
  const halo = createHalo({ ports, firmwareVersion: "9.9.9", hostRoutes: [] });
  const core = halo.core;
  const token = halo.ensureOwnerToken()!;
  const owner = derivePrincipal(core, "web", "owner");
  const tool = async (label: string, name: string, args: unknown, who = owner): Promise<void> => {
    const r = await core.registry.dispatch(name, args, who);
    out.push(`${label} ${name} ${JSON.stringify(r)}`);
  };

  for (const k of ["oaiKey", "OAI_KEY", "Provider-Priority", "orchHost", "theme", "ledBrightness", "tgAllow", "governorCap"])
    out.push(`protected ${k} ${isProtectedKey(k)}`);
  let deep: unknown = { theme: "x" };
  for (let i = 0; i < 10000; i++) deep = { a: deep };
  out.push(`scan deep ${scanForProtectedKeys(deep)}`);
  out.push(`scan nested ${scanForProtectedKeys({ a: [{ b: { Tg_Token: 1 } }] })}`);

  const hostile: unknown[] = [
    { led: { mode: "solid", r: 300 } },
    { nope: 1 },
    { led: { mode: "solid" }, tts: { text: "x" } },
    { config: { nested: { antKey: "v" } } },
    { lights: { value: "full" } },
    7,
    { reboot: {} },
    { tts: { text: "hi" } },
  ];
  for (let i = 0; i < 10000; i++) hostile.push({ led: { mode: "rainbow" } });
  out.push(`device[] ${JSON.stringify(validateDeviceActions(hostile, { principal: owner, config: core.config, midTurn: false }))}`);
  out.push(
    `device[] run ${JSON.stringify(await runDeviceArray(hostile.slice(4, 12), { principal: owner, config: core.config }, core.actuator))}`,
  );

  await tool("control", "device.control", { action: { led: { mode: "pulse", r: 1, g: 2, b: 3, brightness: 250 } } });
  await tool("control", "device.control", { action: { config: { THEME: "ember", sfxVol: 40 } } });
  await tool("control", "device.control", { action: { config: { theme: "ocean", deep: { OAI_KEY: "v" } } } });
  await tool("control", "device.control", { action: { reboot: {} } });
  await tool("control", "device.control", { action: { config: { theme: "ocean" } } }, derivePrincipal(core, "chat", "nobody"));
  await tool("status", "device.status", {});
  await tool("health", "system.health", {});
  await tool("selftest", "device.selftest", { audible: true });
  await tool("ota", "ota.status", {});

  await tool("tenant", "tenant.set_role", { chat: "-1005", role: "user" });
  await tool("tenant", "tenant.set_quota", { chat: "-1005", vectors: 12, pins: 0 });
  await tool("tenant", "tenant.set_role", { chat: "owner", role: "guest" });
  await tool("tenant", "tenant.list", {});
  await tool("tenant", "tenant.list", {}, derivePrincipal(core, "web", "owner", true));
  out.push(`manifest before the allow-list ${JSON.stringify(core.registry.manifest(derivePrincipal(core, "chat", "-1005")))}`);

  const api = async (label: string, method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<void> => {
    const req: HttpRequest = {
      method,
      path,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : encodeUtf8(body),
    };
    const res = await halo.handleHttp(req);
    out.push(`api ${label} ${res.status} ${res.body}`);
  };
  await api("put secret", "PUT", "/api/secrets/openai", '{"value":"sk-scenario"}');
  await api("list secrets", "GET", "/api/secrets");
  out.push(`getSecret reads it back ${core.secrets.getSecret("openai") === "sk-scenario"}; unknown name ${core.secrets.getSecret("nope")}`);
  await api("malformed path", "GET", "/api/secrets/%E0%A4%A");
  await api("encoded path", "DELETE", "/api/clients/%6Can");
  await api("bad json", "PUT", "/api/secrets/openai", '{"value":');
  await api("deep", "PUT", "/api/chats", "[".repeat(100) + "]".repeat(100));
  await api("wrong method", "POST", "/api/secrets");
  await api("no token", "GET", "/api/secrets", undefined, { authorization: "" });
  await api("token in url", "GET", "/api/secrets?token=abc");
  await api("chats", "PUT", "/api/chats", '{"chats":["-1005"]}');
  out.push(`manifest of a user ${core.registry.manifest(derivePrincipal(core, "chat", "-1005"))}`);
  await api("priority", "PUT", "/api/providers/priority", '{"priority":["mistral","openai"]}');
  await api("client", "POST", "/api/clients", '{"name":"lan","role":"guest"}');
  await api("config", "PUT", "/api/config/hwTests", '{"value":false}');
  await api("wifi", "GET", "/api/wifi");
  await api("wifi short password", "PUT", "/api/wifi", '{"ssid":"Home","password":"short-1"}');
  await api("wifi long name", "PUT", "/api/wifi", `{"ssid":"${"é".repeat(17)}","password":"scenario-pass"}`);
  await api("wifi join", "PUT", "/api/wifi", '{"ssid":"Home","password":"scenario-pass"}');
  await api("wifi joined", "GET", "/api/wifi");
  await api("wifi scan", "GET", "/api/wifi/scan");
  await api("quota", "PUT", "/api/people/-1005", '{"quota":{"vectors":2000,"pins":200000}}');
  await api("quota", "PUT", "/api/people/-1005", '{"quota":{"vectors":2000}}');
  core.artifacts.saveText(derivePrincipal(core, "chat", "-1005"), "notes", "plan.md", "# plan");
  await api("files", "GET", "/api/files");
  await api("files of", "GET", "/api/files/-1005");
  await api("delete file", "DELETE", "/api/files/-1005/notes/plan.md");
  await api("skills", "GET", "/api/skills");
  out.push(`principal chat ${JSON.stringify(derivePrincipal(core, "chat", "-1005"))}`);
  out.push(`config after restart ${JSON.stringify(new ConfigStore(ports.settings, ports.log).all().filter((k) => !k.isDefault))}`);
  return out;
}
