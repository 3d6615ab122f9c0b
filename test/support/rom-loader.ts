// A stand-in of the ESP32-S3 ROM serial loader (and of the flasher stub it
// loads), on the far end of a pseudo-terminal: SLIP frames, SYNC, register
// reads, GET_SECURITY_INFO, RAM download (the stub, then "OHAI"), flash
// begin/data/end and their compressed forms, SPI_FLASH_MD5. Flash is 16 MB in
// memory. When Improv frames arrive after a flash, it "boots" the app written
// at 0x10000 and answers Improv as Halo would (version from the app image).
import { createHash } from "node:crypto";
import { inflateSync } from "node:zlib";
import { readAppVersion } from "../../hosts/sim/ports/ota-image.ts";
import { type ImprovDevice, ImprovService } from "../../lib/net/improv.ts";
import { ImprovReader } from "../../lib/net/improv-frame.ts";
import type { PtyPair } from "./pty.ts";

export const FLASH_BYTES = 16 * 1024 * 1024;
const ESP32S3_CHIP_ID = 9;
const SPI_W0_REG = 0x60002058; // where the flash id lands after a RDID command
const OP = {
  FLASH_BEGIN: 0x02,
  FLASH_DATA: 0x03,
  FLASH_END: 0x04,
  MEM_BEGIN: 0x05,
  MEM_END: 0x06,
  MEM_DATA: 0x07,
  SYNC: 0x08,
  WRITE_REG: 0x09,
  READ_REG: 0x0a,
  SPI_SET_PARAMS: 0x0b,
  SPI_ATTACH: 0x0d,
  CHANGE_BAUDRATE: 0x0f,
  DEFL_BEGIN: 0x10,
  DEFL_DATA: 0x11,
  DEFL_END: 0x12,
  MD5: 0x13,
  SECURITY_INFO: 0x14,
  ERASE_FLASH: 0xd0,
  ERASE_REGION: 0xd1,
} as const;

/** The ROM's boot text, as a board in download mode prints it once on reset. */
const BOOT_TEXT = new TextEncoder().encode(
  "ESP-ROM:esp32s3-20210327\r\nrst:0x1 (POWERON),boot:0x0 (DOWNLOAD(USB/UART0))\r\nwaiting for download\r\n",
);

const u32 = (b: Uint8Array, at: number): number => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
const le32 = (v: number): number[] => [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff];

function checksum(data: Uint8Array): number {
  let c = 0xef;
  for (const b of data) c ^= b;
  return c;
}

function slip(packet: Uint8Array): Uint8Array {
  const out: number[] = [0xc0];
  for (const b of packet) {
    if (b === 0xc0) out.push(0xdb, 0xdc);
    else if (b === 0xdb) out.push(0xdb, 0xdd);
    else out.push(b);
  }
  out.push(0xc0);
  return new Uint8Array(out);
}

export class RomLoaderStandIn {
  readonly flash = new Uint8Array(FLASH_BYTES).fill(0xff);
  /** Every command op received, in order; and malformed frames counted. */
  readonly ops: number[] = [];
  badFrames = 0;
  mode: "rom" | "stub" | "app" = "rom";
  stubBytes = 0;
  /** Wi-Fi settings received over Improv. */
  wifi: { ssid: string; password: string } | undefined;
  private frame: number[] | undefined;
  private escaped = false;
  private write: { offset: number; blockSize: number; blocks: number; compressed: number[][]; size: number } | undefined;
  private wroteFlash = false;
  private app: ImprovService | undefined;
  private readonly improvSeen = new ImprovReader();

  constructor(
    private readonly pty: PtyPair,
    private readonly options: {
      refuseSsid?: string;
      url?: string;
      /** Chip id GET_SECURITY_INFO reports (default: the ESP32-S3's). */
      chipId?: number;
      /** A flash address whose byte goes bad as it is written (a failing flash chip). */
      corruptAt?: number;
      /** A board that is not in download mode: it answers nothing. */
      silent?: boolean;
      /** Print the ROM's boot text first, and empty frames before every reply. */
      noise?: boolean;
    } = {},
  ) {
    pty.onData((bytes) => this.receive(bytes));
  }

  private receive(bytes: Uint8Array): void {
    if (this.options.silent) return;
    if (this.options.noise && this.ops.length === 0 && this.badFrames === 0 && !this.frame) this.pty.write(BOOT_TEXT);
    this.onImprovBytes(bytes);
    if (this.mode === "app") return;
    for (const b of bytes) {
      if (b === 0xc0) {
        if (this.frame && this.frame.length > 0) this.onPacket(new Uint8Array(this.frame));
        this.frame = [];
        continue;
      }
      if (!this.frame) continue; // noise before the first delimiter
      if (this.escaped) {
        this.escaped = false;
        if (b === 0xdc) this.frame.push(0xc0);
        else if (b === 0xdd) this.frame.push(0xdb);
        else this.frame = undefined; // a bad escape drops the frame
      } else if (b === 0xdb) this.escaped = true;
      else this.frame.push(b);
    }
  }

  private reply(op: number, value: number, data: number[] = [], status: [number, number] = [0, 0]): void {
    const body = [...data, ...status];
    if (this.options.noise) this.pty.write(new Uint8Array([0xc0, 0xc0])); // empty frames between replies
    this.pty.write(slip(new Uint8Array([0x01, op, body.length & 0xff, body.length >> 8, ...le32(value), ...body])));
  }

