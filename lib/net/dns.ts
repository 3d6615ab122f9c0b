// The captive portal's DNS answers (RFC 1035): every A question gets the
// device's own address, so any name a phone or laptop looks up leads to the
// setup page. Other types get an empty NOERROR answer (no AAAA, so clients
// fall back to IPv4). Pure bytes in, bytes out; the host owns the socket.

/** UDP DNS messages are at most 512 bytes (RFC 1035 4.2.1). */
export const DNS_UDP_MAX_BYTES = 512;
/** How long clients may cache the answer: short, so they forget the portal once the device leaves setup. */
export const DNS_ANSWER_TTL_S = 60;
const HEADER_BYTES = 12;
const NAME_MAX_BYTES = 255;
const LABEL_MAX_BYTES = 63;
/** Compression pointers followed in one name at most (a loop guard). */
const POINTERS_MAX = 16;

export const DNS_TYPE_A = 1;
export const DNS_TYPE_AAAA = 28;
export const DNS_TYPE_ANY = 255;
export const DNS_CLASS_IN = 1;
export const RCODE_NOERROR = 0;
export const RCODE_FORMERR = 1;
export const RCODE_NOTIMP = 4;

export interface DnsQuestion {
  /** Lower-case dotted name, no trailing dot ("" for the root). */
  name: string;
  type: number;
  class: number;
  /** Where the question ends in the message (the answer copies it). */
  end: number;
}

export interface DnsQuery {
  id: number;
  /** The opcode (0 is a standard query). */
  opcode: number;
  recursionDesired: boolean;
  question?: DnsQuestion;
  /** Set when the message is not a well-formed standard query: the response code to give. */
  rcode: number;
}

function u16(b: Uint8Array, at: number): number {
  return (b[at] << 8) | b[at + 1];
}

/** Reads a (possibly compressed) name at `at`; undefined when malformed. */
function readName(b: Uint8Array, start: number): { name: string; end: number } | undefined {
  const labels: string[] = [];
  let at = start;
  let end = -1;
  let pointers = 0;
  let bytes = 0;
  for (;;) {
    if (at >= b.length) return undefined;
    const len = b[at];
    if ((len & 0xc0) === 0xc0) {
      if (at + 1 >= b.length || ++pointers > POINTERS_MAX) return undefined;
      if (end < 0) end = at + 2;
      at = ((len & 0x3f) << 8) | b[at + 1];
      continue;
    }
    if ((len & 0xc0) !== 0 || len > LABEL_MAX_BYTES) return undefined;
    if (len === 0) break;
    if (at + 1 + len > b.length) return undefined;
    bytes += len + 1;
    if (bytes > NAME_MAX_BYTES) return undefined;
    let label = "";
    for (let i = at + 1; i <= at + len; i++) label += String.fromCharCode(b[i] >= 0x41 && b[i] <= 0x5a ? b[i] + 32 : b[i]);
    labels.push(label);
    at += len + 1;
  }
  return { name: labels.join("."), end: end < 0 ? at + 1 : end };
}

/** Parses a query; undefined when it is too short to answer at all (or is itself a response). */
export function parseDnsQuery(b: Uint8Array): DnsQuery | undefined {
  if (b.length < HEADER_BYTES || b.length > DNS_UDP_MAX_BYTES) return undefined;
  const flags = u16(b, 2);
  if (flags & 0x8000) return undefined;
  const query: DnsQuery = { id: u16(b, 0), opcode: (flags >> 11) & 0x0f, recursionDesired: (flags & 0x0100) !== 0, rcode: RCODE_NOERROR };
  if (query.opcode !== 0) return { ...query, rcode: RCODE_NOTIMP };
  if (u16(b, 4) !== 1) return { ...query, rcode: RCODE_FORMERR };
  const name = readName(b, HEADER_BYTES);
  if (!name || name.end + 4 > b.length) return { ...query, rcode: RCODE_FORMERR };
  query.question = { name: name.name, type: u16(b, name.end), class: u16(b, name.end + 2), end: name.end + 4 };
  return query;
}

/** Whether the answer carries the address: A (or ANY) in class IN (or ANY). */
function wantsAddress(q: DnsQuestion): boolean {
  return (q.type === DNS_TYPE_A || q.type === DNS_TYPE_ANY) && (q.class === DNS_CLASS_IN || q.class === DNS_TYPE_ANY);
}

/** Parses a dotted IPv4 address into its four bytes; undefined when it is not one. */
export function ipv4Bytes(address: string): number[] | undefined {
  const parts = address.split(".");
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined;
    out.push(Number(p));
  }
  return out;
}

/**
 * The response to `packet` answering with `address` (dotted IPv4), or
 * undefined when the packet gets no response (too short, or a response).
 */
export function answerDns(packet: Uint8Array, address: string): Uint8Array | undefined {
  const ip = ipv4Bytes(address);
  if (!ip) throw new RangeError("the portal's address is not IPv4");
  const query = parseDnsQuery(packet);
  if (!query) return undefined;
  const q = query.question;
  const answer = q && query.rcode === RCODE_NOERROR && wantsAddress(q);
  const questionBytes = q ? q.end - HEADER_BYTES : 0;
  const out = new Uint8Array(HEADER_BYTES + questionBytes + (answer ? 16 : 0));
  out[0] = query.id >> 8;
  out[1] = query.id & 0xff;
  // QR=1, the query's opcode, AA=1, RD copied; RA=0 (no recursion here).
  out[2] = 0x80 | (query.opcode << 3) | 0x04 | (query.recursionDesired ? 1 : 0);
  out[3] = query.rcode;
  out[5] = q ? 1 : 0;
  out[7] = answer ? 1 : 0;
  if (!q) return out;
  out.set(packet.subarray(HEADER_BYTES, q.end), HEADER_BYTES);
  if (!answer) return out;
  let at = HEADER_BYTES + questionBytes;
  // The name is a pointer to the question's (offset 12); type A, class IN, TTL, 4 bytes of address.
  const rr = [0xc0, HEADER_BYTES, 0, DNS_TYPE_A, 0, DNS_CLASS_IN, 0, 0, DNS_ANSWER_TTL_S >> 8, DNS_ANSWER_TTL_S & 0xff, 0, 4];
  for (const byte of rr.concat(ip)) out[at++] = byte;
  return out;
}
