// MCP prompts: ready-made tasks in the assistant's menu. summarize_conversation and draft_reply embed the
// conversation resource (crm://conversations/{id}, read as the caller through resources.ts); draft_reply
// respects the 24-hour window: when it is closed it asks for one of the approved templates, listed, instead of
// free text. triage_inbox lists the open conversations as resources to read. Reads run through the gateway,
// so a prompt shows the caller nothing its key could not read.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  McpError,
  type GetPromptResult,
  type Prompt,
  type PromptMessage,
} from '@modelcontextprotocol/sdk/types.js';
import type { Gateway } from '../core/gateway.js';
import { conversationUri, readResource, readData } from './resources.js';
import { requestOf } from './toolServer.js';

const CONVERSATION = { name: 'conversation_id', description: 'The conversation (its id).', required: true };

export const PROMPTS: Prompt[] = [
  {
    name: 'summarize_conversation',
    description: 'Summarize a conversation: what the contact wants, what was answered, what is open.',
    arguments: [CONVERSATION],
  },
  {
    name: 'draft_reply',
    description: 'Draft the next reply in a conversation; outside the 24-hour window, propose an approved template instead.',
    arguments: [CONVERSATION, { name: 'instructions', description: 'What the reply should say or achieve.', required: false }],
  },
  {
    name: 'triage_inbox',
    description: 'Triage the open conversations: which need a reply first, and why.',
    arguments: [{ name: 'limit', description: 'How many of the latest open conversations (1 to 50, default 20).', required: false }],
  },
];

const user = (text: string): PromptMessage => ({ role: 'user', content: { type: 'text', text } });

async function embedded(gateway: Gateway, request: Request, conversationId: string) {
  const { contents } = await readResource(gateway, request, conversationUri(conversationId));
  const resource = contents[0] as { uri: string; mimeType: string; text: string };
  return { message: { role: 'user', content: { type: 'resource', resource } } satisfies PromptMessage, text: resource.text };
}

async function approvedTemplates(gateway: Gateway, request: Request): Promise<string> {
  const data = await readData(gateway, request, 'Templates', { status: 'approved' });
  const templates = (data['templates'] as { templates: { name: string; language: string; category: string }[] }).templates;
  if (templates.length === 0) return 'There is no approved template: say so instead of drafting.';
  return `Approved templates (name, language, category):\n${templates.map((t) => `- ${t.name} (${t.language}, ${t.category})`).join('\n')}`;
}

function required(args: Record<string, string> | undefined, name: string): string {
  const value = args?.[name];
  if (!value) throw new McpError(ErrorCode.InvalidParams, `Argument ${name} is required`);
  return value;
}

async function getPrompt(
  gateway: Gateway,
  request: Request,
  name: string,
  args: Record<string, string> | undefined,
): Promise<GetPromptResult> {
  if (name === 'summarize_conversation') {
    const { message } = await embedded(gateway, request, required(args, 'conversation_id'));
    return {
      description: 'Summarize a conversation',
      messages: [
        message,
        user('Summarize this conversation for a colleague: what the contact wants, what was answered, and what is still open.'),
      ],
    };
  }
  if (name === 'draft_reply') {
    const { message, text } = await embedded(gateway, request, required(args, 'conversation_id'));
    const instructions = args?.['instructions'] ? `\nInstructions: ${args['instructions']}` : '';
    // The transcript's window line says whether free text may be sent (facades/mcp/transcript.ts).
    const open = /^Messaging window: open/m.test(text);
    const task = open
      ? `Draft the next reply to the contact in this conversation, in their language, ready to send.${instructions}`
      : `The 24-hour messaging window of this conversation is closed: free text cannot be sent. Propose the approved template that fits best and the values of its parameters.${instructions}\n${await approvedTemplates(gateway, request)}`;
    return { description: open ? 'Draft a reply' : 'Propose a template (the window is closed)', messages: [message, user(task)] };
  }
  if (name === 'triage_inbox') {
    const limit = Math.min(Math.max(Number(args?.['limit'] ?? 20) || 20, 1), 50);
    const data = await readData(gateway, request, 'Conversations', { status: 'open', limit });
    const open = (data['conversations'] as { data: { id: string; last_message_at: string | null; customer: { name: string } | null }[] })
      .data;
    const lines = open.map(
      (c) => `- ${conversationUri(c.id)} with ${c.customer?.name ?? 'a contact'}, last message ${c.last_message_at ?? 'never'}`,
    );
    return {
      description: 'Triage the inbox',
      messages: [
        user(
          open.length === 0
            ? 'There are no open conversations.'
            : `Open conversations (read each resource for its transcript):\n${lines.join('\n')}\n\nTriage them: which need a reply first and why, which can wait, and which can be closed.`,
        ),
      ],
    };
  }
  throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`);
}

export function servePrompts(server: Server, gateway: Gateway): void {
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: PROMPTS }));
  server.setRequestHandler(GetPromptRequestSchema, (get, extra) =>
    getPrompt(gateway, requestOf(extra.authInfo), get.params.name, get.params.arguments),
  );
}
