// The checked-in schema.graphql and facades/core/operations.generated.ts match the code, and every named
// operation the facades run is valid against the schema: a renamed field fails here, not in production.
import { describe, expect, it } from 'vitest';
import { validate } from 'graphql';
import { generate, staleFiles } from '../../codegen.js';
import { schema } from '../../schema/index.js';
import { operation, operationNames } from '../../facades/core/operations.js';

describe('generated files', () => {
  it('are up to date (run `npm run codegen` when this fails)', async () => {
    expect(staleFiles(await generate())).toEqual([]);
  });

  it('every facade operation validates against the schema', () => {
    const invalid = operationNames().flatMap((name) => validate(schema, operation(name)).map((error) => `${name}: ${error.message}`));
    expect(invalid).toEqual([]);
    expect(operationNames().length).toBeGreaterThan(0);
  });
});
