import type { EventEmitter } from 'node:events';
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

/** The longest the process waits at exit for its log lines to be written. */
const LOG_DRAIN_TIMEOUT_MS = 2_000;

/** Ends the process once every log line is written, or the output has gone. process.exit while a line is being
 * written hands the lines to pino's exit handler, whose synchronous flush (sonic-boom 4) retries a failed write
 * every 100 ms for ever: with standard output closed (EPIPE) the process would never end. Waiting for the
 * asynchronous writes lets an EPIPE reach pino, which then stops writing. An empty write queues behind the
 * lines in flight, so `drain` means all of them are out. */
export function exitAfterLogs(logger: pino.Logger, code: number): Promise<never> {
  const stream = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as pino.DestinationStream & Partial<EventEmitter>;
  return new Promise<never>(() => {
    const exit = () => process.exit(code);
    if (typeof stream.once !== 'function') return exit();
    stream.once('drain', exit);
    stream.once('error', exit);
    setTimeout(exit, LOG_DRAIN_TIMEOUT_MS);
    stream.write('');
  });
}
