// XS entry: skills' context (references, context blocks, memory on Nostr).
import { runSkillContextScenario } from "../scenarios/skill-context.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(runSkillContextScenario);
