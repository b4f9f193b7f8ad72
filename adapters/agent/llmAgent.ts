// The `llm` agent: asks an OpenAI-compatible model (adapters/agent/chatClient.ts) with the conversation's recent
// messages, the contact's fields and tags and the knowledge passages retrieved for the question, and lets it call
// the tools of adapters/agent/tools.ts. Limits: at most `maxToolCalls` tool calls per reply (after that the model
// is asked once more without tools), at most `maxModelCalls` model calls (the workspace's remaining daily
// budget). The model's hand_off call, a failure after the client's retries, or an empty answer hand off.
// The model sees the same retrieval as the knowledge agent (the best FAQ and passages, numbered, with their
// sources) and must cite the passage it answers from as [n]: a reply that cites none (and used no tool, whose
// result is then its source) is not sent; the agent says it has no answer instead (adapters/agent/missed.ts).
import { ModelError, type ChatClient, type ChatMessage } from './chatClient.js';
import { missed } from './missed.js';
import { languageName, phrasesFor } from './phrases.js';
import { AGENT_TOOLS } from './tools.js';
import type { AgentDecision, AgentInput, AgentUsage, ConversationAgent, ToolCallRecord } from './types.js';

export type LlmAgentOptions = {
  client: ChatClient;
  systemPrompt: string | null;
  maxToolCalls: number;
  /** Model calls this reply may make (the workspace's remaining daily budget, at most maxToolCalls + 1). */
  maxModelCalls: number;
  /** Tokens left in the workspace's daily budget. */
  tokensLeft: number;
  /** Runs a tool (never hand_off) and returns its JSON result, or {error} for a refusal the model may read. */
  runTool(name: string, args: Record<string, unknown>): Promise<unknown>;
};

const DEFAULT_PROMPT =
  'You are the customer service assistant of this business, answering on WhatsApp. Answer briefly and only from ' +
  'the knowledge passages and what the tools return. If you cannot answer, call hand_off.';

const CITING = 'Cite the passage your answer comes from as [n] (its number below); an answer that cites no passage is not sent.';

type Source = { title: string; text: string; document_id: string | null };

/** The FAQ (when one matches) and the passages, numbered from 1 as the model cites them. */
function sourcesOf(input: AgentInput): Source[] {
  const faq = input.knowledge.faq;
  return [
    ...(faq ? [{ title: `FAQ: ${faq.question}`, text: faq.answer, document_id: null }] : []),
    ...input.passages.map((passage) => ({ title: passage.title, text: passage.text, document_id: passage.document_id })),
  ];
}

function systemMessage(options: LlmAgentOptions, input: AgentInput, sources: Source[]): ChatMessage {
  const passages = sources.map((source, index) => `[${index + 1}] ${source.title}: ${source.text}`).join('\n');
  const contact = JSON.stringify(input.contact);
  return {
    role: 'system',
    content: [
      options.systemPrompt ?? DEFAULT_PROMPT,
      CITING,
      `Reply in ${languageName(input.knowledge.language)} (the contact's language).`,
      `The contact: ${contact}`,
      passages ? `Knowledge passages:\n${passages}` : 'No knowledge passage matches the question.',
      input.greeting ? `Begin your first answer with this greeting: ${input.greeting}` : '',
    ]
      .filter(Boolean)
      .join('\n\n'),
  };
}

function history(input: AgentInput): ChatMessage[] {
  return input.recent.map((turn) =>
    turn.from === 'contact' ? { role: 'user', content: turn.body } : { role: 'assistant', content: turn.body },
  );
}

function parseArguments(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text || '{}');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const CITATION = /\s*\[(\d+)\]/g;

/** The passages the reply cites that exist, and the reply without its [n] marks. */
function citationsOf(text: string, sources: Source[]): { cited: Source[]; text: string } {
  const cited = [...text.matchAll(CITATION)].map((match) => sources[Number(match[1]) - 1]).filter((source) => source !== undefined);
  return { cited: [...new Set(cited)], text: text.replace(CITATION, '').trim() };
}

