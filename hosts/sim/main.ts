// `npm start`: the whole device on a PC.
import { existsSync } from "node:fs";
import { optionsFromEnv, startSimulator } from "./start.ts";

const sim = await startSimulator(optionsFromEnv(process.env));
console.log(`[halo] simulator listening on ${sim.url} (status page ${sim.url}/, MCP endpoint ${sim.url}/mcp)`);
if (existsSync(sim.tokenPath)) console.log(`[halo] owner token: ${sim.tokenPath} (keep it private)`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => void sim.close().then(() => process.exit(0)));
}
