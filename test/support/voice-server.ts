// A local stand-in for OpenAI's (and Mistral's) audio endpoints, on the same
// base URL as the LLM: POST /v1/audio/transcriptions takes multipart uploads
// (chunked or not) and records what arrived and when; POST /v1/audio/speech
// streams raw 24 kHz PCM in timed pieces, or breaks off mid-stream. Every
// other path goes to a ProviderServer script (the turn's LLM answers).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ProviderServer, type ScriptedReply } from "./provider-server.ts";

export interface SeenUpload {
  path: string;
  authorization: string;
  contentType: string;
  chunked: boolean;
  fields: Record<string, string>;
  file: { filename: string; contentType: string; bytes: Buffer };
  /** The WAV header's format, when the file is a WAV. */
  wav?: { rate: number; channels: number; bits: number; declaredData: number; durationMs: number };
  /** performance.now() of the first and the last body byte. */
  firstByteAt: number;
  lastByteAt: number;
  pieces: number;
}

export interface SpeechScript {
  /** 24 kHz samples to stream. */
  pcm: Int16Array;
  /** Bytes per piece and the pause between pieces. */
  pieceBytes?: number;
  pauseMs?: number;
  /** Destroy the connection after this many bytes (a provider failing mid-stream). */
  breakAfterBytes?: number;
  /** Stop sending after this many bytes and keep the connection open (a stalled stream). */
  stallAfterBytes?: number;
  /** Answer 200 and then a broken chunked body: a chunk size that is not hexadecimal (a malformed stream). */
  malformed?: boolean;
  status?: number;
}

export class VoiceServer {
  readonly uploads: SeenUpload[] = [];
  readonly speechRequests: any[] = [];
  /** performance.now() when each speech request's first body piece was written. */
  readonly speechFirstByteAt: number[] = [];
  transcripts: Array<string | ScriptedReply> = [];
  speech: SpeechScript[] = [];
  llm!: ProviderServer;
  url = "";
  private server!: Server;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly sockets = new Set<import("node:net").Socket>();

  /** On `port` of loopback; 0 (the default) picks a free one (hosts/lin/check-voice.mjs needs the build's fixed port). */
  static async start(port = 0): Promise<VoiceServer> {
    const s = new VoiceServer();
    s.llm = await ProviderServer.start();
    s.server = createServer((req, res) => void s.handle(req, res));
    s.server.on("connection", (socket) => {
      s.sockets.add(socket);
      socket.on("close", () => s.sockets.delete(socket));
    });
    await new Promise<void>((ok, fail) => {
      s.server.once("error", fail);
      s.server.listen(port, "127.0.0.1", () => ok());
    });
    s.url = `http://127.0.0.1:${(s.server.address() as AddressInfo).port}/v1`;
    return s;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    let firstByteAt = 0;
    let lastByteAt = 0;
    req.on("data", (c: Buffer) => {
      const now = performance.now();
      if (!firstByteAt) firstByteAt = now;
      lastByteAt = now;
      chunks.push(c);
    });
    await new Promise<void>((ok) => req.on("end", () => ok()));
    const body = Buffer.concat(chunks);
    const path = req.url ?? "";
    if (path.endsWith("/audio/transcriptions")) return this.transcribe(req, res, body, firstByteAt, lastByteAt, chunks.length);
    if (path.endsWith("/audio/speech")) return this.speak(res, body);
    const forwarded = await fetch(this.llm.url.replace(/\/v1$/, "") + path, {
      method: req.method,
      headers: { "content-type": String(req.headers["content-type"] ?? "application/json") },
      body: req.method === "GET" ? undefined : body,
    });
    res.writeHead(forwarded.status, { "content-type": forwarded.headers.get("content-type") ?? "application/json" });
    res.end(Buffer.from(await forwarded.arrayBuffer()));
  }

