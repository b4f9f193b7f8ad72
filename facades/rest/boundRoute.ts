// What the REST facade makes of each route of the facade table at start-up (facade.ts `restSurface`), read by the
// router (adapter.ts), the input reader (input.ts) and the OpenAPI document (openapi.ts), so they agree.
import type { PreparedOperation } from '../core/operations.js';
import type { RestRoute } from '../core/table.js';
import type { FileAnswer } from './fileAnswer.js';
import type { GuideSource } from './guideForm.js';

export const REST_BASE_PATH = '/api/v1';

/** A deprecated alias's RFC 9745 Deprecation and RFC 8594 Sunset headers, and the successor its Link names. */
export type Deprecation = { headers: Record<string, string>; successor: string };

export type BoundRoute = {
  route: RestRoute;
  operation: PreparedOperation;
  pathParameters: string[];
  guide: GuideSource | null;
  deprecation: Deprecation | null;
  /** How a file route answers and is documented; null for a route answering its operation's JSON. */
  file: FileAnswer | null;
};

/** The bound routes, and the operation GET /health runs, which the OpenAPI document describes beside them. */
export type RestSurface = { routes: BoundRoute[]; health: PreparedOperation };
