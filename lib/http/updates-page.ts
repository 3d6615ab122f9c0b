// The owner's updates page at /updates: paste the owner token, check for a
// release, read its notes, approve (install) it, or point the device at
// another feed. It holds no state and no secret; every action is an owner API
// call (lib/http/owner-ota.ts) with the token the owner typed, kept in memory.

/** The page's HTML (static: the status comes from GET /api/ota in the browser). */
export function updatesPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Halo updates</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}
input{font:inherit;width:100%;box-sizing:border-box}button{font:inherit;margin:.3rem .3rem 0 0}
#notes{white-space:pre-wrap;background:#f4f4f4;padding:.5rem}</style>
</head><body>
<h1>Updates</h1>
<p><label>Owner token <input id="token" type="password" autocomplete="off"></label></p>
<p><button id="refresh">Show status</button><button id="check">Check now</button></p>
<p id="status">Enter the owner token to see the update status.</p>
<div id="offer" hidden><h2 id="offer-title"></h2><div id="notes"></div>
<p><button id="install">Install and restart</button></p></div>
<p><label>Release feed URL <input id="feed" type="url" placeholder="https://example.org/halo/feed.json"></label>
<button id="save-feed">Use this feed</button></p>
<script>
const $ = (id) => document.getElementById(id);
let offered;
async function call(method, path, body) {
  const res = await fetch(path, { method, headers: { authorization: "Bearer " + $("token").value, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  show(data, res.status);
}
function show(s, status) {
  if (s.error || status === 401) { $("status").textContent = s.error || "The token was refused."; return; }
  const last = s.lastInstall ? " Last install: " + s.lastInstall.version + " " + s.lastInstall.outcome + (s.lastInstall.detail ? " (" + s.lastInstall.detail + ")" : "") + "." : "";
  $("status").textContent = "State: " + s.state + ". Running " + s.runningVersion + (s.slot ? " (" + s.slot + ")" : "") + "." + (s.detail ? " " + s.detail + "." : "") + last;
  if (s.feedUrl && !$("feed").value) $("feed").value = s.feedUrl;
  offered = s.state === "available" && s.latest ? s.latest.version : undefined;
  $("offer").hidden = !offered;
  if (offered) { $("offer-title").textContent = "Version " + offered; $("notes").textContent = s.latest.notes || "(no notes)"; }
}
$("refresh").onclick = () => call("GET", "/api/ota");
$("check").onclick = () => call("POST", "/api/ota/check", {});
$("install").onclick = () => offered && call("POST", "/api/ota/install", { version: offered });
$("save-feed").onclick = () => call("PUT", "/api/ota/feed", { url: $("feed").value || null });
</script>
</body></html>
`;
}
