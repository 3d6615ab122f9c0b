// The WebSocket seam of realtime speech: text frames both ways. The simulator
// connects with the `ws` package (hosts/sim/ports/audio-realtime.ts); a host
// without one leaves CoreOptions.realtime unset and realtime mode refuses.

export interface RealtimeHandlers {
  onMessage(text: string): void;
  /** The connection ended (by either side, or failed); one short sentence. */
  onClose(reason: string): void;
}

export interface RealtimeSocket {
  send(text: string): void;
  close(): void;
}

export interface RealtimeConnector {
  /** Resolves once open; rejects with a one-sentence Error (never the key). */
  connect(url: string, headers: { [name: string]: string }, handlers: RealtimeHandlers): Promise<RealtimeSocket>;
}
