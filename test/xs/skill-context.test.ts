// Skills' context on the XS engine: the same transcript as on Node, line for line.
import assert from "node:assert/strict";
import { runSkillContextScenario } from "../scenarios/skill-context.ts";
import { compareOnXs } from "../support/xs-compare.ts";

describe("skills' context on XS", () => {
  const cmp = compareOnXs("test/xs/skill-context.xs.ts", runSkillContextScenario, 10);

  it("the transcript shows the behaviour, not just agreement", () => {
    const text = cmp.node().join("\n");
    assert.match(text, /^names \["x","y\.z","","secret\.nostr-key","n"\]$/m);
    assert.match(
      text,
      /^owner text .*Me: pubkey: abc\\nholds \{\{memory_recall\}\}\\nNotes: x\*2000\\n\[cut\]\\nIn: hello \{\{agent_identity\}\}\\nKey: \[unavailable: \{\{\?\}\} \(not a reference name\)\] \[unavailable: \{\{nsec\}\} \(not a context block\)\] \[unavailable: \{\{boom\}\} \(failed\)\]"$/m,
    );
    assert.match(text, /^guest text .*Notes: \[unavailable: \{\{owner_notes\}\} \(admin-only\)\]/m);
    assert.match(text, /^plain .*Report it\.\\n\\n\[fired by webhook\]\\nthe door is open"$/m);
    assert.match(text, /^bare .*\[unavailable: \{\{agent_identity\}\} \(no references on this host\)\] m"$/m);
    assert.match(text, /^bounded asked=8 unresolved=11 last=n10 \(more than 8 references\)$/m);
    // Context blocks: bounded, cached while fresh, refreshed when old, stale (said so) without relays.
    assert.match(
      text,
      /^profile "The owner's profile on Nostr .*\\nname: Ada\\nabout: Builds \{\{things\}\}\. Line two\\nwebsite: x{300}…"$/m,
    );
    assert.doesNotMatch(text, /Mallory|not a field/);
    assert.match(text, /^contacts .* lines=43 \(and 5 more\)$/m);
    assert.match(text, /^cached name: Ada queries=5$/m);
    assert.match(text, /^refreshed name: Ada Lovelace queries=6$/m);
    assert.match(text, /^stale \["name: Ada Lovelace","\(cached 2 h ago; the relays gave nothing newer\)"\]$/m);
    assert.match(text, /^never fetched ERROR unavailable:/m);
    // The memory note: newest first, separators inside an entry broken up, the oldest dropped past the bound.
    assert.match(
      text,
      /^entries \["\[2026-05-28 20:27\] Meeting moved to\\nFriday\\n- - -\\nreally","\[2026-05-28 20:26\] User likes coffee\."\]$/m,
    );
    assert.match(text, /^bounded chars=\d+<=12000 entries=7 dropped=15 newest=.* entry 19 oldest=.* entry 13$/m);
    // Tasks: ids, statuses, refusals, the bound, a note that is not a task list left alone; NIP-50 words.
    assert.match(text, /^task update ERROR not-found: no task has that id/m);
    assert.match(text, /^task add Added t3\. \[\["t2","done","Water the plants"\],\["t3","blocked","Call the plumber"\]\]$/m);
    assert.match(text, /^block "Current tasks \(2\):\\n- \[blocked\] t3: Call the plumber\\n- \[done\] t2: Water the plants"$/m);
    assert.match(text, /^full ERROR full: at most 50 tasks/m);
    assert.match(text, /^not a list ERROR invalid: the tasks note on the relays is not a task list/m);
    assert.match(text, /^foreign entries \["t1"\]$/m);
    assert.match(text, /^search \["bitcoin","desk"\] true false true$/m);
    // Wallet approvals: on the card (token included, never listed), kept across restarts and a cut redemption.
    assert.match(text, /^on the card: true true$/m);
    assert.match(text, /^after restart \[\["w[0-9a-f]{8}","send",5000,"awaiting-approval"\],\["w[0-9a-f]{8}","receive",21,/m);
    assert.match(text, /^no token shown true$/m);
    assert.match(text, /^cut mid-redeem .*"awaiting-approval"\],\["w[0-9a-f]{8}","awaiting-approval"\],/m);
    assert.match(text, /^redeemed cashuBsecret-token-one left=2$/m);
    assert.match(text, /^approved payment kept \[\["w[0-9a-f]{8}","approved"\]/m);
    assert.match(text, /^used twice ERROR not-found/m);
    assert.match(text, /^pulled ERROR no-card: .* still=1$/m);
    assert.match(text, /^damaged 0 kept=true wallet: the approvals file on the card is damaged/m);
    assert.match(text, /^expired 0 0$/m);
  });
});
