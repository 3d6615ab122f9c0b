// MCP throughput over loopback, 16 concurrent clients: the simulator against the official SDK's McpServer
// (stateless Streamable HTTP) serving the same tools, measured in the same run.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { load } from "./load.mjs";

function startProcess(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
    child.on("exit", (code) => reject(new Error(`${args[0]} exited with ${code}`)));
  });
}

const REQUESTS = {
  "tools-list": { jsonrpc: "2.0", id: 1, method: "tools/list" },
  "docs-search": { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "docs.search", arguments: { query: "memory tool" } } },
};

export async function runMcpBench({ durationMs = 3000 } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), "halo-bench-"));
  const sim = await startProcess(["hosts/sim/main.ts"], { HALO_PORT: "0", HALO_DATA: dataDir });
  const simToken = readFileSync(join(dataDir, "admin-token"), "utf8").trim();
  const sdk = await startProcess(["bench/sdk-server.ts"], { BENCH_TOKEN: "bench-token", BENCH_PORT: "0" });
  const figures = [];
  const common = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2025-11-25",
  };
  const rps = {};
  try {
    for (const [name, message] of Object.entries(REQUESTS)) {
      const body = JSON.stringify(message);
      const halo = await load({ url: `${sim.url}/mcp`, headers: { ...common, authorization: `Bearer ${simToken}` }, body, durationMs });
      const base = await load({ url: `${sdk.url}/mcp`, headers: { ...common, authorization: "Bearer bench-token" }, body, durationMs });
      figures.push([`mcp-rps-${name}`, halo.rps], [`mcp-p50-ms-${name}`, halo.p50], [`mcp-p99-ms-${name}`, halo.p99]);
      figures.push([`sdk-rps-${name}`, base.rps], [`sdk-p50-ms-${name}`, base.p50], [`sdk-p99-ms-${name}`, base.p99]);
      rps[name] = [halo.rps, base.rps];
    }
  } finally {
    sim.child.kill();
    sdk.child.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const ratio = (rps["tools-list"][0] + rps["docs-search"][0]) / (rps["tools-list"][1] + rps["docs-search"][1]);
  return { figures, ratio };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { figures, ratio } = await runMcpBench();
  for (const [k, v] of figures) console.log(`${k}: ${v.toFixed(2)}`);
  console.log(`mcp-throughput-ratio-vs-sdk: ${ratio.toFixed(2)}`);
}
