// The tool names skills are written with. Tool names are the vocabulary skills carry between agents
// ("requires_tool" tags): a skill written for the reference agents must run on Halo with the same tools. The
// first reference catalog names its tools as Halo does (`docs.search`), and every tool also answers to its
// plain spelling (`docs_search`, `nostr_post`); this table holds the names of the second reference agent that
// differ from Halo's by more than the spelling. lib/mcp/tool-names.ts, skill adoption and the turns of
// skills (lib/nostr/skills.ts) resolve names through resolveToolName.

/** A reference agent's tool name -> Halo's tool. Names that are Halo's plain spelling need no entry. */
export const SEED_TOOL_NAMES: ReadonlyMap<string, string> = new Map([
  ["cashu_wallet_balance", "wallet.balance"],
  ["cashu_wallet_info", "wallet.info"],
  ["cashu_wallet_mint_quote", "wallet.mint_quote"],
  ["cashu_wallet_mint_check", "wallet.mint_check"],
  ["cashu_wallet_mint_claim", "wallet.mint_claim"],
  ["cashu_wallet_melt_quote", "wallet.melt_quote"],
  ["cashu_wallet_melt_pay", "wallet.melt_pay"],
  ["cashu_wallet_check_proofs", "wallet.check_proofs"],
  ["cashu_wallet_receive_token", "wallet.receive_token"],
  ["cashu_wallet_send_token", "wallet.send_token"],
  ["cashu_wallet_mints_set", "wallet.mints_set"],
  ["skill_create", "nostr.skill_publish"],
  ["skill_edit", "nostr.skill_edit"],
  ["skill_list", "nostr.skill_list"],
  ["skill_adopt", "nostr.skill_adopt"],
  ["skill_remove", "nostr.skill_remove"],
  ["skill_search", "nostr.skill_search"],
  ["trigger_list", "nostr.trigger_list"],
  ["nostr_pubkey", "agent.identity"],
  ["nostr_npub", "agent.identity"],
  ["my_pubkey", "agent.identity"],
  ["my_npub", "agent.identity"],
  ["admin_identity", "nostr.admin_identity"],
  ["my_kind0_profile", "nostr.agent_profile"],
  ["my_contacts", "nostr.agent_contacts"],
  ["my_relays", "nostr.agent_relays"],
  ["my_notes", "nostr.agent_notes"],
  ["memory_save", "memory.nostr_save"],
  ["memory_recall", "memory.nostr_recall"],
]);

/** `docs.search` -> `docs_search`. */
export function plainSpelling(name: string): string {
  return name.replace(/\./g, "_");
}

/**
 * The registered tool a name stands for: the name itself when registered, else the reference agents' name
 * from SEED_TOOL_NAMES, else the one tool whose plain spelling it is; undefined when none.
 */
export function resolveToolName(
  name: string,
  registry: { has(name: string): boolean; all(): Array<{ name: string }> },
): string | undefined {
  if (registry.has(name)) return name;
  const seed = SEED_TOOL_NAMES.get(name);
  if (seed !== undefined && registry.has(seed)) return seed;
  for (const t of registry.all()) if (plainSpelling(t.name) === name) return t.name;
  return undefined;
}
