import pino from 'pino';

/** Structured JSON logs. API keys, secrets and message bodies are never logged. Written asynchronously
 * (lines that arrive while a write is in flight go out together; pino flushes them at exit), so that one
 * log line per request costs no blocking system call on the request path. */
export function createLogger(level: string, destination: pino.DestinationStream = pino.destination({ dest: 1, sync: false })) {
  return pino(
    {
      level,
      base: { service: 'messaging-crm' },
      redact: { paths: ['req.headers.authorization', '*.api_key', '*.secret', '*.body'], censor: '[redacted]' },
    },
    destination,
  );
}

/** Ends the process once every log line is written. process.exit alone would write the lines still queued
 * synchronously, ahead of a write already in flight, so the last lines could come out of order or be lost. */
export function exitAfterLogs(logger: pino.Logger, code: number): Promise<never> {
  return new Promise<never>(() => logger.flush(() => process.exit(code)));
}
