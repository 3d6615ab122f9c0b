// A pseudo-terminal for serial tests. Node cannot open a pty pair, so a small
// Python program (the standard library's pty module) opens one, prints the
// path of its terminal end, and relays the other end over its stdin/stdout:
// the program under test opens the path, the test speaks through the pipes.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";

const RELAY = `
import os, pty, select, sys, tty
master, slave = pty.openpty()
tty.setraw(slave)
sys.stdout.buffer.write((os.ttyname(slave) + "\\n").encode())
sys.stdout.buffer.flush()
out = sys.stdout.fileno()
inp = sys.stdin.fileno()
while True:
    r, _, _ = select.select([master, inp], [], [])
    if master in r:
        try:
            data = os.read(master, 65536)
        except OSError:
            data = b""
        if data:
            os.write(out, data)
    if inp in r:
        data = os.read(inp, 65536)
        if not data:
            break
        while data:
            n = os.write(master, data)
            data = data[n:]
`;

export interface PtyPair {
  /** The terminal end, for the program under test. */
  path: string;
  write(bytes: Uint8Array): void;
  onData(listener: (bytes: Uint8Array) => void): void;
  close(): void;
}

/** The Python to use, or a one-line reason why the tests cannot run. */
export function python(): string {
  for (const candidate of ["/usr/bin/python3", "python3"]) if (spawnSync(candidate, ["-c", "import pty"]).status === 0) return candidate;
  throw new Error("the serial tests need Python 3 for a pseudo-terminal: apt-get install -y python3-minimal");
}

export async function openPty(): Promise<PtyPair> {
  const child: ChildProcess = spawn(python(), ["-u", "-c", RELAY], { stdio: ["pipe", "pipe", "inherit"] });
  const listeners: Array<(bytes: Uint8Array) => void> = [];
  const path = await new Promise<string>((ok, fail) => {
    let head = Buffer.alloc(0);
    const first = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      const nl = head.indexOf(10);
      if (nl < 0) return;
      child.stdout!.off("data", first);
      const rest = head.subarray(nl + 1);
      child.stdout!.on("data", (c: Buffer) => {
        for (const l of listeners) l(new Uint8Array(c));
      });
      if (rest.length) {
        queueMicrotask(() => {
          for (const l of listeners) l(new Uint8Array(rest));
        });
      }
      ok(head.subarray(0, nl).toString());
    };
    child.stdout!.on("data", first);
    child.once("exit", (code) => fail(new Error(`the pty relay exited (${code})`)));
  });
  return {
    path,
    write: (bytes) => void child.stdin!.write(Buffer.from(bytes)),
    onData: (listener) => void listeners.push(listener),
    close: () => void child.kill(),
  };
}
