// Release versions: MAJOR.MINOR.PATCH with an optional pre-release tag
// (1.2.0-rc.1), ordered as semantic versioning orders them.

const VERSION = /^(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

/** Longest version string accepted (also bounds what a feed may claim). */
export const VERSION_MAX_CHARS = 40;

export interface Version {
  core: [number, number, number];
  pre: string[];
}

/** The parts of a version, or undefined when the text is not one. */
export function parseVersion(text: string): Version | undefined {
  if (text.length > VERSION_MAX_CHARS) return undefined;
  const m = VERSION.exec(text);
  if (!m) return undefined;
  return { core: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] ? m[4].split(".") : [] };
}

export function isVersion(text: string): boolean {
  return parseVersion(text) !== undefined;
}

function comparePre(a: string[], b: string[]): number {
  if (a.length === 0 || b.length === 0) return b.length - a.length; // a release sorts after its pre-releases
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const an = /^\d+$/.test(a[i]);
    const bn = /^\d+$/.test(b[i]);
    if (an && bn) {
      const d = Number(a[i]) - Number(b[i]);
      if (d !== 0) return d < 0 ? -1 : 1;
    } else if (an !== bn) {
      return an ? -1 : 1;
    } else if (a[i] !== b[i]) {
      return a[i] < b[i] ? -1 : 1;
    }
  }
  return a.length - b.length;
}

/** Negative when a is older than b, 0 when equal, positive when newer. Both must be versions. */
export function compareVersions(a: string, b: string): number {
  const va = parseVersion(a);
  const vb = parseVersion(b);
  if (!va || !vb) throw new Error(`not a version: ${va ? b : a}`);
  for (let i = 0; i < 3; i++) if (va.core[i] !== vb.core[i]) return va.core[i] < vb.core[i] ? -1 : 1;
  const p = comparePre(va.pre, vb.pre);
  return p < 0 ? -1 : p > 0 ? 1 : 0;
}
