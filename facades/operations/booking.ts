// Where the public booking page's operations (booking.graphql) are exposed: key-less REST routes over public
// GraphQL fields (docs/api-decisions.md, "Booking page"); infra/http/pipeline.ts lets them pass without a key and
// the edge counts them per client address. No MCP tools: AI clients have keys and the keyed tools.
import type { FacadeEntry } from '../core/table.js';

export const BOOKING: readonly FacadeEntry[] = [
  {
    operation: 'BookingPageGet',
    rest: [{ operationId: 'getBookingPage', method: 'GET', path: '/public/booking/{public_id}', errors: ['NOT_FOUND'] }],
  },
  {
    operation: 'BookingPageSlots',
    rest: [{ operationId: 'listBookingPageSlots', method: 'GET', path: '/public/booking/{public_id}/slots', errors: ['NOT_FOUND'] }],
  },
  {
    operation: 'BookingPageBook',
    rest: [
      {
        operationId: 'bookOnBookingPage',
        method: 'POST',
        path: '/public/booking/{public_id}/appointments',
        status: 201,
        errors: ['NOT_FOUND', 'CONFLICT'],
      },
    ],
  },
];
