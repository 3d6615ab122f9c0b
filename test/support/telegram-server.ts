// A local server speaking the Telegram Bot API wire format: POST /bot<token>/<method>
// with a JSON or multipart/form-data body, answered with the {ok, result} or
// {ok:false, error_code, description, parameters} envelope. It knows one token
// (any other gets Telegram's 401 "Unauthorized"), keeps the updates a test
// queues, serves getUpdates with offset/limit/timeout semantics (a long poll
// waits for a queued update), and records every request. Scripted failures
// replace the next answer(s) of a method.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const TEST_BOT_TOKEN = "123456789:AAH-test_token_abcdefghijklmnopqrstu";

export interface TelegramFilePart {
  field: string;
  filename: string;
  type: string;
  bytes: Uint8Array;
}

export interface TelegramRequest {
  httpMethod: string;
  /** The path with the token replaced by <token>. */
  path: string;
  token: string;
  method: string;
  contentType: string;
  /** The JSON body, or the text fields of a multipart body. */
  params: { [key: string]: any };
  file?: TelegramFilePart;
}

export interface ScriptedFailure {
  status?: number;
  /** An object is sent as JSON; a string as is. */
  body?: unknown;
  delayMs?: number;
  raw?: (res: ServerResponse) => void;
}

export class TelegramServer {
  readonly requests: TelegramRequest[] = [];
  private readonly updates: Array<{ update_id: number; [key: string]: unknown }> = [];
  private readonly scripted = new Map<string, ScriptedFailure[]>();
  private readonly waiting = new Set<() => void>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private nextUpdateId = 1000;
  private nextMessageId = 1;
  private server!: Server;
  url = "";

  static async start(token = TEST_BOT_TOKEN): Promise<TelegramServer> {
    const s = new TelegramServer();
    s.server = createServer((req, res) => void s.handle(req, res, token));
    await new Promise<void>((ok) => s.server.listen(0, "127.0.0.1", () => ok()));
    s.url = `http://127.0.0.1:${(s.server.address() as AddressInfo).port}`;
    return s;
  }

  /** Requests of one Bot API method, in order. */
  calls(method: string): TelegramRequest[] {
    return this.requests.filter((r) => r.method === method);
  }

  /** Queues an incoming text message from a chat; returns its update_id. */
  message(chatId: number, text: string): number {
    return this.push({
      message: {
        message_id: this.nextMessageId++,
        date: 1767225600,
        chat: { id: chatId, type: chatId < 0 ? "group" : "private" },
        from: { id: Math.abs(chatId), is_bot: false, first_name: "T" },
        text,
      },
    });
  }

  /** Files getFile and /file/bot<token>/<path> serve, by file_id. */
  readonly files = new Map<string, { path: string; bytes: Uint8Array }>();

  /** Queues a voice note (its bytes served by getFile and the file route); returns its update_id. */
  voice(chatId: number, bytes: Uint8Array, durationS: number, path = `voice/file_${this.files.size}.oga`): number {
    const fileId = `AwACAgIAAxkBAAI${this.files.size}`;
    this.files.set(fileId, { path, bytes });
    return this.push({
      message: {
        message_id: this.nextMessageId++,
        date: 1767225600,
        chat: { id: chatId, type: "private" },
        voice: { file_id: fileId, file_unique_id: `u${fileId}`, duration: durationS, mime_type: "audio/ogg", file_size: bytes.length },
      },
    });
  }

  /** Queues any update body (a photo, an edited message...). */
  push(body: { [key: string]: unknown }): number {
    const update_id = this.nextUpdateId++;
    this.updates.push({ update_id, ...body });
    for (const wake of this.waiting) wake();
    return update_id;
  }

  /** The next answers of `method` are these, in order. */
  fail(method: string, ...replies: ScriptedFailure[]): this {
    this.scripted.set(method, [...(this.scripted.get(method) ?? []), ...replies]);
    return this;
  }

