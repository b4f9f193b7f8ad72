// The facades' named operations are their contract with the schema: each must be valid against it, so a
// renamed or removed field fails here rather than in a REST route or an MCP tool.
import { describe, expect, it } from 'vitest';
import { validate } from 'graphql';
import { schema } from '../../schema/index.js';
import { operation, operationNames } from '../../facades/core/operations.js';

describe('named operations (facades/operations/*.graphql)', () => {
  it.each(operationNames())('%s is valid against the schema', (name) => {
    expect(validate(schema, operation(name)).map((error) => error.message)).toEqual([]);
  });
});
