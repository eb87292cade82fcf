// Empties dist/ before a build: tsup's configs build at once into it, so none of them cleans
// it (a clean of one could delete another's fresh output).
import { rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

rmSync(resolve(dirname(fileURLToPath(import.meta.url)), '..', 'dist'), { recursive: true, force: true });
