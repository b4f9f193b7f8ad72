// A local fake of an OpenAI-compatible chat-completions server on a real port, so the `llm` agent is tested
// over HTTP as it talks to OpenAI, vLLM, Ollama or llama.cpp: POST /v1/chat/completions with a bearer key,
// answering with a choice (content or tool_calls) and usage. Each test scripts the answers of a model name of
// its own, step by step; a model without script steps echoes the last user message. It records every request.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll } from 'vitest';

export type ChatRequestBody = {
  model: string;
  messages: { role: string; content: string | null; tool_calls?: unknown[]; tool_call_id?: string }[];
  tools?: { function: { name: string } }[];
  temperature?: number;
  max_tokens?: number;
};

/** What a step answers: a chat completion, an HTTP failure, or no answer at all until the client gives up. */
export type Step =
  { content: string } | { toolCalls: { name: string; arguments: Record<string, unknown> }[] } | { status: number } | 'hang';

export type FakeModel = {
  /** The base URL to configure as llm_base_url. */
  url: string;
  apiKey: string;
  /** Queues answers for requests naming `model`; each function step may read the request. */
  script(model: string, steps: (Step | ((request: ChatRequestBody) => Step))[]): void;
  /** The requests received for `model`, in order. */
  requests(model: string): ChatRequestBody[];
  /** Resolves when the next request for `model` arrives. */
  nextRequest(model: string): Promise<ChatRequestBody>;
};

const USAGE = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };

function completion(model: string, step: Exclude<Step, 'hang' | { status: number }>) {
  const message =
    'content' in step
      ? { role: 'assistant', content: step.content }
      : {
          role: 'assistant',
          content: null,
          tool_calls: step.toolCalls.map((call) => ({
            id: `call_${randomUUID()}`,
            type: 'function',
            function: { name: call.name, arguments: JSON.stringify(call.arguments) },
          })),
        };
  return {
    id: `chatcmpl-${randomUUID()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, finish_reason: 'content' in step ? 'stop' : 'tool_calls' }],
    usage: USAGE,
  };
}

async function readJson(request: IncomingMessage): Promise<ChatRequestBody> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequestBody;
}

export async function startFakeModel(): Promise<FakeModel> {
  const apiKey = `sk-test-${randomUUID()}`;
  const scripts = new Map<string, (Step | ((request: ChatRequestBody) => Step))[]>();
  const received = new Map<string, ChatRequestBody[]>();
  const waiters = new Map<string, ((request: ChatRequestBody) => void)[]>();
  const hanging = new Set<ServerResponse>();

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') return send(404, { error: { message: 'not found' } });
    if (request.headers.authorization !== `Bearer ${apiKey}`) return send(401, { error: { message: 'Incorrect API key provided' } });
    const body = await readJson(request);
    received.set(body.model, [...(received.get(body.model) ?? []), body]);
    for (const wake of waiters.get(body.model) ?? []) wake(body);
    waiters.delete(body.model);
    const queued = scripts.get(body.model)?.shift();
    const step = typeof queued === 'function' ? queued(body) : queued;
    if (step === 'hang') {
      hanging.add(response);
      return;
    }
    if (step && 'status' in step) return send(step.status, { error: { message: `scripted failure ${step.status}` } });
    const lastUser = [...body.messages].reverse().find((message) => message.role === 'user');
    return send(200, completion(body.model, step ?? { content: `You said: ${lastUser?.content ?? ''}` }));
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterAll(async () => {
    for (const response of hanging) response.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    apiKey,
    script: (model, steps) => scripts.set(model, [...(scripts.get(model) ?? []), ...steps]),
    requests: (model) => received.get(model) ?? [],
    nextRequest: (model) => new Promise((resolve) => waiters.set(model, [...(waiters.get(model) ?? []), resolve])),
  };
}
