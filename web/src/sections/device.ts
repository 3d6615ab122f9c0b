// Device: the LED ring drawn live, status (firmware, update engine, time, memory and storage
// against caps, budgets, knobs) and health, from device.status,
// system.health and ota.status.
import { callTool } from "../api";
import { button, clear, h } from "../dom";
import type { Section } from "../main";
import { ringPreview } from "../ring";
import { wakePanel } from "./wake";

export const deviceSection: Section = async (root, session) => {
  const body = h("div");
  const refresh = async (): Promise<void> => {
    const [status, health, ota] = await Promise.all([callTool("device.status"), callTool("system.health"), callTool("ota.status")]);
    clear(
      body,
      h(
        "section",
        { "aria-labelledby": "st-title" },
        h("h3", { id: "st-title" }, "Status and usage"),
        h("pre", { tabindex: 0, id: "device-status" }, status.text),
      ),
      h(
        "section",
        { "aria-labelledby": "he-title" },
        h("h3", { id: "he-title" }, "Health"),
        h("pre", { tabindex: 0, id: "device-health" }, health.text),
      ),
      h(
        "section",
        { "aria-labelledby": "up-title" },
        h("h3", { id: "up-title" }, "Updates"),
        h("pre", { tabindex: 0, id: "device-update" }, ota.text),
      ),
    );
  };
  await refresh();
  const ring = h("div", { id: "ring" });
  const phase = h("p", { class: "mute", role: "status" });
  root.append(
    h("h2", {}, "Device"),
    h("section", { "aria-labelledby": "ring-title" }, h("h3", { id: "ring-title" }, "LED ring, live"), ring, phase),
    h(
      "div",
      { class: "row" },
      button("Refresh", () => void refresh(), "quiet"),
    ),
    body,
  );
  if (session.role === "admin") root.append(wakePanel());
  return ringPreview(ring, phase);
};
