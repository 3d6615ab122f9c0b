// "sntp" (modules/network/sntp): one-shot network time. The instance closes
// itself after it delivers the time or gives up.

export default class SNTP {
  /**
   * Calls back with (SNTP.time, seconds since the epoch), (SNTP.retry), or
   * (SNTP.error, message); returning a host name from an error tries that host.
   */
  constructor(options: { host: string }, callback: (message: number, value?: number | string) => string | void);
  /** Stops a request still under way. */
  close(): void;
  static readonly time: 1;
  static readonly retry: 2;
  static readonly error: -1;
}
