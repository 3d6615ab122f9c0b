// The LED ring drawn live: GET /api/ring/events read as a stream (EventSource
// cannot send the Authorization header): a `pattern` paints the whole ring, a
// status-ring `frame` each pixel.
import { savedToken } from "./api";

const SVG = "http://www.w3.org/2000/svg";
const OFF = "#2b2b33";

/** A whole-ring pattern (a device action). */
interface Pattern {
  pixels: number;
  mode: string;
  r: number;
  g: number;
  b: number;
  brightness: number;
}

/** A status-ring frame: R, G, B per pixel, as hex. */
interface Frame {
  pixels: number;
  rgb: string;
}

/** Draws the ring into `host` and keeps it live; returns what stops the stream. */
export function ringPreview(host: HTMLElement, phase: HTMLElement): () => void {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "-50 -50 100 100");
  svg.setAttribute("class", "ring");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "LED ring: waiting for the device");
  host.append(svg);
  let frames = 0;
  const paint = (colours: string[]): void => {
    svg.textContent = "";
    colours.forEach((fill, i) => {
      const a = (2 * Math.PI * i) / colours.length;
      const c = document.createElementNS(SVG, "circle");
      c.setAttribute("cx", String(Math.round(40 * Math.sin(a) * 10) / 10));
      c.setAttribute("cy", String(Math.round(-40 * Math.cos(a) * 10) / 10));
      c.setAttribute("r", "6");
      c.setAttribute("fill", fill);
      svg.append(c);
    });
  };
  const pattern = (p: Pattern): void => {
    const on = p.mode !== "off" && p.brightness > 0;
    // Dim rings still show their colour on a screen: at least a quarter of full.
    const k = on ? Math.max(0.25, p.brightness / 255) : 0;
    const fill = on ? `rgb(${Math.round(p.r * k)},${Math.round(p.g * k)},${Math.round(p.b * k)})` : OFF;
    paint(new Array(p.pixels).fill(fill));
    svg.setAttribute("data-pattern", `${p.mode} ${p.r},${p.g},${p.b}`);
    svg.setAttribute("aria-label", `LED ring: ${p.mode}${on ? ` ${p.r},${p.g},${p.b} at ${p.brightness}` : ""}`);
  };
  const frame = (f: Frame): void => {
    const colours: string[] = [];
    let lit = 0;
    for (let i = 0; i < f.pixels; i++) {
      const [r, g, b] = [0, 2, 4].map((o) => Number.parseInt(f.rgb.slice(i * 6 + o, i * 6 + o + 2), 16) || 0);
      if (r + g + b > 0) lit++;
      // Frames are already scaled for the LEDs; a screen needs them brighter to be seen.
      const k = 255 / Math.max(1, r, g, b);
      colours.push(r + g + b ? `rgb(${Math.round(r * k)},${Math.round(g * k)},${Math.round(b * k)})` : OFF);
    }
    paint(colours);
    svg.setAttribute("data-frames", String(++frames));
    svg.setAttribute("aria-label", `LED ring: status, ${lit} of ${f.pixels} pixels lit`);
  };
  const stop = new AbortController();
  void (async () => {
    const res = await fetch("/api/ring/events", {
      headers: { authorization: `Bearer ${savedToken() ?? ""}` },
      credentials: "omit",
      signal: stop.signal,
    }).catch(() => undefined);
    if (!res?.ok || !res.body) {
      phase.textContent = "The ring preview is not available.";
      return;
    }
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffered = "";
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (chunk.done) return;
      buffered += decoder.decode(chunk.value, { stream: true });
      for (let cut = buffered.indexOf("\n\n"); cut >= 0; cut = buffered.indexOf("\n\n")) {
        const block = buffered.slice(0, cut);
        buffered = buffered.slice(cut + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = block
          .split("\n")
          .filter((l) => l.startsWith("data: "))
          .map((l) => l.slice(6))
          .join("\n");
        if (!event || !data) continue;
        const value = JSON.parse(data);
        if (event === "pattern") pattern(value as Pattern);
        else if (event === "frame") frame(value as Frame);
        else if (event === "phase") phase.textContent = `Voice: ${value.phase}${value.detail ? ` (${value.detail})` : ""}`;
        else phase.textContent = String(value.message ?? "");
      }
    }
  })();
  return () => stop.abort();
}
