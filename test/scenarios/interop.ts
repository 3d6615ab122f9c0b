// A scenario of this issue's portable parts, run on Node and on XS with identical transcripts:
// the host-address parser and classifier files.fetch relies on, the fetch URL check, plain tool
// names, the per-namespace results ring and the rate-limited log.
import { checkFetchUrl } from "../../lib/store/https-fetch.ts";
import { ResultsRing } from "../../lib/registry/results-ring";
import { canonicalToolName, plainToolName } from "../../lib/mcp/tool-names.ts";
import { formatAddress, isPublicAddress, parseHostAddress, parseResolvedAddress } from "../../lib/util/ip-address.ts";
import { RateLimitedLog } from "../../lib/util/log-limit.ts";

const HOSTS = [
  "0177.0.0.1",
  "0x7f.0.0.1",
  "2130706433",
  "127.1",
  "017700000001",
  "[0:0:0:0:0:0:0:1]",
  "[0::1]",
  "[0::ffff:127.0.0.1]",
  "[::ffff:7f00:1]",
  "0xa.0.0.1",
  "0254.020.0.1",
  "0300.0250.0.1",
  "0144.0100.0.1",
  "0251.0376.0251.0376",
  "0xa9fea9fe",
  "[64:ff9b::7f00:1]",
  "[2002:c0a8:101::1]",
  "[fe80::1]",
  "8.8.8.8",
  "0x8.0x8.0x8.0x8",
  "[2606:4700::1111]",
  "example.com",
  "256.0.0.1",
  "08.0.0.1",
  "files.123",
  "[1::2::3]",
];

export async function runInteropScenario(): Promise<string[]> {
  const out: string[] = [];
  for (const host of HOSTS) {
    const a = parseHostAddress(host);
    out.push(`host ${host} -> ${a ? `${a.kind} ${formatAddress(a)} ${isPublicAddress(a) ? "public" : "local"}` : "invalid"}`);
  }
  for (const r of ["93.184.215.14", "10.0.0.7", "::ffff:10.0.0.7", "2606:4700::1111", "0177.0.0.1"]) {
    const a = parseResolvedAddress(r);
    out.push(`resolved ${r} -> ${a ? `${formatAddress(a)} ${isPublicAddress(a) ? "public" : "local"}` : "invalid"}`);
  }
  for (const url of [
    "https://0x7f.0.0.1:8443/x",
    "http://example.com/",
    "https://printer.local/",
    "https://[::1]/",
    "https://example.com/a.md",
  ]) {
    const r = checkFetchUrl(url, false);
    out.push(`fetch ${url} -> ${typeof r === "string" ? r : `${r.host} ok`}`);
  }
  const registry = {
    has: (n: string) => n === "docs.search" || n === "memory.write",
    all: () => [{ name: "docs.search" }, { name: "memory.write" }],
  };
  for (const n of ["docs.search", "docs_search", "memory_write", "docs_searchx", "docs.search_"]) {
    out.push(`tool ${n} -> ${canonicalToolName(n, registry) ?? "unknown"} (plain ${plainToolName(n)})`);
  }
  const ring = new ResultsRing();
  const kept = ring.put("alice", "k", "n", "alice's");
  for (let i = 0; i < 100; i++) ring.put("mallory", "k", "n", "m".repeat(8000));
  out.push(`ring alice ${ring.get("alice", kept)?.text} mallory ${ring.list("mallory").length} entries`);
  const lines: string[] = [];
  let now = 0;
  const log = new RateLimitedLog({ info: (m) => void lines.push(m), warn: (m) => void lines.push(`warn ${m}`) }, { now: () => now });
  for (let i = 0; i < 50; i++) log.warn(`request failed: aborted ${i}`);
  now = 60_000;
  log.info("next window");
  out.push(`log ${lines.length} lines, ${log.withheld()} withheld: ${lines.join(" | ")}`);
  return out;
}
