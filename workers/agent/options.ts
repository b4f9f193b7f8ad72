// How the agent workers run, from the AGENT_* settings (README.md lists them).
import type { Settings } from '../../infra/config/settings.js';
import { DEFAULT_CHAT_CLIENT_OPTIONS, type ChatClientOptions } from '../../adapters/agent/chatClient.js';

export type AgentWorkerOptions = {
  pollMs: number;
  /** How long a claimed run stays the worker's; a run whose worker died is taken over after it. */
  leaseMs: number;
  /** Runs one worker works on at once (of different conversations). */
  concurrency: number;
  /** Attempts of a run before it is given up and handed to people. */
  maxAttempts: number;
  /** Back-off before attempt n + 1 is `retryDelayMs * 2^(n-1)`. */
  retryDelayMs: number;
  chat: ChatClientOptions;
  clock: () => Date;
};

export const AGENT_MAX_ATTEMPTS = 3;

export function agentOptionsFrom(settings: Settings): AgentWorkerOptions {
  return {
    pollMs: settings.AGENT_POLL_MS,
    leaseMs: settings.AGENT_LEASE_MS,
    concurrency: settings.AGENT_CONCURRENCY,
    maxAttempts: AGENT_MAX_ATTEMPTS,
    retryDelayMs: 5_000,
    chat: DEFAULT_CHAT_CLIENT_OPTIONS,
    clock: () => new Date(),
  };
}