  private transcribe(
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer,
    firstByteAt: number,
    lastByteAt: number,
    pieces: number,
  ): void {
    const contentType = String(req.headers["content-type"] ?? "");
    const boundary = /boundary=([^;]+)/.exec(contentType)?.[1] ?? "";
    const fields: Record<string, string> = {};
    let file: SeenUpload["file"] = { filename: "", contentType: "", bytes: Buffer.alloc(0) };
    for (const part of splitMultipart(body, boundary)) {
      const head = part.head;
      const name = /name="([^"]*)"/.exec(head)?.[1] ?? "";
      const filename = /filename="([^"]*)"/.exec(head)?.[1];
      if (filename !== undefined) file = { filename, contentType: /Content-Type: (.*)/i.exec(head)?.[1].trim() ?? "", bytes: part.body };
      else fields[name] = part.body.toString("utf8");
    }
    const seen: SeenUpload = {
      path: req.url ?? "",
      authorization: String(req.headers.authorization ?? ""),
      contentType,
      chunked: req.headers["transfer-encoding"] === "chunked",
      fields,
      file,
      firstByteAt,
      lastByteAt,
      pieces,
    };
    const b = file.bytes;
    if (b.length >= 44 && b.toString("ascii", 0, 4) === "RIFF") {
      const rate = b.readUInt32LE(24);
      const channels = b.readUInt16LE(22);
      const bits = b.readUInt16LE(34);
      seen.wav = {
        rate,
        channels,
        bits,
        declaredData: b.readUInt32LE(40),
        durationMs: ((b.length - 44) / (channels * (bits / 8)) / rate) * 1000,
      };
    }
    this.uploads.push(seen);
    const step = this.transcripts.shift() ?? { status: 500, body: { error: { message: "no scripted transcript" } } };
    const reply: ScriptedReply = typeof step === "string" ? { body: { text: step } } : step;
    res.writeHead(reply.status ?? 200, { "content-type": "application/json" });
    res.end(typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body ?? {}));
  }

  private speak(res: ServerResponse, body: Buffer): void {
    let json: any;
    try {
      json = JSON.parse(body.toString("utf8"));
    } catch {
      json = undefined;
    }
    this.speechRequests.push(json);
    const script = this.speech.shift();
    if (!script || script.status) {
      res.writeHead(script?.status ?? 500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "speech refused by the stand-in" } }));
      return;
    }
    const bytes = Buffer.from(script.pcm.buffer, script.pcm.byteOffset, script.pcm.byteLength);
    const piece = script.pieceBytes ?? 4801; // odd on purpose: samples split across pieces
    if (script.malformed) {
      // Written on the socket itself: a valid head and first chunk, then a chunk size Node's parser refuses.
      const socket = res.socket!;
      res.detachSocket(socket);
      this.speechFirstByteAt.push(performance.now());
      const first = bytes.subarray(0, 4800);
      socket.write(`HTTP/1.1 200 OK\r\ncontent-type: audio/pcm\r\ntransfer-encoding: chunked\r\n\r\n${first.length.toString(16)}\r\n`);
      socket.write(first);
      socket.write("\r\nzz-not-a-size\r\nnoise\r\n");
      return;
    }
    res.writeHead(200, { "content-type": "audio/pcm", "transfer-encoding": "chunked" });
    let at = 0;
    const next = (): void => {
      if (res.destroyed) return;
      if (script.breakAfterBytes !== undefined && at >= script.breakAfterBytes) {
        res.socket?.destroy();
        return;
      }
      if (script.stallAfterBytes !== undefined && at >= script.stallAfterBytes) return;
      if (at >= bytes.length) {
        res.end();
        return;
      }
      const end = Math.min(bytes.length, at + piece, script.breakAfterBytes ?? Infinity, script.stallAfterBytes ?? Infinity);
      if (at === 0) this.speechFirstByteAt.push(performance.now());
      res.write(bytes.subarray(at, end));
      at = end;
      const t = setTimeout(() => (this.timers.delete(t), next()), script.pauseMs ?? 0);
      this.timers.add(t);
    };
    next();
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.server.closeAllConnections();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((ok) => this.server.close(() => ok()));
    await this.llm.close();
  }
}

function splitMultipart(body: Buffer, boundary: string): Array<{ head: string; body: Buffer }> {
  const out: Array<{ head: string; body: Buffer }> = [];
  if (!boundary) return out;
  const marker = Buffer.from(`--${boundary}`);
  let at = body.indexOf(marker);
  while (at >= 0) {
    const start = at + marker.length;
    if (body.subarray(start, start + 2).toString() === "--") break;
    const next = body.indexOf(marker, start);
    if (next < 0) break;
    const part = body.subarray(start + 2, next - 2);
    const split = part.indexOf("\r\n\r\n");
    out.push({ head: part.subarray(0, split).toString("utf8"), body: part.subarray(split + 4) });
    at = next;
  }
  return out;
}
