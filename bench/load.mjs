// A closed-loop HTTP load generator: N concurrent clients over keep-alive sockets, each sending the next
// request when the last answer arrives. Reports requests per second and latency percentiles.
import { Agent, request } from "node:http";

function once(agent, url, headers, body) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(url, { method: "POST", agent, headers: { ...headers, "content-length": Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on("end", () =>
        res.statusCode === 200 ? resolve(Number(process.hrtime.bigint() - started) / 1e6) : reject(new Error(`status ${res.statusCode}`)),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Runs `concurrency` loops for `durationMs` after a warm-up; returns {rps, p50, p99, count}. */
export async function load({ url, headers, body, concurrency = 16, durationMs = 3000, warmupMs = 500 }) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies = [];
  let recording = false;
  let stop = false;
  const loop = async () => {
    while (!stop) {
      const ms = await once(agent, url, headers, body);
      if (recording) latencies.push(ms);
    }
  };
  const loops = Array.from({ length: concurrency }, loop);
  await new Promise((r) => setTimeout(r, warmupMs));
  recording = true;
  const started = Date.now();
  await new Promise((r) => setTimeout(r, durationMs));
  recording = false;
  const elapsed = (Date.now() - started) / 1000;
  stop = true;
  await Promise.all(loops);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99), count: latencies.length };
}
