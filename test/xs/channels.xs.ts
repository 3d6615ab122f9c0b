// XS entry: replies, Telegram and web search (multipart, Bot API client, inbound loop, Tavily, budget, tools) on the XS host.
import { runChannelsScenario } from "../scenarios/channels.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(runChannelsScenario);
