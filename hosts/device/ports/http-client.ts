// Outbound HTTP on the device: not built yet. Moddable's `http` Request (with
// SecureSocket for https) is the way; until it is wired and tested, every
// request refuses with one short sentence, as the port's contract asks.
import type { HttpClient, HttpClientRequest, HttpClientResponse } from "../../../lib/ports";

export const refusingHttpClient: HttpClient = {
  request(_req: HttpClientRequest): Promise<HttpClientResponse> {
    return Promise.reject(new Error("Outbound HTTP is not available on the device yet."));
  },
};
