// The Cashu wallet on the SDK's Linux target: starts halo-lin on a fresh data folder (run-halo-lin.mjs) and the
// stand-in mint (test/support/cashu-mint.ts: real blind signatures, a fake Lightning) on loopback, puts the mint
// on the owner's allow-list through the owner API and then, over /mcp with the official MCP client: a mint
// quote, its invoice paid by the stand-in, the claim, a token sent, received by a second wallet here (bob,
// cashu-ts on Node), a token from bob received, the same token again (a double spend the mint refuses), the
// proofs checked, the owner's relay set and two more tokens from bob received (NIP-60: the wallet, token and
// history events published, encrypted), and the sats counted: the device's balance plus bob's equals what Lightning brought in and what
// the mint owes. Prints one `ok|FAIL <step>` line a step and the figures:
//   lin-cashu-send-ms, lin-cashu-receive-ms   (each call as the MCP client sees it)
//   lin-wallet-...                             (with a debug build, -d: the engine's heap after boot and after the wallet ran)
//   node hosts/lin/check-wallet.mjs <mc.so>    (wrap it in `flock /tmp/halo-lin.lock` on a shared machine)
// CHECK_WALLET_TRACE=1 also prints every line halo-lin prints and every request the stand-in mint answers.
// Exits 1 when a step fails or no answer comes within 5 minutes.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { tsImport } from "tsx/esm/api";
import { runHaloLin } from "./run-halo-lin.mjs";

const so = process.argv[2];
if (!so) {
  console.error("usage: node hosts/lin/check-wallet.mjs <mc.so>");
  process.exit(64);
}
const BASE = "http://127.0.0.1:8080";
/** lin slots are 32 bytes (boot-figures.mjs). */
const SLOT_BYTES = 32;
const MINTED = 200;
const SENT = 21;
const FROM_BOB = 8;
/** Tokens from bob received with the relay set (NIP-60 events). */
const TIPS = [3, 2];
const TIPPED = TIPS.reduce((a, b) => a + b, 0);

let failures = 0;
function show(step, ok, detail) {
  if (!ok) failures++;
  console.log(`${ok ? "ok  " : "FAIL"} ${step}: ${detail}`);
}

/** The `instruments:` rows of a debug build, by name; the last one and the first after "serving http". */
const instruments = { keys: undefined, atBoot: undefined, last: undefined, serving: false, collections: 0, peakKb: 0 };
function instrumentsLine(line) {
  if (line.startsWith("instruments key: ")) instruments.keys = line.slice("instruments key: ".length).split(",");
  else if (instruments.keys && line.startsWith("instruments: ")) {
    const values = line.slice("instruments: ".length).split(",").map(Number);
    const row = Object.fromEntries(instruments.keys.map((k, i) => [k, values[i]]));
    if (instruments.serving && !instruments.atBoot) instruments.atBoot = row;
    else if (instruments.atBoot) {
      // Rows count collections per interval; the heap's figures are what is in use at the row.
      instruments.collections += row["Garbage collections"];
      instruments.peakKb = Math.max(instruments.peakKb, heapKb(row));
    }
    instruments.last = row;
  }
}

function heapKb(row) {
  return Math.round((row["Slot used"] + row["Chunk used"]) / 1024);
}

async function waitForRow(after, ms) {
  const start = Date.now();
  while (instruments.keys && instruments.last === after && Date.now() - start < ms) await new Promise((ok) => setTimeout(ok, 100));
}

