// Builds the output channels and the web search: the Telegram client and
// channel (also the Messenger files.send delivers through), reply.speak,
// reply.telegram, and web.search with its monthly budget. buildCore calls it.
import { OpenAiVoiceSynth } from "../../chat/openai-voice";
import { TelegramClient } from "../../chat/telegram";
import { TelegramChannel } from "../../chat/telegram-channel";
import type { VoiceSynth } from "../../chat/voice";
import type { DeviceActuator } from "../../device/actuator";
import type { ConfigStore } from "../../device/config";
import type { IntrospectionSources } from "../../status/sources";
import type { SecretStore } from "../../device/secrets";
import type { ChatAllowList } from "../../people/chat-allowlist";
import type { Ports } from "../../ports";
import type { ToolRegistry } from "../../registry/registry";
import { WEB_BUDGET_KNOB, WebSearchBudget, webUsageSource } from "../../web/search-budget";
import { TavilyClient } from "../../web/tavily";
import { registerReplyTools } from "../../tools/reply";
import { registerWebTools } from "../../tools/web";

export interface ChannelsDeps {
  secrets: SecretStore;
  config: ConfigStore;
  chats: ChatAllowList;
  actuator: DeviceActuator;
  introspection: IntrospectionSources;
  /** Base URLs by service (`telegram`, `tavily`, `openai`); unset means the public API. */
  baseUrls?: { [service: string]: string | undefined };
  /** Voice notes; default: OpenAI speech when the ttsProv knob is openai. */
  voice?: VoiceSynth;
}

export interface ChannelsSubsystem {
  telegram: TelegramChannel;
  webBudget: WebSearchBudget;
}

/** The ports the output channels are built from. */
export type ChannelsPorts = Pick<Ports, "http" | "random" | "clock" | "settings" | "log">;

export function buildChannelsSubsystem(registry: ToolRegistry, ports: ChannelsPorts, deps: ChannelsDeps): ChannelsSubsystem {
  const { secrets, config, chats } = deps;
  const client = new TelegramClient(ports.http, ports.random, {
    token: () => secrets.getSecret("telegram"),
    baseUrl: () => deps.baseUrls?.telegram,
  });
  const telegram = new TelegramChannel({ client, chats, ownerChat: () => config.string("ownerChatId") || undefined });
  deps.introspection.chatLink = { health: () => telegram.linkHealth() };
  const openaiVoice = new OpenAiVoiceSynth(ports.http, ports.clock, {
    apiKey: () => secrets.getSecret("openai"),
    baseUrl: () => deps.baseUrls?.openai,
  });
  const voice: VoiceSynth = deps.voice ?? {
    synthesize: (text, name) =>
      config.string("ttsProv") === "openai"
        ? openaiVoice.synthesize(text, name)
        : Promise.reject(new Error(`Voice notes are made with OpenAI speech only; ttsProv is ${config.string("ttsProv")}.`)),
  };
  registerReplyTools(registry, { actuator: deps.actuator, config, telegram, chats, voice });
  const webBudget = new WebSearchBudget(ports.settings, () => config.number(WEB_BUDGET_KNOB), ports.clock, ports.log);
  // Decided at boot, like the reference device: a key set later takes effect at the next restart.
  if (secrets.isSet("tavily")) {
    const tavily = new TavilyClient(ports.http, { apiKey: () => secrets.getSecret("tavily"), baseUrl: () => deps.baseUrls?.tavily });
    registerWebTools(registry, { client: tavily, budget: webBudget });
    deps.introspection.web = webUsageSource(webBudget);
  }
  return { telegram, webBudget };
}
