// What a Wi-Fi join needs and what makes it valid (IEEE 802.11: an SSID is
// 1-32 bytes; a WPA2 passphrase is 8-63 characters or 64 hex digits; an open
// network has no password). Shared by the setup page and Improv.
import { utf8Length } from "../util/utf8";

export const SSID_MAX_BYTES = 32;
export const PASSPHRASE_MIN_CHARS = 8;
export const PASSPHRASE_MAX_CHARS = 63;

export interface WifiJoin {
  ssid: string;
  password: string;
}

/** Undefined when the pair can be tried; else one sentence that names the field, never its value. */
export function checkWifiJoin(join: WifiJoin): string | undefined {
  const ssidBytes = utf8Length(join.ssid);
  if (ssidBytes === 0) return "the network name is empty.";
  if (ssidBytes > SSID_MAX_BYTES) return `the network name is longer than ${SSID_MAX_BYTES} bytes.`;
  const pw = join.password;
  if (pw.length === 0 || /^[0-9a-fA-F]{64}$/.test(pw)) return undefined;
  if (pw.length < PASSPHRASE_MIN_CHARS || pw.length > PASSPHRASE_MAX_CHARS)
    return `the password must be empty (an open network) or ${PASSPHRASE_MIN_CHARS} to ${PASSPHRASE_MAX_CHARS} characters.`;
  if (!/^[\x20-\x7e]*$/.test(pw)) return "the password may hold printable ASCII characters only.";
  return undefined;
}
