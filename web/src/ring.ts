// The LED ring drawn live: GET /api/ring/events read as a stream (EventSource
// cannot send the Authorization header), each `frame` recolouring the pixels.
import { savedToken } from "./api";

const SVG = "http://www.w3.org/2000/svg";

interface Frame {
  pixels: number;
  mode: string;
  r: number;
  g: number;
  b: number;
  brightness: number;
}

/** Draws the ring into `host` and keeps it live; returns what stops the stream. */
export function ringPreview(host: HTMLElement, phase: HTMLElement): () => void {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "-50 -50 100 100");
  svg.setAttribute("class", "ring");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "LED ring: waiting for the device");
  host.append(svg);
  const draw = (f: Frame): void => {
    svg.textContent = "";
    const on = f.mode !== "off" && f.brightness > 0;
    // Dim rings still show their colour on a screen: at least a quarter of full.
    const k = on ? Math.max(0.25, f.brightness / 255) : 0;
    const fill = on ? `rgb(${Math.round(f.r * k)},${Math.round(f.g * k)},${Math.round(f.b * k)})` : "#2b2b33";
    for (let i = 0; i < f.pixels; i++) {
      const a = (2 * Math.PI * i) / f.pixels;
      const c = document.createElementNS(SVG, "circle");
      c.setAttribute("cx", String(Math.round(40 * Math.sin(a) * 10) / 10));
      c.setAttribute("cy", String(Math.round(-40 * Math.cos(a) * 10) / 10));
      c.setAttribute("r", "6");
      c.setAttribute("fill", fill);
      svg.append(c);
    }
    svg.setAttribute("data-mode", f.mode);
    svg.setAttribute("data-color", `${f.r},${f.g},${f.b}`);
    svg.setAttribute("aria-label", `LED ring: ${f.mode}${on ? ` ${f.r},${f.g},${f.b} at ${f.brightness}` : ""}`);
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
        if (event === "frame") draw(value as Frame);
        else if (event === "phase") phase.textContent = `Voice: ${value.phase}${value.detail ? ` (${value.detail})` : ""}`;
        else phase.textContent = String(value.message ?? "");
      }
    }
  })();
  return () => stop.abort();
}
