// Host addresses as an HTTP client reads them, for files.fetch's address
// check. IPv4 follows the WHATWG URL host parser that Node's URL (and so the
// simulator's HTTP client) uses: 1-4 dot-separated parts, each decimal, octal
// (leading 0) or hex (0x), the last part filling the remaining bytes; a host
// whose last part is a number is IPv4 or invalid, never a name. IPv6 is read
// into eight 16-bit groups. Both are then classified numerically.

export type HostAddress = { kind: "ipv4"; value: number } | { kind: "ipv6"; groups: number[] } | { kind: "name"; name: string };

/** The host of a URL as the HTTP client will connect to it; undefined when the client would refuse it. */
export function parseHostAddress(host: string): HostAddress | undefined {
  const h = host.toLowerCase();
  if (h.startsWith("[")) {
    if (!h.endsWith("]")) return undefined;
    const groups = parseIpv6(h.slice(1, -1));
    return groups ? { kind: "ipv6", groups } : undefined;
  }
  const parts = h.split(".");
  if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop();
  const last = parts[parts.length - 1];
  if (last === undefined || !isIpv4Number(last)) return h.length > 0 ? { kind: "name", name: h } : undefined;
  const value = parseIpv4Parts(parts);
  return value === undefined ? undefined : { kind: "ipv4", value };
}

/** A resolved address string ("93.184.216.34", "2606:2800::1", "::ffff:10.0.0.1") parsed strictly. */
export function parseResolvedAddress(text: string): HostAddress | undefined {
  if (text.indexOf(":") >= 0) {
    const groups = parseIpv6(text.toLowerCase());
    return groups ? { kind: "ipv6", groups } : undefined;
  }
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return undefined;
  const bytes = [m[1], m[2], m[3], m[4]].map(Number);
  if (bytes.some((b) => b > 255)) return undefined;
  return { kind: "ipv4", value: ((bytes[0] * 256 + bytes[1]) * 256 + bytes[2]) * 256 + bytes[3] };
}

function isIpv4Number(part: string): boolean {
  return /^(0x[0-9a-f]*|[0-9]+)$/.test(part);
}

function parseIpv4Parts(parts: string[]): number | undefined {
  if (parts.length > 4) return undefined;
  const numbers: number[] = [];
  for (const p of parts) {
    let n: number;
    if (p.startsWith("0x")) n = p.length === 2 ? 0 : /^0x[0-9a-f]+$/.test(p) ? parseInt(p.slice(2), 16) : NaN;
    else if (p.length > 1 && p.startsWith("0")) n = /^[0-7]+$/.test(p) ? parseInt(p.slice(1), 8) : NaN;
    else n = /^[0-9]+$/.test(p) ? parseInt(p, 10) : NaN;
    if (!(n >= 0) || n > 0xffffffff) return undefined;
    numbers.push(n);
  }
  for (let i = 0; i < numbers.length - 1; i++) if (numbers[i] > 255) return undefined;
  const last = numbers[numbers.length - 1];
  if (last >= 256 ** (5 - numbers.length)) return undefined;
  let value = last;
  for (let i = 0; i < numbers.length - 1; i++) value += numbers[i] * 256 ** (3 - i);
  return value;
}

function parseIpv6(text: string): number[] | undefined {
  if (text.length === 0 || text.length > 45 || !/^[0-9a-f:.]+$/.test(text)) return undefined;
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const head = halves[0] === "" ? [] : halves[0].split(":");
  const tail = halves.length === 2 ? (halves[1] === "" ? [] : halves[1].split(":")) : [];
  const groups: number[] = [];
  const words = (list: string[], isLast: boolean): number[] | undefined => {
    const out: number[] = [];
    for (let i = 0; i < list.length; i++) {
      const w = list[i];
      if (isLast && i === list.length - 1 && w.indexOf(".") >= 0) {
        const v4 = parseResolvedAddress(w);
        if (v4?.kind !== "ipv4") return undefined;
        out.push(Math.floor(v4.value / 65536), v4.value % 65536);
      } else if (/^[0-9a-f]{1,4}$/.test(w)) out.push(parseInt(w, 16));
      else return undefined;
    }
    return out;
  };
  const h = words(head, halves.length === 1);
  const t = words(tail, true);
  if (!h || !t) return undefined;
  if (halves.length === 1) return h.length === 8 ? h : undefined;
  if (h.length + t.length > 7) return undefined;
  groups.push(...h);
  for (let i = h.length + t.length; i < 8; i++) groups.push(0);
  groups.push(...t);
  return groups;
}

