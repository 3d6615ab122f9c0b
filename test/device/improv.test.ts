import assert from "node:assert/strict";
import {
  IMPROV_TYPE_ERROR,
  IMPROV_TYPE_RESULT,
  IMPROV_TYPE_STATE,
  ImprovReader,
  encodeImprov,
  type ImprovPacket,
} from "../../lib/net/improv-frame.ts";
import { ImprovService, rpcResult, type ImprovDevice } from "../../lib/net/improv.ts";

const ascii = (s: string): number[] => Array.from(s, (c) => c.charCodeAt(0));
const HEADER = ascii("IMPROV");
/** The spec's example RPC (improv-wifi.com/serial): SSID MyWirelessAP, password mysecurepassword. */
const SPEC_WIFI_RPC = [0x01, 0x1e, 0x0c, ...ascii("MyWirelessAP"), 0x10, ...ascii("mysecurepassword")];
/** That RPC as a client sends it: header, version 1, type 3, length 32, data, checksum (sum of all bytes before it, mod 256), newline. */
const SPEC_WIFI_FRAME = Uint8Array.from([...HEADER, 1, 3, 32, ...SPEC_WIFI_RPC, 0xc1, 0x0a]);

const frame = (type: number, data: number[]): Uint8Array => encodeImprov(type, Uint8Array.from(data));
const rpc = (command: number, data: number[] = []): Uint8Array => frame(3, [command, data.length, ...data]);

function harness(over: Partial<ImprovDevice> = {}) {
  const sent: ImprovPacket[] = [];
  const reader = new ImprovReader();
  const joins: Array<{ ssid: string; password: string }> = [];
  let online = false;
  const device: ImprovDevice = {
    firmwareName: "Halo",
    firmwareVersion: "0.1.0",
    hardware: "esp32-s3-devkitc-1/esp32-s3",
    deviceName: () => "Desk Halo",
    hostname: () => "halo",
    network: () => ({ online, wifi: true, urls: online ? ["http://192.168.1.10"] : [] }),
    join: async (j) => {
      joins.push(j);
      online = j.password === "mysecurepassword";
      return online;
    },
    ...over,
  };
  const service = new ImprovService(device, (bytes) => {
    assert.equal(bytes[bytes.length - 1], 0x0a, "each packet ends with a newline");
    for (const r of reader.push(bytes)) if (r.ok) sent.push(r.packet);
  });
  const strings = (p: ImprovPacket): string[] => {
    const out: string[] = [];
    for (let at = 2; at < p.data.length; at += 1 + p.data[at])
      out.push(String.fromCharCode(...p.data.subarray(at + 1, at + 1 + p.data[at])));
    return out;
  };
  return { sent, joins, service, strings };
}

describe("Improv serial framing", () => {
  it("encodes the spec's Wi-Fi example with its checksum and newline", () => {
    assert.deepEqual(frame(3, SPEC_WIFI_RPC), SPEC_WIFI_FRAME);
    assert.deepEqual(frame(IMPROV_TYPE_STATE, [2]), Uint8Array.from([...HEADER, 1, 1, 1, 2, 0xe2, 0x0a]));
  });

  it("finds packets among console log text, split across reads", () => {
    const reader = new ImprovReader();
    const noise = ascii("[halo] booting IMPRO IMPROVX\n");
    const stream = Uint8Array.from([...noise, ...SPEC_WIFI_FRAME, ...ascii("more log\n"), ...HEADER, 1, 3, 2, 7, 0, 0xea]);
    const found = [];
    for (let i = 0; i < stream.length; i += 7) found.push(...reader.push(stream.subarray(i, i + 7)));
    assert.equal(found.length, 2);
    assert.ok(found[0].ok && found[1].ok);
    assert.deepEqual(Array.from(found[0].packet.data), SPEC_WIFI_RPC);
    assert.deepEqual(Array.from(found[1].packet.data), [7, 0]);
  });

  it("reports a bad checksum and a wrong version is skipped", () => {
    const reader = new ImprovReader();
    const bad = SPEC_WIFI_FRAME.slice();
    bad[bad.length - 2] ^= 1;
    assert.deepEqual(reader.push(bad), [{ ok: false, type: 3 }]);
    assert.deepEqual(reader.push(Uint8Array.from([...HEADER, 2, 3, 0, 0])), []);
  });

  it("clips an RPC result to the one-byte length", () => {
    const r = rpcResult(3, ["a".repeat(200), "b".repeat(200)]);
    assert.ok(r.length <= 255 + 2 && r[1] === r.length - 2);
    assert.equal(r[2], 200);
  });
});

