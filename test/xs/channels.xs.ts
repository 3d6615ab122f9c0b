// XS entry: replies, Telegram and web search (multipart, Bot API client, inbound loop, Tavily, budget, tools) on the XS host.
import { runChannelsScenario } from "../scenarios/channels.ts";

declare function print(...args: unknown[]): void;
declare function exit(code: number): void;

async function main(): Promise<void> {
  const transcript = await runChannelsScenario();
  for (const line of transcript) print(`T ${JSON.stringify(line)}`);
  print("END");
}

main().catch((e) => {
  print(`FAILED ${e instanceof Error ? e.message : String(e)}`);
  exit(1);
});
