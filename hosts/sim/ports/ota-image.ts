// The parts of an ESP-IDF app image the simulator's slots read: the image
// header (magic 0xE9, chip id), the first segment header and the app
// description (esp_app_desc_t: magic 0xABCD5432, version). The simulator
// cannot run an ESP32 image, so it "boots" a slot by reading its version.

export const IMAGE_MAGIC = 0xe9;
export const APP_DESC_MAGIC = 0xabcd5432;
export const ESP32S3_CHIP_ID = 9;
/** Image header (24 bytes) + first segment header (8 bytes). */
export const APP_DESC_OFFSET = 32;
const VERSION_OFFSET = APP_DESC_OFFSET + 16;
const VERSION_BYTES = 32;
const APP_DESC_BYTES = 256;

/** A minimal app image for `version`: header, one segment holding the app description, `payload` filling bytes. */
export function buildAppImage(version: string, payloadBytes = 0, fill: (i: number) => number = (i) => (i * 31 + 7) & 0xff): Uint8Array {
  const segment = APP_DESC_BYTES + payloadBytes;
  const image = new Uint8Array(APP_DESC_OFFSET + segment);
  const view = new DataView(image.buffer);
  image[0] = IMAGE_MAGIC;
  image[1] = 1; // segment count
  image[2] = 2; // SPI mode DIO
  image[3] = 0x4f; // 16 MB, 80 MHz
  view.setUint32(4, 0x40370000, true); // entry address
  view.setUint16(12, ESP32S3_CHIP_ID, true);
  view.setUint32(24, 0x3c000020, true); // segment load address
  view.setUint32(28, segment, true);
  view.setUint32(APP_DESC_OFFSET, APP_DESC_MAGIC, true);
  const v = new TextEncoder().encode(version);
  if (v.length >= VERSION_BYTES) throw new Error("version too long for an app description");
  image.set(v, VERSION_OFFSET);
  image.set(new TextEncoder().encode("halo"), VERSION_OFFSET + VERSION_BYTES);
  for (let i = 0; i < payloadBytes; i++) image[APP_DESC_OFFSET + APP_DESC_BYTES + i] = fill(i);
  return image;
}

/** The version in an app image's description, or one sentence on why the bytes are not an ESP32-S3 app image. */
export function readAppVersion(image: Uint8Array): { version: string } | { problem: string } {
  if (image.length < APP_DESC_OFFSET + APP_DESC_BYTES) return { problem: "the image is shorter than an app header" };
  const view = new DataView(image.buffer, image.byteOffset, image.byteLength);
  if (image[0] !== IMAGE_MAGIC) return { problem: "the image does not start with the ESP image magic byte" };
  if (view.getUint16(12, true) !== ESP32S3_CHIP_ID) return { problem: "the image is not built for the ESP32-S3" };
  if (view.getUint32(APP_DESC_OFFSET, true) !== APP_DESC_MAGIC) return { problem: "the image has no app description" };
  const raw = image.subarray(VERSION_OFFSET, VERSION_OFFSET + VERSION_BYTES);
  const end = raw.indexOf(0);
  return { version: new TextDecoder().decode(end < 0 ? raw : raw.subarray(0, end)) };
}
