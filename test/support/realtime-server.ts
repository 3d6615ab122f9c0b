// A local stand-in for OpenAI's Realtime API over a real WebSocket (the `ws`
// package): GET /v1/realtime?model=... upgraded with a bearer key; it records
// every client event (session.update, appends with their decoded audio,
// commits, function_call_output items) and answers each response.create from
// a script of server events, sent in order with a pause, or breaks off.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";

export type ScriptedResponse = Array<object | "break">;

export class RealtimeServer {
  readonly events: any[] = [];
  readonly connections: Array<{ path: string; authorization: string }> = [];
  /** Samples (24 kHz) appended, per connection. */
  readonly appended: number[] = [];
  responses: ScriptedResponse[] = [];
  pauseMs = 2;
  url = "";
  private server!: Server;
  private wss!: WebSocketServer;

  /** On `port` of loopback; 0 (the default) picks a free one (hosts/lin/check-voice.mjs needs the build's fixed port). */
  static async start(key: string, port = 0): Promise<RealtimeServer> {
    const s = new RealtimeServer();
    s.server = createServer((_req, res) => res.writeHead(404).end());
    s.wss = new WebSocketServer({ noServer: true });
    s.server.on("upgrade", (req, socket, head) => {
      if (req.headers.authorization !== `Bearer ${key}` || !(req.url ?? "").startsWith("/v1/realtime?model=")) {
        socket.end("HTTP/1.1 401 Unauthorized\r\n\r\n");
        return;
      }
      s.connections.push({ path: req.url ?? "", authorization: req.headers.authorization });
      s.wss.handleUpgrade(req, socket, head, (ws) => s.serve(ws));
    });
    await new Promise<void>((ok, fail) => {
      s.server.once("error", fail);
      s.server.listen(port, "127.0.0.1", () => ok());
    });
    s.url = `http://127.0.0.1:${(s.server.address() as AddressInfo).port}/v1`;
    return s;
  }

  private serve(ws: WebSocket): void {
    const index = this.appended.push(0) - 1;
    ws.on("message", (data) => {
      const event = JSON.parse(data.toString());
      if (event.type === "input_audio_buffer.append") {
        this.appended[index] += Buffer.from(event.audio, "base64").length / 2;
        return;
      }
      this.events.push(event);
      if (event.type === "response.create")
        void this.play(ws, this.responses.shift() ?? [{ type: "error", error: { message: "no scripted response" } }]);
    });
  }

  private async play(ws: WebSocket, script: ScriptedResponse): Promise<void> {
    for (const step of script) {
      await new Promise((ok) => setTimeout(ok, this.pauseMs));
      if (ws.readyState !== ws.OPEN) return;
      if (step === "break") {
        ws.terminate();
        return;
      }
      ws.send(JSON.stringify(step));
    }
  }

  async close(): Promise<void> {
    for (const c of this.wss.clients) c.terminate();
    this.wss.close();
    this.server.closeAllConnections();
    await new Promise<void>((ok) => this.server.close(() => ok()));
  }
}

/** The model's audio as Realtime deltas of `pieceSamples` each. */
export function audioDeltas(pcm: Int16Array, pieceSamples = 2400): object[] {
  const out: object[] = [];
  for (let at = 0; at < pcm.length; at += pieceSamples) {
    const piece = pcm.subarray(at, Math.min(pcm.length, at + pieceSamples));
    out.push({
      type: "response.output_audio.delta",
      delta: Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength).toString("base64"),
    });
  }
  return out;
}
