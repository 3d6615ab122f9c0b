// Who may call, and the owner's own choices: MCP client tokens, people and roles, the chat allow-list,
// the secrets, provider priority and the config knobs.
import { ConfigStore } from "../../device/config";
import { ProviderPriority } from "../../device/provider-priority";
import { SecretStore } from "../../device/secrets";
import { ChatAllowList } from "../../people/chat-allowlist";
import { ClientTokens } from "../../people/clients";
import { PeopleStore } from "../../people/people";
import { SpendRails } from "../../people/rails";
import { defineSubsystem } from "../subsystem";

export const OWNERSHIP = defineSubsystem({
  name: "ownership",
  ports: ["settings", "digest", "random", "log", "clock"],
  needs: [],
  provides: ["clients", "people", "chats", "secrets", "priority", "config", "rails"],
  build(p) {
    const now = (): number => p.clock.now();
    const people = new PeopleStore(p.settings, p.log, now);
    people.ensureAdmin();
    const config = new ConfigStore(p.settings, p.log);
    return {
      clients: new ClientTokens(p.settings, p.digest, p.random, p.log, now),
      people,
      chats: new ChatAllowList(p.settings, p.log),
      secrets: new SecretStore(p.settings, p.log),
      priority: new ProviderPriority(p.settings, p.log),
      config,
      rails: new SpendRails({ config, now }),
    };
  },
});
