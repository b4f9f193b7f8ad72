// Reading GraphQL answers in tests: the data of a call that must succeed, or the first error of one that
// must fail, with the HTTP status it came with.
import { expect } from 'vitest';
import type { Harness } from './harness.js';

export function graphqlCalls(harness: Harness) {
  return {
    async data<Data = Record<string, any>>(key: string, query: string, variables?: Record<string, unknown>): Promise<Data> {
      const { status, body } = await harness.graphql<Data>(key, query, variables);
      expect(body.errors ?? [], JSON.stringify(body.errors)).toEqual([]);
      expect(status).toBe(200);
      return body.data as Data;
    },
    async error(key: string, query: string, variables?: Record<string, unknown>) {
      const { status, body } = await harness.graphql(key, query, variables);
      const error = body.errors?.[0];
      expect(error, 'the call was expected to fail').toBeDefined();
      return {
        status,
        message: error!.message,
        code: error!.extensions.code,
        details: error!.extensions['details'] as Record<string, string> | undefined,
      };
    },
  };
}
