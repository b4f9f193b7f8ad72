// Run by `npm run build` (scripts/build.mjs) once the server is built: a new embedded database, migrated, written to
// dist/ (EMBEDDED_TEMPLATE), so that a new DATA_DIR starts as a copy of it instead of creating a database.
import { writeFile } from 'node:fs/promises';
import { EMBEDDED_TEMPLATE, embeddedSnapshot } from '../infra/db/database.js';

await writeFile(EMBEDDED_TEMPLATE, Buffer.from(await (await embeddedSnapshot()).arrayBuffer()));
