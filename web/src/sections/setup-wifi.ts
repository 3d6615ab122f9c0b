// Setup's Wi-Fi: the network the device is on and new credentials, stored
// the way the setup page and Improv store them. The password is write-only:
// the device never sends it back. A host without a radio says so instead.
import { errorText, get, put } from "../api";
import { append, button, clear, field, form, h, toast, value } from "../dom";

interface WifiView {
  present: boolean;
  message?: string;
  state?: string;
  ssid?: string | null;
  rssi_dbm?: number;
  address?: string;
  scan?: boolean;
}

function stateLine(w: WifiView): string {
  if (w.state === "connected")
    return `Connected to "${w.ssid}"${w.rssi_dbm !== undefined ? `, signal ${w.rssi_dbm} dBm` : ""}${w.address ? `, at ${w.address}` : ""}.`;
  if (w.state === "setup") return `The setup access point is open${w.ssid ? ` ("${w.ssid}" could not be joined)` : ""}.`;
  return w.ssid ? `Joining "${w.ssid}"…` : "No network stored.";
}

export async function wifiPanel(): Promise<HTMLElement> {
  const box = h("section", { "aria-labelledby": "wifi-title" }, h("h3", { id: "wifi-title" }, "Wi-Fi"));
  const r = await get("/api/wifi");
  const w = r.json as WifiView;
  if (!r.ok || !w.present) {
    // No radio (the simulator): the device's own sentence instead of the form.
    box.append(h("p", { id: "wifi-state", class: r.ok ? "mute" : "bad" }, r.ok ? (w.message ?? "No Wi-Fi radio.") : errorText(r)));
    return box;
  }
  const status = h("p", { id: "wifi-state", role: "status" }, stateLine(w));
  const names = h("datalist", { id: "wifi-networks" });
  const found = h("p", { class: "mute", "aria-live": "polite" });
  const ssid = h("input", { name: "ssid", required: true, maxlength: 32, list: "wifi-networks", autocomplete: "off", value: w.ssid ?? "" });
  append(box, [
    status,
    form(
      async (f) => {
        const res = await put("/api/wifi", { ssid: value(f, "ssid"), password: value(f, "password") });
        (f.elements.namedItem("password") as HTMLInputElement).value = "";
        if (!res.ok) return toast(errorText(res));
        toast(`Wi-Fi saved: joining ${res.json.ssid}`);
        status.textContent = res.json.note;
        const now = await get("/api/wifi");
        if (now.ok && now.json.present) status.textContent = `${stateLine(now.json)} ${res.json.note}`;
      },
      field("Network name", ssid),
      names,
      field(
        "Network password (empty for an open network)",
        h("input", { name: "password", type: "password", autocomplete: "new-password", maxlength: 64 }),
      ),
      h(
        "div",
        { class: "row" },
        h("button", { type: "submit" }, "Save and join"),
        w.scan
          ? button(
              "Scan",
              async () => {
                found.textContent = "Scanning…";
                const s = await get("/api/wifi/scan");
                if (!s.ok) {
                  found.textContent = errorText(s);
                  return;
                }
                const list = s.json.networks as Array<{ ssid: string; rssi_dbm: number; secure: boolean }>;
                clear(names, ...list.map((n) => h("option", { value: n.ssid })));
                found.textContent = list.length
                  ? `In range: ${list.map((n) => `${n.ssid} (${n.rssi_dbm} dBm${n.secure ? "" : ", open"})`).join(", ")}`
                  : "No networks in range.";
              },
              "quiet",
            )
          : null,
      ),
      found,
    ),
    h(
      "p",
      { class: "mute" },
      "The device answers on the new network once it has joined; if it cannot join, it opens its setup access point again.",
    ),
  ]);
  return box;
}
