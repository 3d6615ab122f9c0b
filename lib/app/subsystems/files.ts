// The SD card's stores: artifacts, downloads (files.fetch), generated images and skill capsules.
import { ArtifactStore } from "../../store/artifact-store";
import { Downloads } from "../../store/downloads";
import { ImageClient } from "../../store/image-client";
import { SkillStore } from "../../store/skills";
import { defineSubsystem } from "../subsystem";

export const FILES = defineSubsystem({
  name: "files",
  ports: ["storage", "clock", "http", "resolver", "settings", "random", "messenger"],
  needs: ["secrets", "baseUrls", "telegram"],
  provides: ["artifacts", "downloads", "images", "skills", "outbox"],
  build(p, { secrets, baseUrls, telegram }) {
    const artifacts = new ArtifactStore(p.storage, p.clock);
    return {
      artifacts,
      downloads: new Downloads(artifacts, { http: p.http, resolver: p.resolver, settings: p.settings, random: p.random, clock: p.clock }),
      images: new ImageClient(p.http, { apiKey: () => secrets.getSecret("openai"), baseUrl: () => baseUrls.openai }),
      skills: new SkillStore(p.storage, p.clock),
      // A host with a messenger of its own delivers there; else files.send goes through Telegram.
      outbox: p.messenger ?? telegram,
    };
  },
});
