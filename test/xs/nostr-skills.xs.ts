// XS entry: the skill-trigger scenario (adoption checks, tool lists, schedule, webhook, chain).
import { runNostrSkillsScenario } from "../scenarios/nostr-skills.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(runNostrSkillsScenario);