async function owner(token, method, path, body) {
  const res = await fetch(new URL(path, BASE), {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

/** One tool call: its text, whether it is an error, and the milliseconds it took as the client saw it. */
async function tool(client, name, args) {
  const start = performance.now();
  try {
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
    const text = (result.content ?? []).map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join("\n");
    return { text, isError: result.isError === true, ms: Math.round(performance.now() - start) };
  } catch (e) {
    return { text: `THROWN ${e.message}`, isError: true, ms: Math.round(performance.now() - start) };
  }
}

/** A step whose answer must not be an error and must match `expect`; tokens are shown by their length only. */
async function step(client, name, args, expect) {
  const r = await tool(client, name, args);
  const shown = r.text.replace(/cashu[AB][A-Za-z0-9_=+/-]+/g, (t) => `<token of ${t.length} chars>`);
  show(name, !r.isError && expect.test(r.text), `${shown.slice(0, 300)} (${r.ms} ms)`);
  return r;
}

function parsed(text) {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

/** The tests' relay on loopback as the owner's only relay, once the device is connected to it. */
async function nip60Relay(token) {
  const { startTestRelay } = await tsImport("../../test/support/nostr-relay.ts", import.meta.url);
  const relay = await startTestRelay();
  const put = await owner(token, "PUT", "/api/nostr/relays", { relays: [relay.url] });
  show("PUT /api/nostr/relays", put.status === 200, `${put.status}`);
  for (let i = 0; i < 50 && relay.connections() === 0; i++) await new Promise((ok) => setTimeout(ok, 100));
  return relay;
}

/** The relay's events once `done(kinds)` holds, or after 20 s. */
async function relayEvents(relay, done) {
  const start = Date.now();
  let events = [];
  while (Date.now() - start < 20_000) {
    events = [...relay.repository.events.values()];
    if (done(new Set(events.map((e) => e.kind)))) break;
    await new Promise((ok) => setTimeout(ok, 200));
  }
  return events;
}

async function check(token) {
  const { startStandInMint } = await tsImport("../../test/support/cashu-mint.ts", import.meta.url);
  const { openWallet, seededRandom } = await tsImport("../../test/support/cashu-wallet.ts", import.meta.url);
  const { memoryStorage } = await tsImport("../../hosts/sim/ports/memory-storage.ts", import.meta.url);
  const { nodeHttpClient } = await tsImport("../../hosts/sim/ports/http-client.ts", import.meta.url);
  const mint = await startStandInMint({ height: 12 });
  if (process.env.CHECK_WALLET_TRACE) {
    // Every request the stand-in answers, and its status.
    const handle = mint.mint.handle.bind(mint.mint);
    mint.mint.handle = (method, path, body) => {
      const out = handle(method, path, body);
      console.log(`  mint: ${method} ${path} ${body.length} B -> ${out.status} ${out.body.slice(0, 120)}`);
      return out;
    };
  }
  const client = new Client({ name: "halo-lin-wallet-check", version: "1.0.0" });
  try {
    // The wallet's first use: cashu-ts loads (Modules.importNow) and the wallet boots from the card.
    const start = performance.now();
    const put = await owner(token, "PUT", "/api/wallet/mints", { allowed: [mint.url] });
    const firstUseMs = Math.round(performance.now() - start);
    show("PUT /api/wallet/mints", put.status === 200, `${put.status} ${put.text.slice(0, 200)} (${firstUseMs} ms)`);
    console.log(`lin-wallet-first-use-ms ${firstUseMs}`);
    const bad = await owner(token, "PUT", "/api/wallet/mints", { allowed: ["ftp://127.0.0.1/x"] });
    show("PUT /api/wallet/mints (not http)", bad.status === 400 && !bad.text.includes("ftp://"), `${bad.status} ${bad.text.slice(0, 200)}`);

    await client.connect(
      new StreamableHTTPClientTransport(new URL("/mcp", BASE), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    await step(client, "wallet.mints_set", { target: "wallet", wallet_mints: [mint.url] }, /"mints":\[/);
    await step(client, "wallet.info", {}, /"nuts":\[/);
    const quote = parsed((await step(client, "wallet.mint_quote", { amount: MINTED }, /"quote"/)).text);
    await step(client, "wallet.mint_check", { quote: quote.quote }, /UNPAID/);
    mint.mint.payQuote(quote.quote); // the stand-in's fake Lightning pays the invoice
    await step(client, "wallet.mint_check", { quote: quote.quote }, /"PAID"/);
    const claim = await step(client, "wallet.mint_claim", { quote: quote.quote }, new RegExp(`${MINTED}`));
    console.log(`lin-cashu-claim-ms ${claim.ms}`);
    await step(client, "wallet.balance", {}, new RegExp(`"total":${MINTED}\\b`));

    const sent = await step(client, "wallet.send_token", { amount: SENT }, /^cashuB[A-Za-z0-9_-]{100,}$/);
    console.log(`lin-cashu-send-ms ${sent.ms}`);
    const bob = await openWallet({ http: nodeHttpClient, storage: memoryStorage(), random: seededRandom(12) }, [mint.url]);
    const bobGot = await bob.receiveToken(sent.text).catch((e) => ({ error: e.message }));
    show("bob receives the device's token", bobGot.amount === SENT, JSON.stringify(bobGot));
    const fromBob = await bob.sendToken(FROM_BOB);
    const received = await step(client, "wallet.receive_token", { token: fromBob.token }, new RegExp(`^Received ${FROM_BOB} sats`));
    console.log(`lin-cashu-receive-ms ${received.ms}`);
    const again = await tool(client, "wallet.receive_token", { token: fromBob.token });
    show(
      "wallet.receive_token (the same token again)",
      again.isError && /^conflict: .*already spent/.test(again.text),
      again.text.slice(0, 200),
    );
    // NIP-60 from here on: the owner's relay (the tests' relay on loopback), set now so the timings above have
    // no relay in them; the check of the proofs settles the token bob claimed, and the wallet publishes.
    const relay = await nip60Relay(token);
    await step(client, "wallet.check_proofs", {}, /./);
    try {
      // The first change after the relay appears reads it back (reconcile) and publishes the wallet's state; the
      // next one is also recorded as history (7376).
      for (const amount of TIPS) {
        const tip = await bob.sendToken(amount);
        await step(client, "wallet.receive_token", { token: tip.token }, new RegExp(`^Received ${amount} sats`));
        await relayEvents(relay, (kinds) => kinds.has(17375) && kinds.has(7375));
      }
      const events = await relayEvents(relay, (kinds) => kinds.has(17375) && kinds.has(7375) && kinds.has(7376));
      const kinds = new Set(events.map((e) => e.kind));
      const authors = new Set(events.map((e) => e.pubkey));
      const sealed = events.filter((e) => e.kind !== 10019).every((e) => !/"(secret|proofs|privkey)"|\["mint"/.test(e.content));
      show(
        "NIP-60 on the owner's relay",
        kinds.has(17375) && kinds.has(7375) && kinds.has(7376) && authors.size === 1 && sealed,
        `kinds ${[...kinds].sort((a, b) => a - b).join(", ")}, ${events.length} events by ${authors.size} key(s), contents ${sealed ? "encrypted" : "IN THE CLEAR"}`,
      );
    } finally {
      await relay.close();
    }

    // The sums: nothing made or lost anywhere.
    const balance = parsed((await step(client, "wallet.balance", {}, /"total"/)).text);
    const bobBalance = bob.balance().total;
    const device = MINTED - SENT + FROM_BOB + TIPPED;
    show(
      "the sats add up",
      balance.total === device &&
        balance.outstanding === 0 &&
        balance.pending === 0 &&
        bobBalance === SENT - FROM_BOB - TIPPED &&
        mint.mint.lightningInSats === MINTED &&
        mint.mint.liabilities() === balance.total + bobBalance,
      `device ${balance.total} (outstanding ${balance.outstanding}, pending ${balance.pending}), bob ${bobBalance}, ` +
        `lightning in ${mint.mint.lightningInSats}, the mint owes ${mint.mint.liabilities()}`,
    );
    const api = parsed((await owner(token, "GET", "/api/wallet")).text);
    show(
      "GET /api/wallet",
      api.available === true && api.balance?.total === device && api.spent_today_sats === SENT && !JSON.stringify(api).includes("cashu"),
      JSON.stringify(api).slice(0, 300),
    );
    await client.close();

    if (instruments.atBoot) {
      await waitForRow(instruments.last, 3000);
      const boot = instruments.atBoot;
      const used = instruments.last;
      console.log(
        `lin-wallet-heap-kb-after-boot ${heapKb(boot)} (slots ${boot["Slot used"] / SLOT_BYTES}, chunk bytes ${boot["Chunk used"]})`,
      );
      console.log(
        `lin-wallet-heap-kb-after-use ${heapKb(used)} (slots ${used["Slot used"] / SLOT_BYTES}, chunk bytes ${used["Chunk used"]}, garbage included)`,
      );
      console.log(`lin-wallet-modules-loaded ${used["Modules loaded"]} (at boot ${boot["Modules loaded"]})`);
      console.log(`lin-wallet-keys-used ${used["Keys used"]} (at boot ${boot["Keys used"]})`);
      console.log(`lin-wallet-heap-kb-peak ${instruments.peakKb} (garbage included)`);
      console.log(`lin-wallet-collections-after-boot ${instruments.collections}`);
    }
  } finally {
    await mint.close();
  }
  return failures ? 1 : 0;
}

let started = false;
let ownerToken;
runHaloLin({
  so,
  name: "check-wallet",
  timeoutMs: 300_000,
  timeoutMessage: "the checks did not end within 5 minutes",
  exitMessage: "before the checks ended",
  onLine(line, finish) {
    instrumentsLine(line);
    // What the device says about the wallet, and anything that went wrong, beside the steps.
    // (A debug build also prints "exception: throw!" at every throw, caught ones included: shown with CHECK_WALLET_TRACE.)
    const said = process.env.CHECK_WALLET_TRACE
      ? !line.startsWith("instruments")
      : /wallet|cashu|abort|\] error/i.test(line) && !/exception: throw!$/.test(line);
    if (said) console.log(`  halo-lin: ${line.slice(0, 300)}`);
    const token = /owner token \(shown once\): (\S+)/.exec(line)?.[1];
    if (token) ownerToken = token;
    if (!line.includes("serving http") || started) return;
    instruments.serving = true;
    started = true;
    if (!ownerToken) {
      console.error("check-wallet: halo-lin printed no owner token");
      finish(1);
      return;
    }
    check(ownerToken).then(finish, (e) => {
      console.error(`check-wallet: ${e.stack ?? e}`);
      finish(1);
    });
  },
});
