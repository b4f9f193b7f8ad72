import type { Services } from '../shared/context.js';

export const SERVICE_NAME = 'messaging-crm';

export type Health = { status: 'ok' | 'unavailable'; service: string; version: string };

/** Whether the database answers; never throws, so the health check can report a failure. */
export async function checkHealth(services: Services): Promise<Health> {
  const status = await services.prisma.$queryRaw`SELECT 1`.then(
    () => 'ok' as const,
    () => 'unavailable' as const,
  );
  return { status, service: SERVICE_NAME, version: services.version };
}
