// The web page's assets decoded and served on XS: run with node hosts/xs/run.mjs test/xs/web-assets.xs.ts
import { assetLines } from "../web-ui/assets-lines.ts";

for (const line of assetLines()) print(line);
print("xs-web-assets: done");
