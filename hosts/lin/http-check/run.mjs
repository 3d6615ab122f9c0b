// Runs the HttpClient check: a local node:http server on 127.0.0.1:8098 (the
// port the check's manifest names) and the check's mc.so under halo-lin.
// Usage: node hosts/lin/http-check/run.mjs <path to the check's mc.so>
import { createServer } from "node:http";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const PORT = 8098;
const RUN_LIMIT_MS = 60000;
const so = process.argv[2];
if (!so) {
  console.error("usage: node hosts/lin/http-check/run.mjs <mc.so>");
  process.exit(64);
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8");
    if (req.url === "/hello") {
      const bytes = Buffer.from("hello \u2713");
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8", "content-length": bytes.length, "x-check": "yes" });
      res.end(bytes);
    } else if (req.url.startsWith("/echo")) {
      res.writeHead(200, { "content-type": "application/json" }); // no length: chunked
      const json = JSON.stringify({ method: req.method, url: req.url, body, token: req.headers["x-token"] });
      res.write(json.slice(0, 10));
      setTimeout(() => res.end(json.slice(10)), 50);
    } else if (req.url === "/big") {
      const bytes = Buffer.alloc(200000, 0x7a);
      res.writeHead(200, { "content-length": bytes.length });
      res.end(bytes);
    } else if (req.url === "/slow") {
      setTimeout(() => res.end("late"), 3000);
    } else if (req.url === "/redirect") {
      res.writeHead(302, { location: "/hello", "content-length": 0 });
      res.end();
    } else {
      res.writeHead(404);
      res.end();
    }
  });
});
await new Promise((ok) => server.listen(PORT, "127.0.0.1", ok));

const runner = fileURLToPath(new URL("../halo-lin", import.meta.url));
const child = spawn(runner, [so], { stdio: ["ignore", "pipe", "inherit"] });
let failed = 0;
let done = false;
let buffer = "";
child.stdout.on("data", (d) => {
  buffer += d.toString();
  for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
    const line = buffer.slice(0, nl);
    buffer = buffer.slice(nl + 1);
    console.log(line);
    if (/^CHECK \S+ FAIL/.test(line)) failed++;
    if (line === "CHECK done") {
      done = true;
      child.kill();
    }
  }
});
const limit = setTimeout(() => child.kill(), RUN_LIMIT_MS);
child.on("exit", () => {
  clearTimeout(limit);
  server.closeAllConnections();
  server.close();
  if (!done) console.log("the check did not finish");
  process.exit(failed || !done ? 1 : 0);
});
