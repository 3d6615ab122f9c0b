// The turn-only file tools: files.send (through the messenger port) and
// image.generate (an OpenAI-compatible images endpoint). Both block for long
// or act outside the device, so they run only inside a conversation turn.
import { HaloError } from "../errors";
import type { Clock, Messenger } from "../ports";
import type { Principal } from "../registry/principal";
import { defineTool } from "../registry/define";
import type { ToolResult } from "../registry/types";
import { mimeOf, nameProblem } from "../store/artifact-names";
import type { ArtifactStore } from "../store/artifact-store";
import { DEFAULT_IMAGE_MODEL, IMAGE_TIMEOUT_MS, type ImageClient } from "../store/image-client";
import { boundedBy } from "../util/abort";
import { clipForMessage } from "../util/text";
import { NAME_ARG, PROJECT_ARG } from "./files";

export const IMAGE_PROMPT_MAX_CHARS = 4000;
export const IMAGE_STEM_MAX_CHARS = 60;
export const IMAGE_SIZES = ["1024x1024", "1024x1536", "1536x1024", "auto"];
export const IMAGE_QUALITIES = ["low", "medium", "high"];
/** Default names that already exist get -2, -3, ... up to this. */
const MAX_NAME_SUFFIX = 50;

/** What files.send uses: the artifact store and where files go (the host's messenger, else the Telegram channel). */
export interface SendToolDeps {
  artifacts: ArtifactStore;
  outbox: Messenger | undefined;
}

export const filesSend = defineTool({
  name: "files.send",
  turnOnly: true,
  needs: ["artifacts", "outbox"],
  effect: "act",
  openWorld: true,
  description:
    "Send a stored file to the owner on Telegram - images go as an inline photo, other files as a document. Reports not-configured until the Telegram messenger is set up.",
  inputSchema: {
    type: "object",
    properties: {
      project: PROJECT_ARG,
      name: NAME_ARG,
      chat_id: {
        type: "string",
        minLength: 1,
        maxLength: 64,
        pattern: "^(-?[0-9]{1,20}|@[A-Za-z0-9_]{5,32})$",
        description: "owner only: another chat than the owner's",
      },
    },
    required: ["project", "name"],
    additionalProperties: false,
  },
  handler: async (args, ctx, { artifacts, outbox }: SendToolDeps): Promise<ToolResult> => {
    const chatId = args.chat_id;
    if (chatId !== undefined && ctx.principal.role !== "admin") {
      throw new HaloError("admin-only", "only the owner may choose chat_id; leave it out to send to the owner.");
    }
    if (!outbox) {
      throw new HaloError("not-configured", "files.send needs the Telegram messenger, which is not configured on this device yet.");
    }
    const { record, bytes } = artifacts.readBytes(ctx.principal, args.project, args.name);
    const file = { name: record.name, mime: mimeOf(record.name), bytes, caption: `${record.project}/${record.name}` };
    try {
      if (record.kind === "image") await outbox.sendPhoto(file, chatId);
      else await outbox.sendDocument(file, chatId);
    } catch (e) {
      throw new HaloError("send-failed", clipForMessage(e instanceof Error ? e.message : "the messenger failed", 120));
    }
    return {
      text: `Sent ${record.project}/${record.name} (${bytes.length} bytes) as ${record.kind === "image" ? "a photo" : "a document"}.`,
    };
  },
});

/** What image.generate uses: the images endpoint, the store it saves to, and the time for default names. */
export interface ImageToolDeps {
  artifacts: ArtifactStore;
  images: ImageClient;
  clock: Clock;
}

