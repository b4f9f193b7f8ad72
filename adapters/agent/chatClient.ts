// A client of any OpenAI-compatible chat-completions endpoint (OpenAI, Azure OpenAI's v1 API, vLLM, Ollama,
// llama.cpp's server): POST {base_url}/chat/completions with a bearer key, messages, and tools for function
// calling. Sent through the one guarded outbound client (infra/net/outbound.ts), so the saved URL's address is
// judged again at every call, where it connects, and a redirect is an answer, never followed; rather than the
// `openai` package, whose retries and time-outs would hide the ones the agent's settings choose. Each call has
// its own time-out; time-outs, network errors, 429 and 5xx are retried with back-off; anything else (a
// refusal, an answer of the wrong shape) fails at once. Failures say what happened, never an address or port.
import { OutboundError, type OutboundClient } from '../../infra/net/outbound.js';

export type ChatToolCall = { id: string; type: 'function'; function: { name: string; arguments: string } };

export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export type ChatTool = { type: 'function'; function: { name: string; description: string; parameters: Record<string, unknown> } };

export type ChatRequest = {
  messages: ChatMessage[];
  tools?: ChatTool[];
};

export type ChatAnswer = {
  content: string | null;
  toolCalls: ChatToolCall[];
  usage: { promptTokens: number; completionTokens: number };
};

export type ChatEndpoint = {
  baseUrl: string;
  model: string;
  apiKey: string | null;
  temperature: number | null;
  maxTokens: number | null;
  timeoutMs: number;
};

/** The largest answer read from a model endpoint. */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** The model could not be asked (after retries) or answered with something that is not a chat completion. */
export class ModelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelError';
  }
}

export type ChatClientOptions = { retries: number; backoffMs: number };

export const DEFAULT_CHAT_CLIENT_OPTIONS: ChatClientOptions = { retries: 2, backoffMs: 500 };

const RETRIED_STATUSES = new Set([408, 409, 429, 500, 502, 503, 504]);

class RetriableFailure extends Error {}

function completionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
}

type Completion = {
  choices?: { message?: { content?: unknown; tool_calls?: unknown } }[];
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
};

function isToolCall(value: unknown): value is ChatToolCall {
  const call = value as ChatToolCall;
  return typeof call?.id === 'string' && typeof call.function?.name === 'string' && typeof call.function.arguments === 'string';
}

function answerOf(body: Completion): ChatAnswer {
  const message = body.choices?.[0]?.message;
  if (!message) throw new ModelError('The model answered without a choice');
  const toolCalls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  if (!toolCalls.every(isToolCall)) throw new ModelError('The model answered with a malformed tool call');
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? Math.max(0, Math.round(value)) : 0);
  return {
    content: typeof message.content === 'string' ? message.content : null,
    toolCalls: toolCalls.map((call) => ({ ...call, type: 'function' })),
    usage: { promptTokens: count(body.usage?.prompt_tokens), completionTokens: count(body.usage?.completion_tokens) },
  };
}

async function attempt(outbound: OutboundClient, endpoint: ChatEndpoint, request: ChatRequest): Promise<ChatAnswer> {
  let response: Response;
  try {
    response = await outbound.request(completionsUrl(endpoint.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}) },
      body: JSON.stringify({
        model: endpoint.model,
        messages: request.messages,
        ...(request.tools && request.tools.length > 0 ? { tools: request.tools, tool_choice: 'auto' } : {}),
        ...(endpoint.temperature !== null ? { temperature: endpoint.temperature } : {}),
        ...(endpoint.maxTokens !== null ? { max_tokens: endpoint.maxTokens } : {}),
      }),
      timeoutMs: endpoint.timeoutMs,
      maxResponseBytes: MAX_ANSWER_BYTES,
    });
  } catch (error) {
    const reason = error instanceof OutboundError ? error.reason : 'network';
    if (reason === 'refused') throw new ModelError('The model endpoint’s address is not allowed');
    throw new RetriableFailure(
      reason === 'timeout' ? `The model did not answer within ${endpoint.timeoutMs} ms` : 'The model endpoint could not be reached',
    );
  }
  if (!response.ok) {
    const detail = `The model endpoint answered HTTP ${response.status}`;
    await response.body?.cancel();
    if (RETRIED_STATUSES.has(response.status)) throw new RetriableFailure(detail);
    throw new ModelError(detail);
  }
  let body: Completion;
  try {
    body = (await response.json()) as Completion;
  } catch (error) {
    if (error instanceof OutboundError && error.reason === 'timeout') {
      throw new RetriableFailure(`The model did not answer within ${endpoint.timeoutMs} ms`);
    }
    throw new ModelError('The model endpoint answered with something that is not JSON');
  }
  return answerOf(body);
}

export type ChatClient = { complete(request: ChatRequest): Promise<ChatAnswer> };

export function createChatClient(
  outbound: OutboundClient,
  endpoint: ChatEndpoint,
  options: ChatClientOptions = DEFAULT_CHAT_CLIENT_OPTIONS,
): ChatClient {
  return {
    async complete(request) {
      for (let retry = 0; ; retry++) {
        try {
          return await attempt(outbound, endpoint, request);
        } catch (error) {
          if (!(error instanceof RetriableFailure)) throw error;
          if (retry >= options.retries) throw new ModelError(`${error.message} (after ${retry + 1} attempts)`);
          await new Promise((resolve) => setTimeout(resolve, options.backoffMs * 2 ** retry));
        }
      }
    },
  };
}
