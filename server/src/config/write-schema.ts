// Regenerates schemas/dynalintrc.schema.json from the rule registry: `npx tsx server/src/config/write-schema.ts`.
// A unit test fails when the shipped file and the registry disagree.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configSchema } from './index';

const out = join(__dirname, '..', '..', '..', 'schemas', 'dynalintrc.schema.json');
writeFileSync(out, JSON.stringify(configSchema(), null, 2) + '\n');
console.log(`wrote ${out}`);
