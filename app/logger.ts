import pino from 'pino';

/** Structured JSON logs. API keys, secrets and message bodies are never logged. */
export function createLogger(level: string, destination: pino.DestinationStream = pino.destination(1)) {
  return pino(
    {
      level,
      base: { service: 'messaging-crm' },
      redact: { paths: ['req.headers.authorization', '*.api_key', '*.secret', '*.body'], censor: '[redacted]' },
    },
    destination,
  );
}
