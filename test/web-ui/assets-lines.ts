// What the web assets look like once decoded and served, as lines to compare across engines.
import { webAssets } from "../../lib/generated/web-assets.ts";
import { serveAsset } from "../../lib/http/static-assets.ts";

function checksum(bytes: Uint8Array): number {
  let h = 2166136261;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 16777619) >>> 0;
  return h;
}

export function assetLines(): string[] {
  const lines: string[] = [];
  for (const a of webAssets()) {
    const gz = serveAsset(a, { "accept-encoding": "gzip, deflate" });
    const cached = serveAsset(a, { "if-none-match": a.etag });
    lines.push(
      `${a.path} ${a.contentType} ${a.etag} gzip ${a.gzip.length} ${checksum(a.gzip)} identity ${a.identity.length} ${checksum(a.identity)} ` +
        `${gz.status} ${gz.headers["content-encoding"]} ${cached.status}`,
    );
  }
  return lines;
}