// [first address, prefix length] of IPv4 ranges that are not the public internet.
const IPV4_BLOCKED: ReadonlyArray<[number, number]> = [
  [0x00000000, 8], // this network
  [0x0a000000, 8], // private
  [0x64400000, 10], // carrier-grade NAT
  [0x7f000000, 8], // loopback
  [0xa9fe0000, 16], // link-local (cloud metadata 169.254.169.254)
  [0xac100000, 12], // private
  [0xc0000000, 24], // IETF protocol assignments
  [0xc0000200, 24], // documentation
  [0xc0a80000, 16], // private
  [0xc6120000, 15], // benchmarking
  [0xc6336400, 24], // documentation
  [0xcb007100, 24], // documentation
  [0xe0000000, 4], // multicast
  [0xf0000000, 4], // reserved and broadcast
];

/** True when an IPv4 address (as a 32-bit number) is on the public internet. */
export function isPublicIpv4(value: number): boolean {
  for (const [base, bits] of IPV4_BLOCKED) {
    const size = 2 ** (32 - bits);
    if (value >= base && value < base + size) return false;
  }
  return true;
}

/** True when an IPv6 address is on the public internet; forms that carry an IPv4 address are judged by it. */
export function isPublicIpv6(g: number[]): boolean {
  const embedded = g[6] * 65536 + g[7];
  const zeroTo = (n: number): boolean => g.slice(0, n).every((x) => x === 0);
  if (zeroTo(6)) return embedded > 1 && isPublicIpv4(embedded); // ::, ::1, and IPv4-compatible ::a.b.c.d
  if (zeroTo(5) && g[5] === 0xffff) return isPublicIpv4(embedded); // IPv4-mapped ::ffff:a.b.c.d
  if (zeroTo(4) && g[4] === 0xffff && g[5] === 0) return isPublicIpv4(embedded); // IPv4-translated ::ffff:0:a.b.c.d
  if (g[0] === 0x64 && g[1] === 0xff9b) return isPublicIpv4(embedded); // NAT64
  if (g[0] === 0x2002) return isPublicIpv4(g[1] * 65536 + g[2]); // 6to4
  if ((g[0] & 0xfe00) === 0xfc00) return false; // unique local
  if ((g[0] & 0xffc0) === 0xfe80 || (g[0] & 0xffc0) === 0xfec0) return false; // link-local, site-local
  if ((g[0] & 0xff00) === 0xff00) return false; // multicast
  if (g[0] === 0x2001 && g[1] === 0x0db8) return false; // documentation
  if (g[0] === 0x2001 && g[1] === 0) return false; // Teredo
  return true;
}

/** True when a parsed address is on the public internet (names are never; resolve them first). */
export function isPublicAddress(a: HostAddress): boolean {
  if (a.kind === "ipv4") return isPublicIpv4(a.value);
  if (a.kind === "ipv6") return isPublicIpv6(a.groups);
  return false;
}

/** The address in the form a connection is pinned to ("1.2.3.4", "2606:2800:0:0:0:0:0:1"). */
export function formatAddress(a: HostAddress): string {
  if (a.kind === "ipv4") return [a.value >>> 24, (a.value >>> 16) & 255, (a.value >>> 8) & 255, a.value & 255].join(".");
  if (a.kind === "ipv6") return a.groups.map((x) => x.toString(16)).join(":");
  return a.name;
}
