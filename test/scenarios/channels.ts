// Replies, Telegram and web search as a transcript: multipart bodies, the Bot API
// client and its errors, text splitting, the inbound loop, the Tavily client and
// the monthly budget, and reply.* / web.search through the whole core. No sockets
// (XS has none in the test host): scripted HttpClient ports answer in each wire format.
import { TEST_HOST } from "../support/halo.ts";
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import { deliverScheduledReply } from "../../lib/agents/reply-delivery.ts";
import { TelegramClient } from "../../lib/chat/telegram.ts";
import { splitForTelegram } from "../../lib/chat/telegram-channel.ts";
import { TelegramError } from "../../lib/chat/telegram-errors.ts";
import { TelegramInbound } from "../../lib/chat/telegram-inbound.ts";
import { buildCore } from "../../lib/app/core.ts";
import { derivePrincipal } from "../../lib/people/principals.ts";
import { SpendRails } from "../../lib/people/rails.ts";
import type { HttpClient, HttpClientRequest, HttpClientResponse } from "../../lib/ports.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { encodeMultipart, multipartBoundary } from "../../lib/util/multipart.ts";
import { decodeUtf8, encodeUtf8 } from "../../lib/util/utf8.ts";
import { WebSearchBudget } from "../../lib/web/search-budget.ts";
import { TavilyClient } from "../../lib/web/tavily.ts";
import { portablePorts } from "../support/portable-ports.ts";

const TOKEN = "123456789:AAH-scenario_token_abcdefghijklmn";

function reply(status: number, body: unknown): HttpClientResponse {
  return {
    status,
    headers: { "content-type": "application/json" },
    body: encodeUtf8(typeof body === "string" ? body : JSON.stringify(body)),
  };
}

/** Answers from a script, records each request with the token blanked; an empty script times out. */
function scriptedHttp(script: HttpClientResponse[], seen: string[]): HttpClient {
  return {
    request(req: HttpClientRequest) {
      const body = req.body === undefined ? "" : typeof req.body === "string" ? req.body : decodeUtf8(req.body);
      seen.push(
        `${req.method} ${req.url.split(TOKEN).join("<token>")} ${req.headers?.["content-type"] ?? ""} ${body.length} ${body.slice(0, 160)}`,
      );
      const next = script.shift();
      return next ? Promise.resolve(next) : Promise.reject(Object.assign(new Error(`no answer from ${req.url}`), { code: "timeout" }));
    },
  };
}

function describe(e: unknown): string {
  if (e instanceof TelegramError)
    return `ERR ${JSON.stringify({ kind: e.kind, status: e.status, retryAfterMs: e.retryAfterMs, message: e.message })}`;
  return `THROW ${e instanceof Error ? e.message : String(e)}`;
}

async function attempt(out: string[], label: string, work: () => Promise<unknown>): Promise<void> {
  try {
    out.push(`${label} ${JSON.stringify(await work())}`);
  } catch (e) {
    out.push(`${label} ${describe(e)}`);
  }
}

