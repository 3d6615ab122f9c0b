// Keeps the SD card mounted: the first mount, the presence probe, and after a
// pulled card (an I/O error unmounts it in C) remount attempts with backoff,
// each one running the replace recovery before the card is used again.
import type { Log } from "../../../lib/ports";
import { recoverReplace } from "../../../modules/sdcard/replace";
import type { SdCard, SdMountOptions } from "../../../modules/sdcard/sdcard";

/** Wait before the first remount attempt after the card was lost. */
export const REMOUNT_FIRST_DELAY_MS = 1000;
/** The wait doubles after each failed attempt up to this. */
export const REMOUNT_MAX_DELAY_MS = 60_000;

export class CardMount {
  private delayMs = 0;
  private nextAttemptAt = 0;
  /** Mount attempts made (for tests and the log). */
  attempts = 0;

  constructor(
    private readonly card: SdCard,
    private readonly options: SdMountOptions,
    /** Monotonic milliseconds. */
    private readonly now: () => number,
    private readonly log?: Log,
  ) {}

  /** True when a card is mounted; when none is and an attempt is due, tries to mount one. */
  ensure(): boolean {
    if (this.card.mounted()) return true;
    const t = this.now();
    if (t < this.nextAttemptAt) return false;
    this.attempts++;
    try {
      this.card.mount(this.options);
      const recovered = recoverReplace(this.card);
      if (recovered !== "none") this.log?.info(`SD card: an interrupted replace was ${recovered}`);
    } catch (e) {
      // A recovery the card refuses for another reason than going away (a folder where a file was...) must
      // not keep the whole card unmounted: the marker stays for the next mount, the card is used.
      if (!this.card.mounted()) return this.failed(t);
      this.log?.warn(`SD card: an interrupted replace could not be recovered (${e instanceof Error ? e.message : String(e)})`);
    }
    if (this.delayMs !== 0) this.log?.info("SD card: mounted again");
    this.delayMs = 0;
    this.nextAttemptAt = 0;
    return true;
  }

  private failed(t: number): false {
    this.card.unmount();
    this.delayMs = this.delayMs === 0 ? REMOUNT_FIRST_DELAY_MS : Math.min(REMOUNT_MAX_DELAY_MS, this.delayMs * 2);
    this.nextAttemptAt = t + this.delayMs;
    return false;
  }

  /** Probes a mounted card (a pulled one is unmounted) and returns whether one is usable now. */
  present(): boolean {
    if (this.card.mounted() && !this.card.check()) this.lost();
    return this.ensure();
  }

  /** The card stopped answering: unmount and retry after the backoff. */
  lost(): void {
    this.card.unmount();
    if (this.delayMs === 0) this.delayMs = REMOUNT_FIRST_DELAY_MS;
    this.nextAttemptAt = this.now() + this.delayMs;
    this.log?.warn(`SD card: not answering, unmounted; next mount attempt in ${this.delayMs} ms`);
  }

  /** Milliseconds until the next mount attempt (0: due now or mounted). */
  retryInMs(): number {
    return this.card.mounted() ? 0 : Math.max(0, this.nextAttemptAt - this.now());
  }
}
