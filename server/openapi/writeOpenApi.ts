import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OPENAPI_FILE, renderOpenApiYaml } from './document.ts';

writeFileSync(OPENAPI_FILE, renderOpenApiYaml());
console.log(`wrote ${fileURLToPath(OPENAPI_FILE)}`);