export async function runChannelsScenario(): Promise<string[]> {
  const out: string[] = [];
  const ports = portablePorts();

  // Multipart: every byte value survives, names are header-safe.
  const bytes = new Uint8Array(256);
  for (let i = 0; i < 256; i++) bytes[i] = i;
  const boundary = multipartBoundary(ports.random);
  const body = encodeMultipart(
    [
      { name: "chat_id", value: "42" },
      { name: "voice", filename: 'a"b\r\n.ogg', contentType: "audio/ogg", bytes },
    ],
    boundary,
  );
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum = (sum * 31 + body[i]) >>> 0;
  out.push(`multipart ${boundary} ${body.length} ${sum} ${JSON.stringify(decodeUtf8(body.subarray(0, 160)))}`);

  // The Bot API client.
  const seen: string[] = [];
  const script: HttpClientResponse[] = [
    reply(200, { ok: true, result: { message_id: 1 } }),
    reply(200, { ok: true, result: { message_id: 2 } }),
    reply(200, {
      ok: true,
      result: [
        { update_id: 5, message: { message_id: 9, chat: { id: -100 }, text: "hi" } },
        { update_id: 6, edited_message: {} },
      ],
    }),
    reply(400, { ok: false, error_code: 400, description: `Bad Request: chat not found ${TOKEN}` }),
    reply(429, { ok: false, error_code: 429, description: "Too Many Requests: retry after 4", parameters: { retry_after: 4 } }),
    reply(401, { ok: false, error_code: 401, description: "Unauthorized" }),
    reply(502, "<html>bad gateway</html>"),
    reply(200, "{cut"),
  ];
  let token: string | undefined = TOKEN;
  const client = new TelegramClient(scriptedHttp(script, seen), ports.random, {
    token: () => token,
    baseUrl: () => "https://api.telegram.org/",
  });
  await attempt(out, "sendMessage", () => client.sendMessage("42", "héllo"));
  await attempt(out, "sendVoice", () =>
    client.sendVoice("42", { name: "r.ogg", mime: "audio/ogg", bytes: bytes.subarray(0, 8), caption: "c" }),
  );
  await attempt(out, "getUpdates", () => client.getUpdates(5, 10, 25));
  for (const label of ["e400", "e429", "e401", "e502", "garbled", "timeout"]) await attempt(out, label, () => client.sendMessage("1", "x"));
  token = "12:bad/../token";
  await attempt(out, "badToken", () => client.sendMessage("1", "x"));
  out.push(...seen.map((s) => `seen ${s}`));
  out.push(
    `split ${JSON.stringify(splitForTelegram("ab cd\nef gh ij 😀😀 kl", 6).map((p) => p.length))} ${JSON.stringify(splitForTelegram("z".repeat(200), 60, 2))}`,
  );

  // The inbound loop over a scripted Telegram: an allowed chat, an unknown one, a failed poll, then stop.
  const polls: Array<() => Promise<unknown>> = [
    async () => [
      { updateId: 10, message: { chatId: "42", messageId: 1, text: "hello" } },
      { updateId: 11, message: { chatId: "99", messageId: 2, text: "stranger text" } },
      { updateId: 12, message: { chatId: "42", messageId: 3 } },
    ],
    async () => {
      throw new TelegramError("server", "Telegram failed with HTTP 500.", { status: 500 });
    },
  ];
  const offsets: number[] = [];
  const sent: string[] = [];
  const log: string[] = [];
  const sleeps: number[] = [];
  let finished: () => void = () => undefined;
  const done = new Promise<void>((ok) => (finished = ok));
  const allowed = new Set(["42"]);
  const inbound = new TelegramInbound({
    telegram: {
      configured: () => true,
      getUpdates: (offset) => {
        offsets.push(offset);
        const next = polls.shift();
        if (!next) finished();
        return next ? (next() as Promise<never>) : new Promise(() => undefined);
      },
      sendChatAction: async () => undefined,
    },
    sendText: async (chatId, text) => void sent.push(`${chatId}: ${text}`),
    chats: { has: (id) => allowed.has(id) },
    principalFor: (chatId) => makePrincipal(chatId, allowed.has(chatId) ? "user" : "unknown", "turn"),
    rails: new SpendRails({ config: { bool: (k) => k === "userCredit" }, now: () => 0 }),
    runner: { runTurn: async (p, input) => ({ reply: `${p.ns}/${p.role} asked ${input.channel}: ${input.text}` }) },
    log: { info: (m) => void log.push(m), warn: (m) => void log.push(`warn ${m}`) },
    sleep: async (ms) => void sleeps.push(ms),
  });
  inbound.start();
  await done;
  for (let i = 0; i < 1000 && sent.length < 2; i++) await Promise.resolve();
  await inbound.stop();
  out.push(`inbound ${JSON.stringify({ offsets, sent, log, sleeps, running: inbound.running() })}`);

  // Tavily and the budget.
  const tSeen: string[] = [];
  const tavily = new TavilyClient(
    scriptedHttp(
      [
        reply(200, {
          query: "q",
          answer: "An answer.",
          results: [{ title: "T", url: "https://e.com", content: " a\n b ", score: 1 }, { url: 3 }],
        }),
        reply(401, { detail: { error: "Unauthorized: tvly-SECRET" } }),
        reply(432, { detail: { error: "plan limit" } }),
        reply(200, "[1,"),
      ],
      tSeen,
    ),
    { apiKey: () => "tvly-SECRET", baseUrl: () => "https://api.tavily.com" },
  );
  for (const label of ["ok", "401", "432", "garbled"]) await attempt(out, `tavily.${label}`, () => tavily.search("q", 3));
  out.push(...tSeen.map((s) => `tseen ${s}`));
  let now = Date.UTC(2026, 11, 31, 23, 59);
  const settings = memorySettings();
  const budget = new WebSearchBudget(settings, () => 2, { now: () => now }, ports.log);
  const reserve = (): string => {
    try {
      budget.reserve();
      return "reserved";
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  };
  out.push(`budget ${reserve()} ${reserve()} ${reserve()} ${JSON.stringify(budget.usage())} ${settings.get("web.usage")}`);
  now += 60_000;
  out.push(`budget.next ${reserve()} ${JSON.stringify(budget.usage())}`);

  // reply.* and web.search through the whole core.
  const coreSeen: string[] = [];
  const corePorts = portablePorts();
  corePorts.settings.set("secret.tavily", "tvly-CORE");
  corePorts.http = scriptedHttp(
    [
      reply(200, { ok: true, result: {} }),
      reply(200, { answer: null, results: [{ title: "R", url: "https://r.example", content: "snippet" }] }),
      reply(200, { ok: true, result: {} }),
      reply(403, { ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" }),
    ],
    coreSeen,
  );
  const speech: string[] = [];
  // No OpenAI key: reply.speak says why nothing was spoken, and the speaker gets nothing.
  corePorts.audioOut = {
    volume: () => 50,
    setVolume: () => undefined,
    tone: async () => undefined,
    write: (samples, rate) => void speech.push(`${rate}:${samples.length}`),
    drain: async () => undefined,
    stop: () => undefined,
  };
  const core = buildCore(corePorts, TEST_HOST);
  core.secrets.set("telegram", TOKEN);
  core.config.apply([["ownerChatId", "7"]], "owner");
  const owner = derivePrincipal(core, "web", "owner");
  for (const [name, args] of [
    ["reply.speak", { text: "Hello" }],
    ["reply.telegram", { text: "To the owner", voice: false }],
    ["reply.telegram", { text: "x", chat_id: "99" }],
    ["web.search", { query: "q", max_results: 2 }],
    ["reply.speak", { text: "" }],
  ] as Array<[string, object]>) {
    out.push(`core ${name} ${JSON.stringify(await core.registry.dispatch(name, args, owner))}`);
  }
  core.config.apply([["ttsOn", false]], "owner");
  out.push(`core reply.speak.off ${JSON.stringify(await core.registry.dispatch("reply.speak", { text: "Hello" }, owner))}`);
  out.push(`core speech ${JSON.stringify(speech)}`);
  // A routine's reply: chat 99 is not allowed, so it goes to the owner's chat; a refused one becomes an owner alert.
  const delivery = { channel: core.telegram, alerts: core.alerts, log: corePorts.log };
  out.push(
    `core deliver ${await deliverScheduledReply(delivery, { routineId: "r00000001", chatId: "99", reply: "Routine report", reportedItself: false })}`,
  );
  out.push(
    `core deliver.refused ${await deliverScheduledReply(delivery, { routineId: "w00000002", reply: "Wakeup report", reportedItself: false })}`,
  );
  out.push(`core alerts ${JSON.stringify(core.alerts.list().map((a) => [a.source, a.message]))}`);
  out.push(...coreSeen.map((s) => `cseen ${s}`));
  return out;
}
