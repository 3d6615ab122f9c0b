// The output channels and the web search: the Telegram client and channel (also where files.send
// delivers on a host without its own messenger), voice notes, and Tavily with its monthly budget.
import { OpenAiVoiceSynth } from "../../chat/openai-voice";
import { TelegramClient } from "../../chat/telegram";
import { TelegramChannel } from "../../chat/telegram-channel";
import type { VoiceSynth } from "../../chat/voice";
import { WEB_BUDGET_KNOB, WebSearchBudget } from "../../web/search-budget";
import { TavilyClient } from "../../web/tavily";
import { defineSubsystem } from "../subsystem";

export const CHANNELS = defineSubsystem({
  name: "channels",
  ports: ["http", "random", "clock", "settings", "log"],
  needs: ["secrets", "config", "chats", "baseUrls"],
  provides: ["telegram", "voiceNotes", "webBudget", "webSearch"],
  build(p, { secrets, config, chats, baseUrls }) {
    const client = new TelegramClient(p.http, p.random, { token: () => secrets.getSecret("telegram"), baseUrl: () => baseUrls.telegram });
    const telegram = new TelegramChannel({ client, chats, ownerChat: () => config.string("ownerChatId") || undefined });
    const openaiVoice = new OpenAiVoiceSynth(p.http, p.clock, {
      apiKey: () => secrets.getSecret("openai"),
      baseUrl: () => baseUrls.openai,
    });
    // Voice notes are made with OpenAI speech; with another ttsProv a note is refused and the text is sent.
    const voiceNotes: VoiceSynth = {
      synthesize: (text, name) =>
        config.string("ttsProv") === "openai"
          ? openaiVoice.synthesize(text, name)
          : Promise.reject(new Error(`Voice notes are made with OpenAI speech only; ttsProv is ${config.string("ttsProv")}.`)),
    };
    return {
      telegram,
      voiceNotes,
      webBudget: new WebSearchBudget(p.settings, () => config.number(WEB_BUDGET_KNOB), p.clock, p.log),
      webSearch: new TavilyClient(p.http, { apiKey: () => secrets.getSecret("tavily"), baseUrl: () => baseUrls.tavily }),
    };
  },
});
