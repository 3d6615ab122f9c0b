// Every subsystem of the device. The composition root builds them in the order their needs give
// (lib/app/subsystem.ts orderSubsystems); this list's order only breaks ties.
import type { SubsystemEntry } from "../subsystem";
import { AGENTS, SCHEDULER } from "./agents";
import { BLOSSOM } from "./blossom";
import { BOARD } from "./board";
import { CHANNELS } from "./channels";
import { DOCS } from "./docs";
import { FILES } from "./files";
import { MEMORY } from "./memory";
import { NOSTR, NOSTR_TURNS } from "./nostr";
import { OUTBOUND } from "./outbound";
import { OWNERSHIP } from "./ownership";
import { PROVIDERS } from "./providers";
import { REGISTRY } from "./registry";
import { SPEECH } from "./speech";
import { STATUS } from "./status";
import { TURN } from "./turn";
import { UPDATES } from "./updates";
import { VOICE } from "./voice";
import { WAKE } from "./wake";
import { WALLET } from "./wallet";

export const SUBSYSTEMS: readonly SubsystemEntry[] = [
  REGISTRY,
  DOCS,
  OUTBOUND,
  OWNERSHIP,
  SPEECH,
  BOARD,
  MEMORY,
  CHANNELS,
  FILES,
  NOSTR,
  WALLET,
  BLOSSOM,
  UPDATES,
  PROVIDERS,
  AGENTS,
  TURN,
  SCHEDULER,
  VOICE,
  WAKE,
  NOSTR_TURNS,
  STATUS,
];
