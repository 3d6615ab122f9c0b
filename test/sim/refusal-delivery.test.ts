// A 413 must reach the client before the connection closes. The simulator once destroyed the socket as soon
// as the refusal was written, while the client was still sending its body: the kernel then answered with a
// reset and about 40% of clients saw ECONNRESET instead of the 413. Now the refusal is ended, the write side
// closed, and what the client still sends is read and dropped (bounded) before the socket goes.
import assert from "node:assert/strict";
import { request } from "node:http";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { startTestSim, type TestSim } from "../support/sim.ts";

/** A declared body that arrives late, in two pieces: the refusal is written before the client sends it. */
function lateBody(sim: TestSim, path: string, bytes: number, delayMs: number): Promise<string> {
  const { port } = new URL(sim.url);
  return new Promise((resolve) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: Number(port),
        path,
        method: "POST",
        headers: { authorization: `Bearer ${sim.token}`, "content-type": "application/json", "content-length": String(bytes) },
      },
      (res) => {
        res.resume();
        resolve(String(res.statusCode));
      },
    );
    req.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    req.flushHeaders();
    setTimeout(() => {
      req.write(Buffer.alloc(bytes / 3, 0x61));
      setTimeout(() => req.end(Buffer.alloc(bytes - bytes / 3, 0x61)), 5);
    }, delayMs);
  });
}

/** The same through fetch (undici), whose body stream starts late. */
async function lateFetch(sim: TestSim, path: string, bytes: number, delayMs: number): Promise<string> {
  const body = new ReadableStream<Uint8Array>({
    async start(c) {
      await new Promise((ok) => setTimeout(ok, delayMs));
      c.enqueue(new Uint8Array(bytes / 3));
      await new Promise((ok) => setTimeout(ok, 5));
      c.enqueue(new Uint8Array(bytes - bytes / 3));
      c.close();
    },
  });
  try {
    const r = await fetch(`${sim.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${sim.token}`, "content-type": "application/json", "content-length": String(bytes) },
      body,
      duplex: "half",
    } as RequestInit);
    return String(r.status);
  } catch (e) {
    return String((e as { cause?: { code?: string } }).cause?.code ?? e);
  }
}

describe("refusals delivered before the connection closes (simulator)", function () {
  this.timeout(120_000);
  let sim: TestSim;
  before(async () => {
    sim = await startTestSim({ portOverrides: { log: memoryLog() } });
  });
  after(async () => {
    await sim.stop();
  });

  it("50 oversized bodies that arrive after the refusal all get their 413 (node:http and fetch)", async () => {
    const seen = new Map<string, number>();
    const bytes = 3 * 1024 * 1024;
    for (let i = 0; i < 50; i++) {
      const outcome = i % 2 === 0 ? await lateBody(sim, "/mcp", bytes, 20 + (i % 5) * 10) : await lateFetch(sim, "/mcp", bytes, 30);
      seen.set(outcome, (seen.get(outcome) ?? 0) + 1);
    }
    assert.deepEqual([...seen], [["413", 50]]);
    const ok = await fetch(`${sim.url}/api/status`, { headers: { authorization: `Bearer ${sim.token}` } });
    assert.notEqual(ok.status, 500, "still serving");
  });
});
