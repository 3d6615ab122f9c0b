// When the device opens its setup access point, and how it retries a network
// it lost. Pure: the host reports what happened and asks what to do next.

/** First retry after a lost or failed join, then doubling up to the ceiling. */
export const WIFI_RETRY_FIRST_MS = 1000;
export const WIFI_RETRY_MAX_MS = 60000;
/** Failed joins in a row, never having been online with these credentials, before setup opens. */
export const WIFI_FAILS_BEFORE_SETUP = 6;

export type WifiMode = "station" | "setup";

export type WifiSetupEvent = { kind: "connected" } | { kind: "disconnected" } | { kind: "long-press" } | { kind: "credentials-saved" };

export class WifiSetup {
  private failures = 0;
  /** Whether these credentials ever worked (then a loss is retried forever). */
  private everOnline = false;
  private mode: WifiMode;

  constructor(hasCredentials: boolean) {
    this.mode = hasCredentials ? "station" : "setup";
  }

  current(): WifiMode {
    return this.mode;
  }

  /** Applies an event; returns the mode to be in afterwards. */
  apply(event: WifiSetupEvent): WifiMode {
    switch (event.kind) {
      case "connected":
        this.failures = 0;
        this.everOnline = true;
        this.mode = "station";
        break;
      case "disconnected":
        this.failures++;
        if (!this.everOnline && this.failures >= WIFI_FAILS_BEFORE_SETUP) this.mode = "setup";
        break;
      case "long-press":
        this.mode = "setup";
        break;
      case "credentials-saved":
        this.failures = 0;
        this.everOnline = false;
        this.mode = "station";
        break;
    }
    return this.mode;
  }

  /** How long to wait before the next join attempt (after `disconnected`). */
  retryDelayMs(): number {
    const steps = Math.max(0, this.failures - 1);
    return Math.min(WIFI_RETRY_FIRST_MS * 2 ** Math.min(steps, 16), WIFI_RETRY_MAX_MS);
  }
}