  private async handle(req: IncomingMessage, res: ServerResponse, token: string): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const file = /^\/file\/bot([^/]*)\/(.+)$/.exec(req.url ?? "");
    if (file && req.method === "GET") {
      this.requests.push({
        httpMethod: "GET",
        path: `/file/bot<token>/${file[2]}`,
        token: file[1],
        method: "file",
        contentType: "",
        params: {},
      });
      const found = [...this.files.values()].find((f) => f.path === file[2]);
      if (file[1] !== token || !found) return this.send(res, 404, { ok: false, error_code: 404, description: "Not Found" });
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.end(found.bytes);
      return;
    }
    const m = /^\/bot([^/]*)\/([A-Za-z]+)$/.exec(req.url ?? "");
    const contentType = String(req.headers["content-type"] ?? "");
    const record: TelegramRequest = {
      httpMethod: req.method ?? "",
      path: (req.url ?? "").replace(m ? m[1] : "\u0000", "<token>"),
      token: m ? m[1] : "",
      method: m ? m[2] : "",
      contentType,
      params: {},
    };
    if (contentType.startsWith("multipart/form-data")) {
      const form = await new Response(body, { headers: { "content-type": contentType } }).formData();
      for (const [key, value] of form.entries()) {
        if (typeof value === "string") record.params[key] = value;
        else record.file = { field: key, filename: value.name, type: value.type, bytes: new Uint8Array(await value.arrayBuffer()) };
      }
    } else if (body.length) {
      try {
        record.params = JSON.parse(body.toString("utf8"));
      } catch {
        record.params = { unparsed: body.toString("utf8") };
      }
    }
    this.requests.push(record);
    if (!m) return this.send(res, 404, { ok: false, error_code: 404, description: "Not Found" });
    if (m[1] !== token) return this.send(res, 401, { ok: false, error_code: 401, description: "Unauthorized" });
    const script = this.scripted.get(record.method);
    const failure = script?.shift();
    if (failure) {
      const answer = (): void => {
        if (failure.raw) {
          failure.raw(res);
          return;
        }
        this.send(res, failure.status ?? 400, failure.body ?? { ok: false, error_code: failure.status ?? 400, description: "Bad Request" });
      };
      if (failure.delayMs) this.later(failure.delayMs, answer);
      else answer();
      return;
    }
    if (record.method === "getUpdates") return this.getUpdates(record.params, res);
    if (record.method === "getMe")
      return this.send(res, 200, { ok: true, result: { id: 123456789, is_bot: true, first_name: "Halo", username: "halo_test_bot" } });
    if (record.method === "sendChatAction") return this.send(res, 200, { ok: true, result: true });
    if (record.method === "getFile") {
      const f = this.files.get(String(record.params.file_id));
      if (!f) return this.send(res, 400, { ok: false, error_code: 400, description: "Bad Request: invalid file_id" });
      return this.send(res, 200, { ok: true, result: { file_id: record.params.file_id, file_size: f.bytes.length, file_path: f.path } });
    }
    if (["sendMessage", "sendVoice", "sendDocument", "sendPhoto"].includes(record.method)) {
      if (!record.params.chat_id) return this.send(res, 400, { ok: false, error_code: 400, description: "Bad Request: chat_id is empty" });
      if (record.method === "sendMessage" && (!record.params.text || String(record.params.text).length > 4096)) {
        return this.send(res, 400, { ok: false, error_code: 400, description: "Bad Request: message text is empty or too long" });
      }
      return this.send(res, 200, {
        ok: true,
        result: { message_id: this.nextMessageId++, date: 1767225600, chat: { id: Number(record.params.chat_id) } },
      });
    }
    this.send(res, 404, { ok: false, error_code: 404, description: "Not Found: method not found" });
  }

  // offset forgets earlier updates (as Telegram does); timeout waits for one to arrive.
  private getUpdates(params: { [key: string]: any }, res: ServerResponse): void {
    const offset = Number(params.offset ?? 0);
    while (this.updates.length && this.updates[0].update_id < offset) this.updates.shift();
    const limit = Math.max(1, Math.min(100, Number(params.limit ?? 100)));
    const answer = (): void => this.send(res, 200, { ok: true, result: this.updates.slice(0, limit) });
    if (this.updates.length || !params.timeout) {
      answer();
      return;
    }
    const wake = (): void => {
      this.waiting.delete(wake);
      clearTimeout(timer);
      answer();
    };
    const timer = this.later(Number(params.timeout) * 1000, wake);
    this.waiting.add(wake);
  }

  private later(ms: number, fn: () => void): NodeJS.Timeout {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
    return t;
  }

  private send(res: ServerResponse, status: number, body: unknown): void {
    if (res.destroyed || res.headersSent) return;
    res.writeHead(status, { "content-type": "application/json" });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.waiting.clear();
    this.server.closeAllConnections();
    await new Promise<void>((ok) => this.server.close(() => ok()));
  }
}
