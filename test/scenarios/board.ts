// The board's pure logic in one scripted run: ring phases and frames, button
// gestures, captive DNS answers, Improv frames and RPCs, the Wi-Fi setup flow
// and the portal pages. Node and XS must give the same transcript line for line.
import { ButtonGestures } from "../../lib/device/button.ts";
import { frameBytes, renderFrame } from "../../lib/device/ring/frames.ts";
import { DEFAULT_LOOK } from "../../lib/device/ring/look.ts";
import { RingMachine, type RingEvent } from "../../lib/device/ring/machine.ts";
import { RING_PHASES } from "../../lib/device/ring/phases.ts";
import { RingRunner } from "../../lib/device/ring/runner.ts";
import { answerDns } from "../../lib/net/dns.ts";
import { encodeImprov, ImprovReader } from "../../lib/net/improv-frame.ts";
import { ImprovService } from "../../lib/net/improv.ts";
import { portalRequest } from "../../lib/net/portal.ts";
import { WifiSetup } from "../../lib/net/wifi-setup.ts";

const hex = (b: Uint8Array): string => Array.from(b, (x) => (x < 16 ? "0" : "") + x.toString(16)).join("");
const bytes = (s: string): Uint8Array => Uint8Array.from(s.match(/../g) ?? [], (h) => parseInt(h, 16));
const ascii = (s: string): number[] => Array.from(s, (c) => c.charCodeAt(0));

function ring(out: string[]): void {
  const f = new Uint8Array(frameBytes(12));
  for (const phase of RING_PHASES)
    for (const t of [0, 250, 777, 1600])
      out.push(`frame ${phase} ${t} ${hex(renderFrame(phase, t, 12, { ...DEFAULT_LOOK, brightness: 255 }, f))}`);
  const m = new RingMachine();
  const events: RingEvent[] = [
    { kind: "network", up: false },
    { kind: "booted" },
    { kind: "network", up: true },
    { kind: "turn-start" },
    { kind: "tool-running" },
    { kind: "reply" },
    { kind: "error" },
    { kind: "turn-end" },
    { kind: "muted", on: true },
    { kind: "setup", on: true },
  ];
  let now = 0;
  for (const e of events) {
    m.apply(e, now, 500);
    out.push(`ring ${e.kind} -> ${m.shown(now, "full")} / ${m.shown(now, "subtle")}`);
    now += 200;
  }
  const written: string[] = [];
  const runner = new RingRunner(new RingMachine(), { pixels: 12, write: (x) => void written.push(hex(x)) }, () => DEFAULT_LOOK);
  for (let t = 0; t < 400; t += 11) runner.tick(t);
  out.push(`runner wrote ${written.length} boot frames, last ${written[written.length - 1]}`);
}

function button(out: string[]): void {
  const b = new ButtonGestures();
  const levels: Array<[number, boolean]> = [
    [0, true],
    [5, false],
    [10, true],
    [200, false],
    [1000, true],
    [4500, false],
    [6000, true],
    [17000, false],
  ];
  let i = 0;
  for (let t = 0; t < 18000; t += 10) {
    while (i < levels.length && levels[i][0] <= t) i++;
    const level = i > 0 && levels[i - 1][1];
    for (const g of b.sample(level, t)) out.push(`button ${t} ${g}`);
  }
}

function dns(out: string[]): void {
  const queries = [
    "abcd01000001000000000000076578616d706c6503636f6d0000010001",
    "abcd01000001000000000000076578616d706c6503636f6d00001c0001",
    "abcd21000001000000000000076578616d706c6503636f6d0000010001",
    "abcd0100000100000000000007657861",
    "abcd",
  ];
  for (const q of queries) {
    const a = answerDns(bytes(q), "192.168.4.1");
    out.push(`dns ${q.slice(0, 12)} -> ${a ? hex(a) : "dropped"}`);
  }
}

async function improv(out: string[]): Promise<void> {
  let online = false;
  const sent: string[] = [];
  const service = new ImprovService(
    {
      firmwareName: "Halo",
      firmwareVersion: "0.1.0",
      hardware: "esp32-s3",
      deviceName: () => "Halo",
      hostname: () => "halo",
      network: () => ({ online, wifi: true, urls: online ? ["http://10.0.0.2"] : [] }),
      join: async (j) => (online = j.password.length >= 8),
    },
    (b) => void sent.push(hex(b)),
  );
  const rpc = (c: number, data: number[]): Uint8Array => encodeImprov(3, Uint8Array.from([c, data.length, ...data]));
  const wifi = [4, ...ascii("home"), 8, ...ascii("password")];
  for (const packet of [rpc(7, []), rpc(3, []), rpc(1, wifi), rpc(7, []), rpc(2, []), rpc(9, [])]) {
    sent.length = 0;
    await service.receive(packet);
    out.push(`improv ${hex(packet)} -> ${sent.join(" ")}`);
  }
  const reader = new ImprovReader();
  const noisy = Uint8Array.from([...ascii("log IMPROV"), ...rpc(2, [])]);
  out.push(`improv reader ${JSON.stringify(reader.push(noisy).map((r) => (r.ok ? hex(r.packet.data) : "bad")))}`);
}

function setup(out: string[]): void {
  const w = new WifiSetup(true);
  const modes: string[] = [];
  for (let i = 0; i < 7; i++) modes.push(`${w.apply({ kind: "disconnected" })}@${w.retryDelayMs()}`);
  out.push(`wifi ${modes.join(" ")}`);
  for (const [method, path, body] of [
    ["GET", "/generate_204", ""],
    ["GET", "/", ""],
    ["POST", "/setup", "ssid=home&password=12345678"],
    ["POST", "/setup", "ssid=home&password=1"],
    ["POST", "/setup", "ssid=%ZZ"],
  ]) {
    const a = portalRequest(method, path, body, "192.168.4.1", "Halo");
    out.push(`portal ${method} ${path} ${a.status} ${a.headers.location ?? ""} ${a.join ? JSON.stringify(a.join) : ""} ${a.body.length}`);
  }
}

export async function runBoardScenario(): Promise<string[]> {
  const out: string[] = [];
  ring(out);
  button(out);
  dns(out);
  await improv(out);
  setup(out);
  return out;
}