describe("Improv service", () => {
  it("joins with the spec's example credentials: provisioning, provisioned, then the URL", async () => {
    const h = harness();
    await h.service.receive(SPEC_WIFI_FRAME);
    assert.deepEqual(h.joins, [{ ssid: "MyWirelessAP", password: "mysecurepassword" }]);
    assert.deepEqual(
      h.sent.map((p) => [p.type, p.data[0]]),
      [
        [IMPROV_TYPE_ERROR, 0x00],
        [IMPROV_TYPE_STATE, 0x03],
        [IMPROV_TYPE_STATE, 0x04],
        [IMPROV_TYPE_RESULT, 0x01],
      ],
    );
    assert.deepEqual(h.strings(h.sent[3]), ["http://192.168.1.10"]);
  });

  it("reports unable to connect and goes back to ready when the join fails", async () => {
    const h = harness();
    const wrong = [0x01, 0x0f, 0x04, ...ascii("home"), 0x09, ...ascii("wrongpass")];
    await h.service.receive(frame(3, wrong));
    assert.deepEqual(
      h.sent.slice(1).map((p) => [p.type, p.data[0]]),
      [
        [IMPROV_TYPE_STATE, 0x03],
        [IMPROV_TYPE_STATE, 0x02],
        [IMPROV_TYPE_ERROR, 0x03],
      ],
    );
  });

  it("answers RPC 0x07 with the network flags, and the URL only when online", async () => {
    const h = harness();
    await h.service.receive(rpc(0x07));
    assert.deepEqual(h.strings(h.sent[1]), ["2"], "offline, Wi-Fi present");
    await h.service.receive(SPEC_WIFI_FRAME);
    h.sent.length = 0;
    await h.service.receive(rpc(0x07));
    assert.equal(h.sent[1].data[0], 0x07);
    assert.deepEqual(h.strings(h.sent[1]), ["3", "http://192.168.1.10"]);
  });

  it("answers device info, current state, hostname, device name and an empty scan", async () => {
    const h = harness();
    await h.service.receive(rpc(0x03));
    assert.deepEqual(h.strings(h.sent[1]), ["Halo", "0.1.0", "esp32-s3-devkitc-1/esp32-s3", "Desk Halo"]);
    h.sent.length = 0;
    await h.service.receive(rpc(0x02));
    assert.deepEqual([h.sent[1].type, h.sent[1].data[0]], [IMPROV_TYPE_STATE, 0x02]);
    h.sent.length = 0;
    await h.service.receive(rpc(0x05));
    assert.deepEqual(h.strings(h.sent[1]), ["halo"]);
    h.sent.length = 0;
    await h.service.receive(rpc(0x06));
    assert.deepEqual(h.strings(h.sent[1]), ["Desk Halo"]);
    h.sent.length = 0;
    await h.service.receive(rpc(0x04));
    assert.deepEqual([h.sent[1].type, h.sent[1].data[0], h.sent[1].data[1]], [IMPROV_TYPE_RESULT, 0x04, 0]);
  });

  it("lists scanned networks, one result each, then an empty one", async () => {
    const h = harness({ scan: async () => [{ ssid: "home", rssi: -60, secure: true }] });
    await h.service.receive(rpc(0x04));
    assert.deepEqual(h.strings(h.sent[1]), ["home", "-60", "YES"]);
    assert.deepEqual(h.strings(h.sent[2]), []);
  });

  it("refuses malformed, unknown and hostile commands with the spec's error codes", async () => {
    const h = harness();
    const errors = async (bytes: Uint8Array): Promise<number[]> => {
      h.sent.length = 0;
      await h.service.receive(bytes);
      return h.sent.filter((p) => p.type === IMPROV_TYPE_ERROR).map((p) => p.data[0]);
    };
    assert.deepEqual(await errors(rpc(0x42)), [0x00, 0x02], "unknown command");
    assert.deepEqual(await errors(frame(3, [0x01, 9, 1, 2])), [0x01], "length does not match");
    assert.deepEqual(await errors(rpc(0x01, [0x05, ...ascii("ab")])), [0x00, 0x01], "string runs past the data");
    assert.deepEqual(await errors(rpc(0x01, [33, ...new Array(33).fill(0x61), 0])), [0x00, 0x01], "SSID over 32 bytes");
    assert.deepEqual(await errors(rpc(0x01, [4, ...ascii("home"), 3, ...ascii("abc")])), [0x00, 0x01], "passphrase too short");
    assert.deepEqual(await errors(rpc(0x05, ascii("evil"))), [0x00, 0x05], "the hostname is not set from serial");
    const bad = SPEC_WIFI_FRAME.slice();
    bad[12] ^= 0xff;
    assert.deepEqual(await errors(bad), [0x01], "bad checksum");
    assert.equal(h.joins.length, 0);
    assert.deepEqual(await errors(rpc(0x02)), [0x00], "still serving");
  });
});
