// The `limit` argument of every paged or ranked list, with its bounds and default declared once
// (schema/shared/jsonSchemaHints.ts): the GraphQL description, the check and the JSON Schemas all come from them.
import type { ArgBuilder } from '@pothos/core';
import type { builder } from '../builder.js';
import { bounded } from './jsonSchemaHints.js';

type Types = typeof builder.$inferSchemaTypes;

export function limitArg(t: ArgBuilder<Types>, defaultValue: number, maximum = 100) {
  return t.int({ required: false, description: `1 to ${maximum}, default ${defaultValue}.`, ...bounded(1, maximum, defaultValue) });
}
