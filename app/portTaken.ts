// A port another process already holds is a setting to change, not a crash: one JSON log line that names the setting,
// the port and this process, then the orderly stop (the database closes, so an embedded one is left as a clean stop
// leaves it) and exit 1, instead of Node's EADDRINUSE stack trace. Other listen failures stay errors.
import type { Logger } from 'pino';
import type { StopProcess } from '../infra/shutdown.js';

export async function listenedOrExit<T>(
  listening: Promise<T>,
  stopping: { logger: Logger; stop: StopProcess },
  where: { setting: 'PORT' | 'METRICS_PORT'; port: number; host: string; process: string },
): Promise<T> {
  const { logger } = stopping;
  try {
    return await listening;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    logger.fatal(
      { setting: where.setting, port: where.port, host: where.host, process: where.process, code: 'EADDRINUSE' },
      `${where.setting} ${where.port} on ${where.host} is already in use by another process: ${where.process} cannot start. ` +
        `Stop that process or set ${where.setting} to a free port.`,
    );
    return stopping.stop(1);
  }
}
