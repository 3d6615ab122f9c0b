// ECMA-419 audio IO as the Moddable SDK implements it (modules/io/audioin,
// modules/io/audioout): the parts hosts/device/ports/audio-*.ts use.

declare module "embedded:io/audio/in" {
  export interface AudioInOptions {
    sampleRate?: number;
    /** 8 or 16 with the SDK's esp32 driver (16-bit I2S slots). */
    bitsPerSample?: number;
    channels?: number;
    /** Bytes ready to read. */
    onReadable?(this: AudioIn, byteLength: number): void;
  }
  export default class AudioIn {
    constructor(options: AudioInOptions);
    readonly sampleRate: number;
    readonly bitsPerSample: number;
    readonly channels: number;
    start(): void;
    stop(): void;
    /** Fills `buffer` (returns the byte count), or allocates what is ready; undefined when nothing is. */
    read(buffer: ArrayBuffer): number;
    read(): ArrayBuffer | undefined;
    close(): void;
  }
}

declare module "embedded:io/audio/out" {
  export interface AudioOutOptions {
    sampleRate?: number;
    bitsPerSample?: number;
    channels?: number;
    /** Room for this many bytes. */
    onWritable?(this: AudioOut, byteLength: number): void;
  }
  export default class AudioOut {
    constructor(options: AudioOutOptions);
    /** 0.0-1.0 */
    volume: number;
    start(): void;
    stop(options?: { flush?: boolean }): void;
    write(buffer: ArrayBuffer | ArrayBufferView): void;
    close(): void;
  }
}
