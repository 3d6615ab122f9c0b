// A real browser for the web page's tests: Debian's chromium (installed with
// apt-get when missing and we are root, else stopped with the one command to
// run), driven by playwright-core, with a fresh profile each launch.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { ensureDebianPackage } from "./debian.ts";

export const CHROMIUM_PATH = "/usr/bin/chromium";
/** Where the tests leave a screenshot of each section (gitignored). */
export const SCREENSHOT_DIR = "test-results/web-ui";

export function ensureChromium(): void {
  ensureDebianPackage("chromium");
}

export interface TestBrowser {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Chromium, headless, with a fake microphone playing `micWav` when given. */
export async function launchBrowser(options: { micWav?: string } = {}): Promise<TestBrowser> {
  ensureChromium();
  const profile = mkdtempSync(join(tmpdir(), "halo-chromium-"));
  const args = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--autoplay-policy=no-user-gesture-required",
  ];
  if (options.micWav) {
    args.push(
      "--use-fake-device-for-media-stream",
      "--use-fake-ui-for-media-stream",
      `--use-file-for-fake-audio-capture=${options.micWav}`,
    );
  }
  // A persistent context is how playwright takes a --user-data-dir of our own.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args,
    headless: true,
    viewport: { width: 1100, height: 900 },
  });
  const browser = context.browser() as Browser;
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    browser,
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** axe-core's violations of impact serious or critical on the page as it is now. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const require = createRequire(import.meta.url);
  const source = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
  await page.evaluate(source);
  const result: Array<{ id: string; impact: string; nodes: Array<{ target: unknown }> }> = await page.evaluate(async () => {
    const axe = (globalThis as any).axe;
    const r = await axe.run((globalThis as any).document, { resultTypes: ["violations"] });
    return r.violations.map((v: any) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n: any) => ({ target: n.target })) }));
  });
  return result
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}
