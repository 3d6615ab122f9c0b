// The owner's web page in a real Chromium against the running simulator: sign
// in, each section's main action end to end, a screenshot of each section and
// axe-core with no serious or critical violation. Providers are local stand-ins.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { encodeWav } from "../../lib/voice/wav.ts";
import { launchBrowser, screenshot, seriousViolations, type TestBrowser } from "../support/browser.ts";
import { ownerApi } from "../support/owner-api.ts";
import { postMcp, startTestSim, type TestSim } from "../support/sim.ts";
import { simWifi } from "../../hosts/sim/ports/wifi.ts";
import { replyPcm, say, scene } from "../support/speech.ts";
import { wakeExamples } from "../support/wake-set.ts";
import { VoiceServer } from "../support/voice-server.ts";
import { answer, openAiAnswer, openAiTools, person } from "../turn/support.ts";

const call = (name: string, args: object) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });

describe("the owner's web page in Chromium", function () {
  this.timeout(90000);
  let stand: VoiceServer;
  let sim: TestSim;
  let b: TestBrowser;
  let page: Page;
  let tmp: string;
  const errors: string[] = [];
  const urls: string[] = [];

  before(async function () {
    // A machine without Chromium installs it from Debian here (minutes on a slow mirror).
    this.timeout(600000);
    tmp = mkdtempSync(join(tmpdir(), "halo-web-ui-"));
    const s = scene(say("what is the weather"), 300, 2500, 100);
    const wav = join(tmp, "mic.wav");
    writeFileSync(wav, encodeWav({ sampleRate: 16000, samples: s.samples }));
    stand = await VoiceServer.start();
    sim = await startTestSim({
      baseUrls: { openai: stand.url },
      initialSecrets: { openai: "sk-web-ui-KEY" },
      portOverrides: { log: memoryLog() },
    });
    b = await launchBrowser({ micWav: wav });
    page = b.page;
    page.setDefaultTimeout(10000);
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("console", (m) => void (m.type() === "error" && /Content Security Policy/.test(m.text()) && errors.push(m.text())));
    page.on("dialog", (d) => void d.accept());
    page.on("request", (r) => urls.push(r.url()));
  });
  after(async () => {
    await b?.close();
    await sim?.stop();
    await stand?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  async function open(section: string): Promise<void> {
    const target = `${sim.url}/#${section}`;
    // The same URL again changes no hash: reload so the section is drawn afresh.
    if (page.url() === target) await page.reload();
    else await page.goto(target);
    await page.waitForSelector(`[data-section="${section}"]`);
  }

  async function checkSection(section: string): Promise<void> {
    await screenshot(page, section);
    assert.deepEqual(await seriousViolations(page), [], `axe on ${section}`);
  }

  it("refuses a wrong token with a clear screen, then signs in with the owner's", async () => {
    await page.goto(`${sim.url}/`);
    await page.getByLabel("Client token").fill("halo_wrong");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Token not accepted" }).waitFor();
    await checkSection("signin");
    await page.getByLabel("Client token").fill(sim.token);
    await page.keyboard.press("Enter");
    await page.getByText("owner (admin)").waitFor();
    assert.equal(await page.evaluate(() => (globalThis as any).localStorage.getItem("halo.token")), sim.token);
    assert.deepEqual(await b.context.cookies(), []);
  });

  it("Setup: sets a key and shows it set, checks a key against the provider", async () => {
    await open("setup");
    await page.getByLabel("New mistral key").fill("sk-mistral-from-page");
    await page.locator("#key-mistral-status").locator("xpath=ancestor::form").getByRole("button", { name: "Save" }).click();
    await page.waitForFunction(() => (globalThis as any).document.getElementById("key-mistral-status")?.textContent === "set");
    assert.equal(sim.halo.core.secrets.getSecret("mistral"), "sk-mistral-from-page");
    stand.llm.reply({ status: 401, body: { error: { message: "bad key" } } });
    await page.locator("#key-openai-status").locator("xpath=ancestor::form").getByRole("button", { name: "Check" }).click();
    await page.waitForFunction(() => /^auth: /.test((globalThis as any).document.getElementById("key-openai-check")?.textContent ?? ""));
    assert.ok(!(await page.content()).includes("sk-web-ui-KEY"), "no key is ever on the page");
    // Budgets and rates, the model a provider is asked for, the embedder in use.
    const budget = page.locator('[data-budget="anthropic"]');
    await budget.getByLabel("anthropic ceiling in dollars").fill("7.5");
    await budget.getByRole("button", { name: "Save anthropic budget" }).click();
    await page.locator("#toast").getByText("anthropic budget saved").waitFor();
    const saved = (await ownerApi(sim, "GET", "/api/budget")).json.providers.find((p: any) => p.provider === "anthropic");
    assert.equal(saved.usd_ceiling, 7.5);
    await page.getByLabel(/^mistral model/).fill("mistral-large-latest");
    await page.getByRole("button", { name: "Save mistral model" }).click();
    await page.locator("#toast").getByText("mistral model saved").waitFor();
    const models = (await ownerApi(sim, "GET", "/api/models")).json.providers.find((p: any) => p.provider === "mistral");
    assert.equal(models.model, "mistral-large-latest");
    await page.getByText(/In use: offline/).waitFor();
    // The simulator has no radio: its sentence stands in for the Wi-Fi form.
    assert.match((await page.locator("#wifi-state").textContent())!, /This host has no Wi-Fi radio/);
    assert.equal(await page.getByLabel("Network name").count(), 0);
    await checkSection("setup");
  });

  it("Setup: on a host with a radio, scans, stores new Wi-Fi credentials and shows the network joined; the password never comes back", async () => {
    const wifi = simWifi({
      inRange: [
        { ssid: "Home", rssiDbm: -48, secure: true },
        { ssid: "Cafe", rssiDbm: -71, secure: false },
      ],
    });
    const radio = await startTestSim({ portOverrides: { log: memoryLog(), wifi } });
    try {
      await page.goto(`${radio.url}/#setup`);
      await page.getByLabel("Client token").fill(radio.token);
      await page.keyboard.press("Enter");
      await page.waitForSelector('[data-section="setup"]');
      await page.locator("#wifi-state").getByText("The setup access point is open.").waitFor();
      await page.getByRole("button", { name: "Scan" }).click();
      await page.getByText(/In range: Home \(-48 dBm\), Cafe \(-71 dBm, open\)/).waitFor();
      await page.getByLabel("Network name").fill("Home");
      await page.getByLabel(/^Network password/).fill("web-PAGE-wifi-pass");
      await page.getByRole("button", { name: "Save and join" }).click();
      await page
        .locator("#wifi-state")
        .getByText(/Connected to "Home", signal -48 dBm/)
        .waitFor();
      assert.deepEqual(wifi.joins, [{ ssid: "Home", password: "web-PAGE-wifi-pass" }]);
      assert.equal(await page.getByLabel(/^Network password/).inputValue(), "", "the password field is emptied");
      await page.reload();
      await page
        .locator("#wifi-state")
        .getByText(/Connected to "Home"/)
        .waitFor();
      assert.equal(await page.getByLabel("Network name").inputValue(), "Home");
      assert.ok(!(await page.content()).includes("web-PAGE-wifi-pass"), "the password is never on the page");
      await screenshot(page, "setup-wifi");
      assert.deepEqual(await seriousViolations(page), [], "axe on the Wi-Fi form");
    } finally {
      await radio.stop();
    }
    await page.goto(`${sim.url}/#setup`);
    await page.waitForSelector('[data-section="setup"]');
  });

  it("People and clients: creates a client (token shown once), signs in as it, and a revoked token gets the clear screen", async () => {
    await open("people");
    await page.getByLabel("Name", { exact: true }).fill("tablet");
    await page.getByLabel("Tool names in its tools/list").selectOption("plain");
    await page.getByRole("button", { name: "Create client" }).click();
    const token = (await page.locator("#new-token").textContent())!.trim();
    assert.match(token, /^halo_/);
    assert.equal((await ownerApi(sim, "GET", "/api/whoami", undefined, { authorization: `Bearer ${token}` })).json.name, "tablet");
    await page.locator('tr[data-client="tablet"]').getByText("plain").waitFor();
    await checkSection("people");
    await page.getByRole("button", { name: "Revoke tablet" }).click();
    await page.locator('tr[data-client="tablet"]').waitFor({ state: "detached" });
    assert.equal((await ownerApi(sim, "GET", "/api/whoami", undefined, { authorization: `Bearer ${token}` })).status, 401);
    // A member signs in with a token the owner then revokes: the page says so.
    const member = (await ownerApi(sim, "POST", "/api/clients", { name: "kid", role: "user" })).json.token;
    await page.evaluate((t) => (globalThis as any).localStorage.setItem("halo.token", t), member);
    await page.goto(`${sim.url}/#device`);
    await page.reload();
    await page.getByText("kid (user)").waitFor();
    assert.equal(await page.getByRole("link", { name: "Setup" }).count(), 0, "a member sees no owner sections");
    await ownerApi(sim, "DELETE", "/api/clients/kid");
    await page.getByRole("link", { name: "Chat" }).click();
    await page.getByRole("heading", { name: "Token not accepted" }).waitFor();
    await page.getByLabel("Client token").fill(sim.token);
    await page.keyboard.press("Enter");
    await page.getByText("owner (admin)").waitFor();
  });

  it("People: changes a person's quota, and after a reload it is still set", async () => {
    assert.equal((await ownerApi(sim, "PUT", "/api/people/42", { role: "user" })).status, 200);
    await open("people");
    const card = page.locator('[data-person="42"]');
    await card.getByLabel("Memories of 42", { exact: true }).fill("2000");
    await card.getByLabel("Pinned memories of 42", { exact: true }).fill("999999");
    await card.getByRole("button", { name: "Save quota of 42" }).click();
    // The browser holds a value over the bound: nothing is sent.
    assert.equal(sim.halo.core.people.get("42")!.quota.vectors, 1000);
    await card.getByLabel("Pinned memories of 42", { exact: true }).fill("50");
    await card.getByRole("button", { name: "Save quota of 42" }).click();
    await page.locator("#toast").getByText("42 quota saved").waitFor();
    await open("people");
    await page.locator('[data-person="42"]').getByLabel("Memories of 42 (set by you)").waitFor();
    assert.equal(await page.locator('[data-person="42"]').getByLabel("Memories of 42 (set by you)").inputValue(), "2000");
    const saved = sim.halo.core.people.get("42")!;
    assert.equal(saved.quota.vectors, 2000);
    assert.deepEqual(saved.overridden, ["vectors"], "an unchanged field keeps following the role");
    await checkSection("people-quota");
  });

  it("Approvals: shows a badge and the capsule, and approves the pending skill, a routine, a skill from Nostr and a wallet payment, refuses a download", async () => {
    sim.halo.core.skills.saveByAgent("weekly-report", "# Weekly report\n\nEvery Monday, sum up the week's notes.\n");
    await open("tools");
    await page.locator("nav .badge").waitFor();
    assert.equal(await page.locator("nav .badge").textContent(), "1");
    await open("approvals");
    const card = page.locator('[data-skill="weekly-report"]');
    await card.getByText("sum up the week's notes").waitFor();
    await checkSection("approvals");
    await card.getByRole("button", { name: "Approve" }).click();
    await card.waitFor({ state: "detached" });
    assert.deepEqual(sim.halo.core.skills.listPending(), []);
    await page.locator("nav .badge").waitFor({ state: "detached" });
    const routine = sim.halo.core.routines.create("owner", {
      name: "Morning brief",
      prompt: "Sum up the news.",
      schedule: { kind: "daily", at: "07:30" },
    });
    await open("approvals");
    await page.locator(`[data-routine="${routine.id}"]`).getByRole("button", { name: "Approve" }).click();
    await page.locator(`[data-routine="${routine.id}"]`).waitFor({ state: "detached" });
    assert.equal(sim.halo.core.routines.get(routine.id)!.approved, true);
    const adopted = sim.halo.core.nostr.skills.adopt({
      id: "0123456789abcdef",
      address: `31123:${"a".repeat(64)}:tea`,
      author: "a".repeat(64),
      d: "tea",
      description: "Brew tea reminders",
      content: "When asked about tea, say to brew it for three minutes.",
      requiresTools: [],
      approved: false,
    });
    await open("approvals");
    const nostrCard = page.locator(`[data-nostr-skill="${adopted.id}"]`);
    await nostrCard.getByText("three minutes").waitFor();
    await nostrCard.getByRole("button", { name: "Approve" }).click();
    await nostrCard.waitFor({ state: "detached" });
    assert.equal(sim.halo.core.nostr.skills.list()[0].approved, true);
    // A download waiting under the "ask" policy: refused from the page (approving would fetch from the network).
    sim.halo.core.downloads.setPolicy("ask");
    const job = sim.halo.core.downloads.request(person("user", "bob"), "https://example.com/notes.md", "web", "notes.md");
    await open("approvals");
    const download = page.locator(`[data-download="${job.id}"]`);
    await download.getByText("https://example.com/notes.md").waitFor();
    await download.getByRole("button", { name: "Reject" }).click();
    await download.waitFor({ state: "detached" });
    assert.equal(sim.halo.core.downloads.all().find((j) => j.id === job.id)?.state, "rejected");
    // A wallet payment over the owner's per-payment limit waits here; approving lets the caller repeat it once.
    const gate = sim.halo.core.wallet.rails.gate(person("admin"), { kind: "send", amount: 4000 });
    assert.ok(!gate.go);
    await open("approvals");
    const pay = page.locator(`[data-wallet-approval="${gate.approval.id}"]`);
    await pay.getByText("asks to send a token of 4000 sats: above the per-payment limit of 1000 sats").waitFor();
    await pay.getByRole("button", { name: "Approve" }).click();
    await pay.waitFor({ state: "detached" });
    assert.equal(sim.halo.core.wallet.rails.list()[0].state, "approved");
  });

  it("Tools: lists every registered tool", async () => {
    await open("tools");
    assert.equal(await page.locator("[data-tool]").count(), sim.halo.core.registry.all().length);
    await page.getByLabel("Filter").fill("memory.pin");
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll("[data-tool]").length === 1);
    await checkSection("tools");
  });

  it("Memory and files: pins and deletes a memory, reads, shares and deletes a file", async () => {
    assert.equal((await postMcp(sim, call("memory.write", { content: "The owner's bicycle is blue." }))).status, 200);
    sim.halo.core.artifacts.saveText(person("admin"), "notes", "todo.md", "- buy bread\n- fix the bicycle\n");
    await open("memory");
    await page.getByLabel("Search memories").fill("bicycle colour");
    await page.getByRole("button", { name: "Search" }).click();
    const memory = page.locator('[data-memory="The owner\'s bicycle is blue."]');
    await memory.getByRole("button", { name: "Pin", exact: true }).click();
    await page
      .locator("#toast")
      .getByText(/pinned/i)
      .waitFor();
    await memory.getByRole("button", { name: "Delete" }).click();
    await page
      .locator("#toast")
      .getByText(/deleted/i)
      .waitFor();
    await page.getByText(/No memories/).waitFor();
    await page.locator('[data-file="notes/todo.md"]').getByRole("button", { name: "Read" }).click();
    await page.locator("#file-text").getByText("fix the bicycle").waitFor();
    await page.locator('[data-file="notes/todo.md"]').getByRole("button", { name: "Share", exact: true }).click();
    await page.locator('[data-file="notes/todo.md"]').getByRole("button", { name: "Unshare" }).waitFor();
    assert.equal(sim.halo.core.artifacts.list(person("admin"))[0]?.shared, true);
    await page.locator('[data-file="notes/todo.md"]').getByRole("button", { name: "Delete" }).click();
    await page.locator('[data-file="notes/todo.md"]').waitFor({ state: "detached" });
    assert.deepEqual(sim.halo.core.artifacts.list(person("admin")), []);
    // The owner's view of another person's files and of the skill capsules.
    sim.halo.core.artifacts.saveText(person("user", "bob"), "trip", "rome.md", "# Rome\n");
    sim.halo.core.artifacts.saveText(person("user", "bob"), "trip", "bags.md", "two bags\n");
    sim.halo.core.skills.saveByOwner("old-habit", "# Old habit\n\nSay good morning twice.\n");
    await open("memory");
    await page.getByLabel("Person").selectOption("bob");
    await page.getByRole("button", { name: "Show their files" }).click();
    const rome = page.locator('[data-owner-file="bob/trip/rome.md"]');
    await rome.waitFor();
    await page.getByRole("button", { name: "Delete trip/rome.md of bob" }).click();
    await rome.waitFor({ state: "detached" });
    await page.locator('[data-owner-file="bob/trip/bags.md"]').waitFor();
    assert.deepEqual(
      sim.halo.core.artifacts.ownedBy("bob").map((r) => r.name),
      ["bags.md"],
    );
    const capsule = page.locator('[data-capsule="old-habit"]');
    await capsule.getByText("Old habit").waitFor();
    assert.equal(await page.locator('[data-capsule]:has-text("built-in") button').count(), 0, "no built-in can be deleted");
    await capsule.getByRole("button", { name: "Delete capsule old-habit" }).click();
    await capsule.waitFor({ state: "detached" });
    assert.equal(sim.halo.core.skills.get("old-habit"), undefined);
    await page.getByRole("button", { name: "Show history" }).click();
    await page.waitForFunction(() => ((globalThis as any).document.getElementById("history")?.textContent ?? "").length > 0);
    await checkSection("memory");
  });

  it("Chat: a typed turn shows its reply and tool calls", async () => {
    sim.halo.core.artifacts.saveText(person("admin"), "notes", "kettle.md", "The kettle is on the left shelf.\n");
    stand.llm.reply(
      openAiTools(
        ["docs_search", '{"query":"ring"}'],
        ["files_read", '{"project":"notes","name":"kettle.md"}'],
        ["files_read", '{"project":"notes","name":"gone.md"}'],
      ),
      openAiAnswer(answer({ reply: "The ring shows the state." })),
    );
    await open("chat");
    await page.getByLabel("Message").fill("what does the ring do?");
    await page.keyboard.press("Enter");
    await page.getByText("The ring shows the state.").waitFor();
    assert.match((await page.locator(".tool-calls").textContent())!, /docs\.search round 1, ok/);
    // Each call's result text, collapsed until opened.
    const kettle = page.locator(".tool-calls details").nth(1);
    assert.equal(await kettle.getByText(/left shelf/).isVisible(), false, "collapsed at first");
    await kettle.getByText("Result of files.read").click();
    await kettle.getByText(/The kettle is on the left shelf\./).waitFor();
    const gone = page.locator(".tool-calls details").nth(2);
    // With the keyboard alone: focus the summary, Enter opens it.
    await gone.getByText("Error from files.read").focus();
    await page.keyboard.press("Enter");
    await gone.getByText(/not-found: no file notes\/gone\.md/).waitFor();
    await checkSection("chat");
  });

  it("Chat: the talk button records the microphone, sends a WAV to /api/voice and plays the answer", async () => {
    stand.transcripts.push("what is the weather");
    stand.llm.reply(openAiAnswer(answer({ reply: "Sunny all day." })));
    stand.speech.push({ pcm: replyPcm(500) });
    await open("chat");
    await page.getByRole("button", { name: "Talk" }).click();
    await page.getByRole("button", { name: "Stop and send" }).waitFor();
    await page.waitForTimeout(1500);
    await page.getByRole("button", { name: "Stop and send" }).click();
    await page.getByText("Sunny all day.").waitFor({ timeout: 20000 });
    await page.getByText("what is the weather").waitFor();
    await page.locator("#voice-reply").waitFor({ state: "attached" });
    const up = stand.uploads.at(-1)!;
    assert.ok(up.wav && up.wav.durationMs > 500, "the upload carries the recorded audio");
  });

  it("Device: shows status, health and update state, and the ring preview changes during a turn", async () => {
    await open("device");
    await page.locator("svg.ring[data-pattern]").waitFor();
    const framesBefore = Number((await page.locator("svg.ring").getAttribute("data-frames")) ?? 0);
    stand.llm.reply(
      openAiAnswer(
        answer({
          reply: "Green it is.",
          device: [
            {
              led: { mode: "solid", r: 0, g: 255, b: 0, brightness: null },
              lights: null,
              config: null,
              orch_model: null,
              reboot: null,
              tts: null,
            },
          ],
        }),
      ),
    );
    const turn = await ownerApi(sim, "POST", "/api/chat", { text: "make the ring green" });
    assert.equal(turn.status, 200, turn.text);
    await page.locator('svg.ring[data-pattern="solid 0,255,0"]').waitFor();
    // The status ring drew the turn (thinking, replying, done) while it ran.
    await page.waitForFunction(
      (n) => Number((globalThis as any).document.querySelector("svg.ring").getAttribute("data-frames")) >= n + 2,
      framesBefore,
    );
    assert.equal(await page.locator("svg.ring circle").count(), sim.halo.core.ports.led!.pixels);
    assert.match((await page.locator("#device-status").textContent())!, /irmware/);
    assert.ok(((await page.locator("#device-health").textContent()) ?? "").length > 0);
    await checkSection("device");
  });

  it("Device: records a wake example with the microphone, teaches the phrase from three WAV files, turns it off, forgets it", async () => {
    await open("device");
    await page
      .locator("#wake-state")
      .getByText(/No wake phrase yet/)
      .waitFor();
    await page.getByRole("button", { name: "Record an example" }).click();
    await page.getByRole("button", { name: "Stop and keep" }).waitFor();
    await page.waitForTimeout(1200);
    await page.getByRole("button", { name: "Stop and keep" }).click();
    // The fake microphone loops a sentence with silence around it: whatever part was caught, the device's
    // answer (kept, or the sentence saying why not) is on the page.
    await page
      .locator("#wake-outcome")
      .getByText(/Example kept \(1 of 3\)|recording|phrase/)
      .waitFor();
    await page.getByRole("button", { name: "Forget the phrase" }).click();
    await page
      .locator("#wake-state")
      .getByText(/No wake phrase yet: record the phrase 3 times\.$/)
      .waitFor();

    const files = wakeExamples("hey halo").map((take, i) => {
      const path = join(tmp, `take${i}.wav`);
      writeFileSync(path, encodeWav({ sampleRate: 16000, samples: take }));
      return path;
    });
    await page.locator("#wake-files").setInputFiles(files);
    await page.locator("#wake-outcome").getByText("The phrase is taught.").waitFor();
    await page.locator("#wake-state").getByText("A wake phrase is set; it is on, sensitivity 0.5.").waitFor();
    await page.getByLabel("Listen for the phrase").uncheck();
    await page
      .locator("#wake-state")
      .getByText(/it is off/)
      .waitFor();
    assert.equal((await ownerApi(sim, "GET", "/api/wake")).json.enabled, false);
    await page.locator("#wake-files").setInputFiles([files[0]]);
    await page
      .locator("#wake-state")
      .getByText(/1 of 3 examples recorded for a new phrase/)
      .waitFor();
    await checkSection("device");
    await page.getByRole("button", { name: "Forget the phrase" }).click();
    await page
      .locator("#wake-state")
      .getByText(/No wake phrase yet/)
      .waitFor();
    assert.deepEqual((await ownerApi(sim, "GET", "/api/wake")).json, {
      set: false,
      enabled: false,
      sensitivity: 0.5,
      pending: 0,
      needed: 3,
    });
  });

  it("fits a phone's width and works with the keyboard alone", async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    for (const section of ["people", "memory", "chat", "setup"]) {
      await open(section);
      const wide = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth);
      assert.ok(wide <= 375, `no sideways scrolling on ${section} (${wide} px)`);
    }
    await screenshot(page, "phone-setup");
    await page.locator(".skip").focus();
    let reached = false;
    for (let i = 0; i < 20 && !reached; i++) {
      await page.keyboard.press("Tab");
      reached = await page.evaluate(() => (globalThis as any).document.activeElement?.textContent === "Memory and files");
    }
    assert.ok(reached, "the section links are reached with Tab");
    await page.keyboard.press("Enter");
    await page.waitForSelector('[data-section="memory"]');
    await page.keyboard.press("Tab");
    assert.equal(
      await page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute("name")),
      "query",
      "focus moves into the section",
    );
    await page.setViewportSize({ width: 1100, height: 900 });
  });

  it("signs out, and no token ever went into a URL", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    assert.equal(await page.evaluate(() => (globalThis as any).localStorage.getItem("halo.token")), null);
    assert.ok(urls.length > 10);
    assert.ok(urls.every((u) => !u.includes(sim.token) && !/token=/.test(u)));
    assert.deepEqual(errors, []);
  });
});