  private onPacket(p: Uint8Array): void {
    if (p.length < 8 || p[0] !== 0x00 || (p[2] | (p[3] << 8)) !== p.length - 8) {
      this.badFrames++;
      if (p.length >= 2) this.reply(p[1], 0, [], [1, 5]);
      return;
    }
    const op = p[1];
    const chk = u32(p, 4);
    const d = p.subarray(8);
    this.ops.push(op);
    switch (op) {
      case OP.SYNC:
        for (let i = 0; i < (this.mode === "rom" ? 8 : 1); i++) this.reply(op, this.mode === "rom" ? 0x20120707 : 0);
        return;
      case OP.READ_REG:
        this.reply(op, u32(d, 0) === SPI_W0_REG ? 0x1840c8 : 0);
        return;
      case OP.SECURITY_INFO:
        this.reply(op, 0, [...new Array(12).fill(0), ...le32(this.options.chipId ?? ESP32S3_CHIP_ID), ...le32(0)]);
        return;
      case OP.MEM_DATA:
      case OP.FLASH_DATA:
      case OP.DEFL_DATA: {
        const data = d.subarray(16);
        if (u32(d, 0) !== data.length || checksum(data) !== chk) return this.reply(op, 0, [], [1, 7]);
        if (op === OP.MEM_DATA) this.stubBytes += data.length;
        else if (!this.write || u32(d, 4) >= this.write.blocks) return this.reply(op, 0, [], [1, 8]);
        else if (op === OP.FLASH_DATA)
          this.flash.set(
            data.subarray(0, Math.min(data.length, this.write.size - u32(d, 4) * this.write.blockSize)),
            this.write.offset + u32(d, 4) * this.write.blockSize,
          );
        else {
          this.write.compressed[u32(d, 4)] = Array.from(data);
          if (this.write.compressed.filter(Boolean).length === this.write.blocks) this.inflate();
        }
        this.wroteFlash ||= op !== OP.MEM_DATA;
        this.reply(op, 0);
        return;
      }
      case OP.MEM_END:
        this.reply(op, 0);
        this.mode = "stub";
        this.pty.write(slip(new TextEncoder().encode("OHAI")));
        return;
      case OP.FLASH_BEGIN:
      case OP.DEFL_BEGIN: {
        const [size, blocks, blockSize, offset] = [u32(d, 0), u32(d, 4), u32(d, 8), u32(d, 12)];
        if (offset + size > FLASH_BYTES || blockSize === 0) return this.reply(op, 0, [], [1, 6]);
        this.write = { offset, blockSize, blocks, compressed: [], size };
        if (op === OP.FLASH_BEGIN) this.flash.fill(0xff, offset, offset + size);
        this.reply(op, 0);
        return;
      }
      case OP.MD5: {
        const [addr, size] = [u32(d, 0), u32(d, 4)];
        if (addr + size > FLASH_BYTES) return this.reply(op, 0, [], [1, 6]);
        if (this.options.corruptAt !== undefined && this.options.corruptAt >= addr && this.options.corruptAt < addr + size) {
          this.flash[this.options.corruptAt] ^= 0x01;
          this.options.corruptAt = undefined; // one bad byte, found once
        }
        const md5 = createHash("md5")
          .update(this.flash.subarray(addr, addr + size))
          .digest();
        this.reply(op, 0, this.mode === "rom" ? Array.from(new TextEncoder().encode(md5.toString("hex"))) : Array.from(md5));
        return;
      }
      case OP.ERASE_FLASH:
        this.flash.fill(0xff);
        this.reply(op, 0);
        return;
      case OP.FLASH_END:
      case OP.DEFL_END:
      case OP.MEM_BEGIN:
      case OP.WRITE_REG:
      case OP.SPI_SET_PARAMS:
      case OP.SPI_ATTACH:
      case OP.CHANGE_BAUDRATE:
        this.reply(op, 0);
        return;
      default:
        this.reply(op, 0, [], [1, 5]); // invalid command, as the ROM answers
    }
  }

  private inflate(): void {
    const w = this.write!;
    const plain = inflateSync(Buffer.from(w.compressed.flat()));
    this.flash.set(plain.subarray(0, Math.min(plain.length, FLASH_BYTES - w.offset)), w.offset);
  }

  // After a flash, the "booted app" answers Improv with Halo's own service (lib/net/improv.ts), the code the
  // device runs on its console: the flasher is tested against the real device side, not a copy of it.
  private onImprovBytes(bytes: Uint8Array): void {
    if (this.mode !== "app") {
      // The app boots when an Improv packet arrives after a flash (the flasher resets the board first).
      if (this.improvSeen.push(bytes).length === 0) return;
      const version = readAppVersion(this.flash.subarray(0x10000, 0x10000 + 4096));
      if (!this.wroteFlash || "problem" in version) return; // nothing bootable: silence
      this.mode = "app";
      this.pty.write(new TextEncoder().encode("I (312) halo: booting\r\n")); // a log line among the frames
      this.app = new ImprovService(this.appDevice(version.version), (frame) => this.pty.write(frame));
    }
    void this.app?.receive(bytes);
  }

  private appDevice(version: string): ImprovDevice {
    const url = this.options.url ?? "http://halo.local/";
    return {
      firmwareName: "Halo",
      firmwareVersion: version,
      hardware: "ESP32-S3",
      deviceName: () => "Halo",
      hostname: () => "halo",
      network: () => ({ online: this.wifi !== undefined, wifi: this.wifi !== undefined, urls: [url] }),
      join: async (join) => {
        if (join.ssid === this.options.refuseSsid) return false;
        this.wifi = { ssid: join.ssid, password: join.password };
        return true;
      },
    };
  }
}
