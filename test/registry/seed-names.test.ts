// The reference agents' tool names: every entry of the table names a registered tool, and a name resolves to
// the registered name, the table's, or the one tool of that plain spelling; nothing else.
import assert from "node:assert/strict";
import { resolveToolName, SEED_TOOL_NAMES } from "../../lib/registry/seed-names.ts";
import { deviceRegistry } from "../support/registry.ts";

describe("reference tool names (lib/registry/seed-names.ts)", () => {
  const { registry } = deviceRegistry();

  it("maps every name of the table to a tool the device has", () => {
    for (const [seed, halo] of SEED_TOOL_NAMES) assert.ok(registry.has(halo), `${seed} -> ${halo}`);
  });

  it("resolves the seed's eleven cashu_wallet_* names and the nostr_* plain spellings", () => {
    for (const n of [
      "balance",
      "info",
      "mint_quote",
      "mint_check",
      "mint_claim",
      "melt_quote",
      "melt_pay",
      "check_proofs",
      "receive_token",
      "send_token",
      "mints_set",
    ]) {
      assert.equal(resolveToolName(`cashu_wallet_${n}`, registry), `wallet.${n}`);
    }
    assert.equal(resolveToolName("nostr_post", registry), "nostr.post");
    for (const n of ["upload", "download", "head", "delete", "list"])
      assert.equal(resolveToolName(`blossom_${n}`, registry), `blossom.${n}`);
    assert.equal(resolveToolName("docs_search", registry), "docs.search");
    assert.equal(resolveToolName("skill_create", registry), "nostr.skill_publish");
    assert.equal(resolveToolName("wallet.balance", registry), "wallet.balance");
  });

  it("resolves nothing the device lacks, and no name from the object prototype", () => {
    for (const n of ["local_shell_exec", "toString", "__proto__", "constructor", "cashu_wallet_", "nostr.post_", ""]) {
      assert.equal(resolveToolName(n, registry), undefined, n);
    }
  });
});
