// The owner's web page in flash: every asset together, gzipped (budget 100 KB).
export async function runWebBench() {
  const { WEB_ASSETS_GZIP_BYTES } = await import("../lib/generated/web-assets.ts");
  return [["web-assets-kb-gz", WEB_ASSETS_GZIP_BYTES / 1024]];
}
