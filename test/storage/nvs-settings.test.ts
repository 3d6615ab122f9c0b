// The device's Settings port over NVS, on Node (the same cases run on XS in
// sdcard.test.ts); and where the owner token and the provider keys end up:
// in NVS, never on the card.
import assert from "node:assert/strict";
import { nvsSettings, SETTINGS_DOMAIN } from "../../hosts/device/ports/nvs-settings.ts";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { createHalo } from "../../lib/app/halo.ts";
import type { Storage } from "../../lib/ports.ts";
import { encodeUtf8 } from "../../lib/util/utf8.ts";
import { NvsModel } from "./nvs-model.ts";
import { NVS_SETTINGS_CASES } from "./nvs-settings-cases.ts";

describe("Settings over NVS (device port, Node)", () => {
  for (const c of NVS_SETTINGS_CASES) it(c.name, () => c.run());

  it("the first-boot owner token and the provider keys live in NVS, never on the card", async () => {
    const nvs = new NvsModel();
    const card = memoryStorage();
    const halo = createHalo({ ports: memoryPorts({ settings: nvsSettings(nvs), storage: card }), firmwareVersion: "t", hostRoutes: [] });
    const token = halo.ensureOwnerToken()!;
    const secret = "sk-test-NVS-ONLY-4242";
    const res = await halo.handleHttp({
      method: "PUT",
      path: "/api/secrets/openai",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: encodeUtf8(JSON.stringify({ value: secret })),
    });
    assert.equal(res.status, 200, typeof res.body === "string" ? res.body : new TextDecoder().decode(res.body));
    const stored = nvsSettings(nvs);
    assert.equal(stored.get("secret.openai"), secret);
    assert.ok(stored.keys("client.").length >= 1, "the owner's client record");
    assert.equal(halo.ensureOwnerToken(), undefined, "a second boot makes no new token");
    const everything = (s: Storage, dir: string): string[] =>
      s.list(dir).flatMap((n) => {
        const path = dir ? `${dir}/${n}` : n;
        return s.stat(path)?.directory ? everything(s, path) : [path];
      });
    const onCard = everything(card, "").map((p) => new TextDecoder().decode(card.read(p)));
    for (const text of onCard) {
      assert.ok(!text.includes(secret), "the provider key is not on the card");
      assert.ok(!text.includes(token), "the owner token is not on the card");
    }
    for (const name of nvs.names()) assert.ok(name.startsWith(`${SETTINGS_DOMAIN}/`));
  });
});
