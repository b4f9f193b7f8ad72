// Reading GraphQL answers in tests: the data of a call that must succeed, or the first error of one that
// must fail, with the HTTP status it came with.
import { expect } from 'vitest';
import type { Harness } from './harness.js';
import { httpStatusOf } from '../../schema/shared/errors.js';
import type { ErrorCode } from '../../resolvers/shared/errors.js';

/** An answer without errors: its root fields (nullable in the schema, see schema/shared/rootNullability.ts) all came back. */
export type Answered<Data> = { [Field in keyof Data]: NonNullable<Data[Field]> };

export function graphqlCalls(harness: Harness) {
  return {
    async data<Data = Record<string, any>>(key: string, query: string, variables?: Record<string, unknown>): Promise<Answered<Data>> {
      const { status, body } = await harness.graphql<Data>(key, query, variables);
      expect(body.errors ?? [], JSON.stringify(body.errors)).toEqual([]);
      expect(status).toBe(200);
      return body.data as Answered<Data>;
    },
    /** The first error of a call that must fail. `status` is the error's own: the HTTP status of the answer when
     * the request was refused as a whole, else the one its code has on REST and MCP (schema/shared/errors.ts), the
     * answer itself being a 200 with data (infra/graphql/partialAnswers.ts), which is checked here. */
    async error(key: string, query: string, variables?: Record<string, unknown>) {
      const { status, body } = await harness.graphql(key, query, variables);
      const error = body.errors?.[0];
      expect(error, 'the call was expected to fail').toBeDefined();
      const code = error!.extensions.code as ErrorCode;
      if (body.data != null) expect(status, 'an answer with data is a 200').toBe(200);
      return {
        status: body.data != null ? httpStatusOf(code) : status,
        message: error!.message,
        code,
        details: error!.extensions['details'] as Record<string, string> | undefined,
      };
    },
  };
}
