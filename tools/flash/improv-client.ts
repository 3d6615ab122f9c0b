// The flasher's Improv side: after the board restarts into Halo, ask its
// state and identity, then send the Wi-Fi network; resolves to what the
// board said (its URL once provisioned), or rejects with one sentence.
import { SerialPort } from "serialport";
import {
  decodeStrings,
  encodeRpc,
  encodeStrings,
  ImprovCommand,
  ImprovReader,
  ImprovType,
  IMPROV_ERRORS,
  IMPROV_STATES,
  type ImprovFrame,
} from "./improv.ts";

/** How long the board may take to boot into Halo and to join the network. */
export const IMPROV_BOOT_TIMEOUT_MS = 15_000;
export const IMPROV_CONNECT_TIMEOUT_MS = 30_000;

export interface ImprovOutcome {
  deviceInfo: string[];
  url?: string;
}

export async function provisionWifi(path: string, ssid: string, password: string, note: (line: string) => void): Promise<ImprovOutcome> {
  if (new TextEncoder().encode(ssid).length > 32) throw new Error("a Wi-Fi network name is at most 32 bytes");
  if (new TextEncoder().encode(password).length > 64) throw new Error("a Wi-Fi password is at most 64 bytes");
  const port = new SerialPort({ path, baudRate: 115200, autoOpen: false });
  await new Promise<void>((ok, fail) => port.open((e) => (e ? fail(new Error(`cannot open ${path}: ${e.message}`)) : ok())));
  const reader = new ImprovReader();
  const queue: ImprovFrame[] = [];
  let wake: (() => void) | undefined;
  port.on("data", (chunk: Buffer) => {
    queue.push(...reader.push(new Uint8Array(chunk)));
    wake?.();
  });
  const send = (frame: Uint8Array): Promise<void> => new Promise((ok, fail) => port.write(Buffer.from(frame), (e) => (e ? fail(e) : ok())));
  // Waits for a frame `accept` takes; an error-state frame other than "no error" fails the wait.
  const next = async <T>(accept: (f: ImprovFrame) => T | undefined, ms: number, what: string): Promise<T> => {
    const deadline = Date.now() + ms;
    for (;;) {
      while (queue.length > 0) {
        const f = queue.shift()!;
        if (f.type === ImprovType.ErrorState && f.data[0] !== 0)
          throw new Error(`the board reports: ${IMPROV_ERRORS[f.data[0]] ?? `error ${f.data[0]}`}`);
        const got = accept(f);
        if (got !== undefined) return got;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`the board did not answer (${what})`);
      await new Promise<void>((ok) => {
        const t = setTimeout(ok, Math.min(left, 200));
        wake = () => (clearTimeout(t), ok());
      });
      wake = undefined;
    }
  };
  const result = (command: number) => (f: ImprovFrame) =>
    f.type === ImprovType.RpcResult && f.data[0] === command ? decodeStrings(f.data.subarray(2, 2 + f.data[1])) : undefined;
  const state = (f: ImprovFrame): number | undefined => (f.type === ImprovType.CurrentState ? f.data[0] : undefined);
  try {
    // The board may still be booting: ask again until it answers.
    let current: number | undefined;
    const bootDeadline = Date.now() + IMPROV_BOOT_TIMEOUT_MS;
    while (current === undefined) {
      await send(encodeRpc(ImprovCommand.CurrentState));
      try {
        current = await next(state, 1000, "current state");
      } catch (e) {
        if (Date.now() > bootDeadline) throw new Error("the board did not speak Improv after its restart: is Halo running on it?");
        if (!(e instanceof Error) || !e.message.startsWith("the board did not answer")) throw e;
      }
    }
    note(`board state: ${IMPROV_STATES[current] ?? current}`);
    await send(encodeRpc(ImprovCommand.DeviceInfo));
    const deviceInfo = await next(result(ImprovCommand.DeviceInfo), 5000, "device information");
    note(`board: ${deviceInfo.join(", ")}`);
    await send(encodeRpc(ImprovCommand.WifiSettings, encodeStrings([ssid, password])));
    const urls = await next(
      (f) => {
        if (state(f) !== undefined) note(`board state: ${IMPROV_STATES[f.data[0]] ?? f.data[0]}`);
        return result(ImprovCommand.WifiSettings)(f);
      },
      IMPROV_CONNECT_TIMEOUT_MS,
      "joining the Wi-Fi network",
    );
    const outcome: ImprovOutcome = { deviceInfo };
    if (urls[0]) outcome.url = urls[0];
    return outcome;
  } finally {
    await new Promise<void>((ok) => port.close(() => ok()));
  }
}