export const imageGenerate = defineTool({
  name: "image.generate",
  turnOnly: true,
  needs: ["artifacts", "images", "clock"],
  effect: "write",
  openWorld: true,
  description: "Generate an image from a text prompt and save it as a PNG in the durable store; returns the saved project/name.",
  inputSchema: {
    type: "object",
    properties: {
      prompt: { type: "string", minLength: 1, maxLength: IMAGE_PROMPT_MAX_CHARS },
      project: { ...PROJECT_ARG, description: "project folder, default images" },
      name: {
        type: "string",
        minLength: 1,
        maxLength: IMAGE_STEM_MAX_CHARS,
        description: "file name stem (.png is added); default image-<date>-<time>",
      },
      size: { type: "string", enum: IMAGE_SIZES, description: "default 1024x1024" },
      quality: { type: "string", enum: IMAGE_QUALITIES, description: "default low (fast, small, cheap)" },
      model: {
        type: "string",
        minLength: 1,
        maxLength: 40,
        pattern: "^[a-z0-9][a-z0-9._-]*$",
        description: `default ${DEFAULT_IMAGE_MODEL}`,
      },
      describe: {
        type: "boolean",
        description: "also read the image back with a vision model and return a short description (a second provider call); default false",
      },
    },
    required: ["prompt"],
    additionalProperties: false,
  },
  handler: async (args, ctx, { artifacts, images, clock }: ImageToolDeps): Promise<ToolResult> => {
    const p = ctx.principal;
    if (p.role === "guest") throw new HaloError("guest-refused", "guests cannot generate images (it spends the owner's provider credit).");
    if (!images.configured()) {
      throw new HaloError("not-configured", "image.generate needs an OpenAI API key, which the owner sets through the owner API.");
    }
    const project = args.project ?? "images";
    const name = pickName(artifacts, p, project, args.name, clock.now());
    const png = await images.generate(
      {
        prompt: args.prompt,
        model: args.model ?? DEFAULT_IMAGE_MODEL,
        size: args.size ?? "1024x1024",
        quality: args.quality ?? "low",
      },
      boundedBy(IMAGE_TIMEOUT_MS, ctx, clock.now()),
    );
    const { record } = artifacts.save(p, project, name, png, { note: args.prompt });
    const saved = `Saved the image as ${record.project}/${record.name} (${record.size} bytes). Deliver it with files.send.`;
    if (args.describe !== true) return { text: saved };
    // The image is saved and paid for: a failed read-back is reported beside it, never instead of it.
    try {
      const description = await images.describe(png, boundedBy(IMAGE_TIMEOUT_MS, ctx, clock.now()));
      return { text: `${saved}\nDescription: ${description}` };
    } catch (e) {
      const why = e instanceof HaloError ? e.message : "provider-error: the describe request failed.";
      return { text: `${saved}\nNo description: ${why}` };
    }
  },
});

/** files.send and image.generate: turn-only, since both act outside the device. */
export const DELIVERY_TOOLS = [filesSend, imageGenerate] as const;

/**
 * The file name for a generated image: the caller's stem + .png (their own
 * file of that name is replaced), or a dated default that never replaces.
 * Checked before the provider is paid, so a bad name costs nothing.
 */
function pickName(store: ArtifactStore, p: Principal, project: string, stem: string | undefined, now: number): string {
  if (stem !== undefined) {
    const name = /\.png$/i.test(stem) ? stem : `${stem}.png`;
    const problem = nameProblem(name, ["png"]);
    if (problem) throw new HaloError("invalid", problem, problem);
    if (!store.canWrite(p, project, name)) {
      throw new HaloError("conflict", `${project}/${name} cannot be written: the name is taken; choose another name.`);
    }
    return name;
  }
  const taken = new Set(store.list(p, project).map((r) => r.name.toLowerCase()));
  const base = `image-${new Date(now).toISOString().slice(0, 19).replace(/[-:]/g, "").replace("T", "-")}`;
  for (let n = 1; n <= MAX_NAME_SUFFIX; n++) {
    const name = n === 1 ? `${base}.png` : `${base}-${n}.png`;
    if (!taken.has(name.toLowerCase()) && store.canWrite(p, project, name)) return name;
  }
  throw new HaloError("conflict", "too many images share this default name; give a name.");
}
