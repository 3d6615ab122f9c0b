// Which Host names the device answers to: loopback, its own addresses, its
// mDNS name, and names the owner adds (owner API). Ports are not compared.
import type { Settings } from "../ports";

/** Settings key of the owner's extra host names (comma-separated). */
export const EXTRA_HOSTS_KEY = "http.hosts";
/** Most extra names an owner may add. */
export const MAX_EXTRA_HOSTS = 8;
const HOST_NAME = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

export interface HostSources {
  /** The device's own addresses now (IPv4 dotted or IPv6 without brackets). */
  addresses(): string[];
  /** The device's name: it answers to `<name>.local`. */
  deviceName(): string;
  settings: Settings;
}

export class HostPolicy {
  constructor(private readonly sources: HostSources) {}

  /** Whether a Host header (name or address, with or without a port) names this device. */
  allows(hostHeader: string): boolean {
    const name = hostName(hostHeader);
    if (name === undefined) return false;
    if (name === "localhost" || name === "::1" || isCanonicalLoopback(name)) return true;
    if (name === `${this.sources.deviceName().toLowerCase()}.local`) return true;
    if (this.sources.addresses().some((a) => a.toLowerCase() === name)) return true;
    return this.extraHosts().indexOf(name) >= 0;
  }

  /** A browser Origin may call when it is http(s) on an allowed host that is the Host itself, or loopback. */
  allowsOrigin(origin: string, hostHeader: string | undefined): boolean {
    const m = /^https?:\/\/([^/?#]+)$/i.exec(origin);
    if (!m || !this.allows(m[1])) return false;
    const originHost = hostName(m[1]);
    const host = hostHeader === undefined ? undefined : hostName(hostHeader);
    return originHost === host || originHost === "localhost" || originHost === "::1" || originHost === "127.0.0.1";
  }

  extraHosts(): string[] {
    const raw = this.sources.settings.get(EXTRA_HOSTS_KEY);
    return raw ? raw.split(",").filter((s) => s.length > 0) : [];
  }

  /** Replaces the owner's extra names; returns a sentence when one is not a host name. */
  setExtraHosts(names: unknown): string | undefined {
    if (!Array.isArray(names) || names.length > MAX_EXTRA_HOSTS) return `hosts is a list of at most ${MAX_EXTRA_HOSTS} names.`;
    const clean: string[] = [];
    for (const n of names) {
      if (typeof n !== "string" || n.length > 253 || !HOST_NAME.test(n.toLowerCase())) return "each host is a DNS name such as halo.lan.";
      clean.push(n.toLowerCase());
    }
    this.sources.settings.set(EXTRA_HOSTS_KEY, clean.join(","));
    return undefined;
  }
}

/** 127.x.y.z written as a browser writes it: four decimal parts of 0-255 without leading zeros (not 127.999.999.999). */
function isCanonicalLoopback(name: string): boolean {
  const parts = name.split(".");
  return parts.length === 4 && parts[0] === "127" && parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255);
}

/** The host part of a Host header or URL authority, lower-case, brackets removed; undefined when malformed. */
export function hostName(authority: string): string | undefined {
  const a = authority.trim().toLowerCase();
  if (a.startsWith("[")) {
    const end = a.indexOf("]");
    if (end < 0) return undefined;
    const rest = a.slice(end + 1);
    if (rest !== "" && !/^:\d{1,5}$/.test(rest)) return undefined;
    return a.slice(1, end);
  }
  const m = /^([^:@\s/]+)(:\d{1,5})?$/.exec(a);
  return m ? m[1].replace(/\.$/, "") : undefined;
}
