import { nodeWakeKernel } from "../wake/kernel.ts";
import { tsKernels } from "../../../lib/memory/store/kernel-ts.ts";
import type { Log, Ota, Ports } from "../../../lib/ports.ts";
import { consoleLog, cryptoRandom, memoryLog, nodeDigest, systemClock } from "./node-basics.ts";
import { nodeHttpClient, nodeResolver } from "./http-client.ts";
import { folderStorage } from "./folder-storage.ts";
import { memoryStorage } from "./memory-storage.ts";
import { memorySettings } from "./memory-settings.ts";
import { folderSettings } from "./settings.ts";
import { simButton, simLed, simOta, type SimButton, type SimLed } from "./hardware.ts";
import { simAudioIn, simAudioOut, type SimAudioIn, type SimAudioOut } from "./audio.ts";
import { speakerFileSink } from "./audio-files.ts";
import { simSystem, type SimSystem } from "./system.ts";
import { openSimOtaSlots } from "./ota-slots.ts";
import { wsClient } from "./websocket.ts";
import { simVectorArena } from "./vector-arena.ts";
import { nodeAudioHttp } from "./audio-http.ts";
import { nodeTimers } from "./timers.ts";
import { simCurve } from "../curve/curve.ts";

/** The firmware version memoryPorts' simulated System reports. */
export const TEST_FIRMWARE_VERSION = "0.0.0-test";

/** The simulator's ports over a data folder. */
export function simulatorPorts(dataDir: string, firmwareVersion = TEST_FIRMWARE_VERSION, log: Log = consoleLog()): Ports {
  const hardware = simHardware({ firmwareVersion, log, flashDir: `${dataDir}/flash` });
  // What the speaker plays lands in <data>/speaker/ as WAV files, and the microphone hears tones (the self-test's loopback).
  const files = speakerFileSink(`${dataDir}/speaker`);
  const audioOut = simAudioOut(log, (u) => {
    files(u);
    if (u.kind === "tone") hardware.audioIn.hear(u.samples, u.sampleRate);
  });
  return {
    clock: systemClock,
    random: cryptoRandom,
    digest: nodeDigest,
    log,
    settings: folderSettings(`${dataDir}/flash`),
    http: nodeHttpClient,
    // Audio goes up while it is captured and speech comes down while it is made.
    audioHttp: nodeAudioHttp,
    timers: nodeTimers,
    resolver: nodeResolver,
    // The int8 kernel in TypeScript (the same contract as the C one).
    kernels: tsKernels,
    // The wake-word engine's C as an N-API addon (the same sources as the device's).
    wake: nodeWakeKernel(),
    // The C secp256k1 of modules/curve as a Node addon (HALO_CURVE=ts: the TypeScript curve).
    curve: simCurve(log),
    // ArrayBuffers with the device's budget, so max_vectors clamps as on the board.
    vectorArena: simVectorArena(),
    webSocket: wsClient,
    // The SD card; tests pull it through halo.core.ports.storage (a RemovableStorage).
    storage: folderStorage(`${dataDir}/sd`),
    // files.send delivers through the Telegram channel.
    messenger: undefined,
    // No radio: the simulator uses the computer's network (tests give a simWifi through portOverrides).
    wifi: undefined,
    ...hardware,
    audioOut,
    // Two slot files and an otadata record; the simulator cannot restart itself, so a restart is logged.
    otaSlots: openSimOtaSlots(`${dataDir}/ota`, firmwareVersion, () =>
      log.warn("ota: restart requested; start the simulator again to boot the other slot"),
    ),
  };
}

/** Ports that touch no disk and print nothing: tests, generators, benchmarks. */
export function memoryPorts(overrides: Partial<Ports> = {}): Ports {
  const log = overrides.log ?? memoryLog();
  return {
    clock: systemClock,
    random: cryptoRandom,
    digest: nodeDigest,
    log,
    settings: memorySettings(),
    http: nodeHttpClient,
    audioHttp: nodeAudioHttp,
    timers: nodeTimers,
    resolver: nodeResolver,
    kernels: tsKernels,
    wake: nodeWakeKernel(),
    curve: simCurve(log),
    vectorArena: simVectorArena(),
    webSocket: wsClient,
    storage: memoryStorage(),
    messenger: undefined,
    wifi: undefined,
    ...simHardware({ firmwareVersion: TEST_FIRMWARE_VERSION, log }),
    otaSlots: undefined,
    ...overrides,
  };
}

/** The board ports of the simulator. */
export function simHardware(options: { firmwareVersion: string; log: Log; flashDir?: string }): {
  system: SimSystem;
  led: SimLed;
  button: SimButton;
  audioOut: SimAudioOut;
  audioIn: SimAudioIn;
  ota: Ota;
} {
  const audioIn = simAudioIn();
  // The room: a tone from the speaker reaches the microphone.
  const audioOut = simAudioOut(options.log, (u) => {
    if (u.kind === "tone") audioIn.hear(u.samples, u.sampleRate);
  });
  return { system: simSystem(options), led: simLed(), button: simButton(), audioOut, audioIn, ota: simOta(options.firmwareVersion) };
}
