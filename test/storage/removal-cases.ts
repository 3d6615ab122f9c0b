// Card removal through the device's storage port: an I/O error unmounts, the
// port reports the card absent, remounts are tried with a doubling backoff,
// and nothing acknowledged before the pull is lost.
import { REMOUNT_FIRST_DELAY_MS, REMOUNT_MAX_DELAY_MS } from "../../hosts/device/ports/card-mount.ts";
import { deepEqual, equal, ok, throws } from "./check.ts";
import type { XsCase } from "./sd-harness.ts";

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined): string | undefined => (b === undefined ? undefined : new TextDecoder().decode(b));

export const REMOVAL_CASES: XsCase[] = [
  {
    name: "an I/O error in the middle of an operation unmounts the card and the port reports it absent",
    run: (h) => {
      const root = h.freshRoot("io-error");
      const port = h.storage(root);
      port.writeAtomic("a.txt", bytes("a"));
      h.simulate("remove");
      throws(() => port.append("a.txt", bytes("more")), /^no SD card$/);
      equal(h.card.mounted(), false, "the module unmounted on EIO");
      equal(port.present(), false);
      throws(() => port.list(""), /^no SD card$/);
    },
  },
  {
    name: "remounts are tried after 1 s, then with the wait doubling up to 60 s, and the wait resets after a mount",
    run: (h) => {
      const root = h.freshRoot("backoff");
      const port = h.storage(root);
      h.clock.t = 1_000_000;
      h.simulate("remove");
      equal(port.present(), false);
      const tried = (): number => port.mount.attempts;
      const start = tried();
      const waits: number[] = [];
      let last = h.clock.t;
      // step the clock 100 ms at a time and note when each attempt happens
      while (waits.length < 9) {
        h.clock.t += 100;
        const before = tried();
        equal(port.present(), false);
        if (tried() > before) {
          waits.push(h.clock.t - last);
          last = h.clock.t;
        }
      }
      deepEqual(waits, [1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
      equal(tried() - start, 9, "one attempt per wait, none in between");
      h.simulate("insert");
      equal(port.present(), false, "inserted, but the wait has not run out");
      equal(port.mount.retryInMs() > 0, true);
      h.clock.t += REMOUNT_MAX_DELAY_MS;
      equal(port.present(), true);
      equal(port.mount.retryInMs(), 0);
      h.simulate("remove");
      equal(port.present(), false);
      equal(port.mount.retryInMs(), REMOUNT_FIRST_DELAY_MS, "the backoff starts over");
    },
  },
  {
    name: "nothing acknowledged is lost: writes that returned before a pull are all there after the card is back",
    run: (h) => {
      const root = h.freshRoot("acknowledged");
      const port = h.storage(root);
      const acknowledged = new Map<string, string>();
      for (let i = 0; i < 30; i++) {
        const path = `notes/n${i % 7}.md`;
        const body = `note ${i}`;
        if (i === 17) h.simulate("remove");
        try {
          if (i % 3 === 0) port.append("journal.log", bytes(`${body}\n`));
          else port.writeAtomic(path, bytes(body));
          if (i % 3 === 0) acknowledged.set("journal.log", (acknowledged.get("journal.log") ?? "") + `${body}\n`);
          else acknowledged.set(path, body);
        } catch (e) {
          ok(i >= 17 && (e as Error).message === "no SD card", `write ${i}: ${(e as Error).message}`);
        }
        if (i === 22) {
          h.simulate("insert");
          h.clock.t += REMOUNT_MAX_DELAY_MS;
        }
      }
      equal(port.present(), true);
      for (const [path, body] of acknowledged) equal(text(port.read(path)), body, path);
      deepEqual(port.list("notes"), ["n0.md", "n1.md", "n2.md", "n3.md", "n4.md", "n5.md", "n6.md"]);
    },
  },
  {
    name: "a card that is absent at boot is mounted once it appears, with the replace recovery run first",
    run: (h) => {
      const root = h.freshRoot("late");
      h.simulate("remove");
      const port = h.storage(root);
      equal(port.present(), false);
      throws(() => port.read("x"), /^no SD card$/);
      h.simulate("insert");
      h.clock.t += REMOUNT_MAX_DELAY_MS;
      equal(port.present(), true);
      port.writeAtomic("x", bytes("ok"));
      equal(text(port.read("x")), "ok");
      ok(port.freeBytes() > 0, "free space");
    },
  },
];
