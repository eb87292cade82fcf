// Writes dist/schema.json, the JSON Schema of the router config published as the subpath
// `voxroute/schema.json`, from the freshly built package (run by `npm run build` after tsup).
import { writeFileSync } from 'node:fs';

const { configJsonSchema } = await import(new URL('../dist/index.js', import.meta.url).href);
const file = new URL('../dist/schema.json', import.meta.url);
writeFileSync(file, `${JSON.stringify(configJsonSchema(), null, 2)}\n`);
console.log(`wrote ${file.pathname}`);