export function llmAgent(options: LlmAgentOptions): ConversationAgent {
  return {
    async decide(input) {
      const sources = sourcesOf(input);
      const messages: ChatMessage[] = [systemMessage(options, input, sources), ...history(input)];
      const toolCalls: ToolCallRecord[] = [];
      const usage: AgentUsage = { modelCalls: 0, promptTokens: 0, completionTokens: 0 };
      const decided = (decision: {
        kind: 'handoff';
        reason: 'no_confident_answer' | 'model_failure' | 'budget' | 'model_request';
        detail: string;
      }): AgentDecision => ({
        ...decision,
        toolCalls,
        usage,
      });

      for (;;) {
        if (usage.modelCalls >= options.maxModelCalls || usage.promptTokens + usage.completionTokens >= options.tokensLeft) {
          return decided({ kind: 'handoff', reason: 'budget', detail: "the workspace's daily model budget is used up" });
        }
        const toolsLeft = toolCalls.length < options.maxToolCalls;
        let answer;
        try {
          answer = await options.client.complete({ messages, tools: toolsLeft ? [...AGENT_TOOLS] : [] });
        } catch (error) {
          if (!(error instanceof ModelError)) throw error;
          return decided({ kind: 'handoff', reason: 'model_failure', detail: error.message });
        }
        usage.modelCalls += 1;
        usage.promptTokens += answer.usage.promptTokens;
        usage.completionTokens += answer.usage.completionTokens;

        if (answer.toolCalls.length === 0) {
          const text = answer.content?.trim();
          if (!text) return decided({ kind: 'handoff', reason: 'no_confident_answer', detail: 'the model gave no answer' });
          return cited(input, sources, text, toolCalls, usage);
        }
        messages.push({ role: 'assistant', content: answer.content, tool_calls: answer.toolCalls });
        for (const call of answer.toolCalls) {
          const args = parseArguments(call.function.arguments);
          if (call.function.name === 'hand_off') {
            toolCalls.push({ name: 'hand_off', arguments: args, result: { handed_off: true } });
            const reason = typeof args?.['reason'] === 'string' ? args['reason'] : 'the model asked for a person';
            return decided({ kind: 'handoff', reason: 'model_request', detail: reason });
          }
          let result: unknown;
          if (toolCalls.length >= options.maxToolCalls)
            result = { error: 'The tool-call limit of this reply is reached; answer without tools.' };
          else if (!args) result = { error: 'The arguments are not a JSON object.' };
          else result = await options.runTool(call.function.name, args);
          toolCalls.push({ name: call.function.name, arguments: args, result });
          messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) });
        }
      }
    },
  };
}

/** The model's reply with its sources named, or a miss when it cites no passage and no tool gave it its facts. */
function cited(input: AgentInput, sources: Source[], reply: string, toolCalls: ToolCallRecord[], usage: AgentUsage): AgentDecision {
  const { cited: used, text } = citationsOf(reply, sources);
  if (used.length === 0 && toolCalls.length === 0) {
    const clipped = reply.length > 120 ? `${reply.slice(0, 119)}…` : reply;
    return missed(input, `the model's reply cites no passage, so it was not sent ("${clipped}")`, null, usage, toolCalls);
  }
  const titles = [...new Set(used.map((source) => source.title))];
  const sourceLine = titles.length > 0 ? `\n\n${phrasesFor(input.knowledge.language).source}: ${titles.join('; ')}` : '';
  return {
    kind: 'reply',
    text: `${text}${sourceLine}`,
    source: { kind: 'model', cited: used.map((source) => ({ document_id: source.document_id, title: source.title })) },
    explanation:
      used.length > 0
        ? `the model answered citing ${titles.map((title) => `"${title}"`).join(', ')}`
        : `the model answered from its tool results (${toolCalls.map((call) => call.name).join(', ')})`,
    toolCalls,
    usage,
  };
}
