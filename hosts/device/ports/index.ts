// The device's ports, assembled from Moddable modules.
import type { Ports } from "../../../lib/ports";
import { bufferedAudioHttp } from "../../../lib/voice/audio-http";
import { nativeArena } from "../../../modules/vector/arena";
import { nativeKernels } from "../../../modules/vector/vector";
import { xsWakeKernel } from "../../../modules/wake/wake";
import { nativeCurve } from "../../../modules/curve/curve";
import type { DeviceConfig } from "../config";
import { cardStorage } from "./card";
import { deviceClock } from "./clock";
import { deviceDigest } from "./digest";
import { moddableHttpClient, moddableResolver } from "./http-client";
import { digitalButton } from "./button";
import { neopixelLed } from "./led";
import { linButton } from "./lin-button";
import { linRing } from "./lin-ring";
import { i2sAudioIn } from "./audio-in";
import { i2sAudioOut } from "./audio-out";
import { traceLog } from "./log";
import { deviceOta, deviceOtaSlots } from "./ota";
import { deviceRandom } from "./random";
import { preferenceSettings } from "./settings";
import { deviceSystem } from "./system";
import { deviceTimers } from "./timers";
import { moddableWebSocket } from "./websocket";

export function devicePorts(config: DeviceConfig): Ports {
  const log = traceLog();
  const storage = config.storageRoot === undefined ? undefined : cardStorage(config.storageRoot, config.storageCreate, log);
  // lin has no ring and no pins: a ring that lights nothing (its phases are traced) and a button pressed by signals.
  const led = neopixelLed(config.ring, log) ?? (config.simulated ? linRing() : undefined);
  // The microphone first: it must hold I2S controller 0 (PDM) before the speaker takes the first free one.
  const audioIn = i2sAudioIn(log);
  const audioOut = i2sAudioOut(log);
  return {
    clock: deviceClock,
    random: deviceRandom,
    digest: deviceDigest,
    log,
    settings: preferenceSettings,
    http: moddableHttpClient,
    // The SDK's HTTP client takes and gives whole bodies: a capture goes up once it ended, speech comes down whole.
    audioHttp: bufferedAudioHttp(moddableHttpClient),
    timers: deviceTimers,
    resolver: moddableResolver,
    // The C int8 kernel (modules/vector), never the TypeScript one: ~0.14 ms instead of ~460 ms per 20k-row scan on XS.
    kernels: nativeKernels,
    // The wake-word engine in C (modules/wake); a detector's memory is one allocation outside the XS heap.
    wake: xsWakeKernel,
    // The store's rows in native memory (PSRAM), outside the XS chunk heap the collector scans (modules/vector/arena.c).
    vectorArena: nativeArena,
    // secp256k1 in C (modules/curve): Nostr signatures, verification and ECDH off the XS BigInts.
    curve: nativeCurve,
    webSocket: moddableWebSocket,
    system: deviceSystem(config, log),
    ota: deviceOta(config),
    // The update engine replaces `ota` in the core when the board has app slots (not on lin).
    otaSlots: config.simulated ? undefined : deviceOtaSlots(),
    storage,
    led,
    button: config.simulated ? linButton(log) : digitalButton(config.button, deviceClock, log),
    // files.send delivers through the Telegram channel.
    messenger: undefined,
    // main.ts puts the radio in once the network object exists (lin: none).
    wifi: undefined,
    audioIn,
    audioOut,
  };
}
