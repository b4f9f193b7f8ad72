// The workspace's AI agent settings (agentSettings, agentSettingsUpdate): which kind answers (`knowledge`, the
// default, or `llm`: any OpenAI-compatible chat-completions endpoint), the hand-off rules and the limits. A
// workspace without a row has the column defaults. The model API key is sealed like the other credentials and
// never returned: the view says only whether one is set.
import { z } from 'zod';
import type { AgentSettings, Prisma } from '../../prisma/generated/prisma/client.js';
import { type Context, type Db, requireActor } from '../shared/context.js';
import { DomainError, invalid } from '../shared/errors.js';
import { parseInput, uuid } from '../shared/validation.js';
import { DEFAULT_LANGUAGE, languageCode } from '../knowledge/language.js';

export const AGENT_KINDS = ['knowledge', 'llm'] as const;
/** The key scopes the llm agent's tools may run under: what its tools (adapters/agent/tools.ts) need. */
export const AGENT_TOOL_SCOPES = ['scheduling', 'customers', 'tags'] as const;

export type AgentSettingsView = Omit<AgentSettings, 'llm_api_key' | 'last_handoff_user_id' | 'created_at' | 'updated_at'> & {
  llm_api_key_set: boolean;
  /** Null while the workspace has never changed its settings (they are the defaults). */
  updated_at: Date | null;
};

const noNul = (text: string) => !text.includes('\u0000');
const text = (max: number) =>
  z
    .string()
    .max(max, { message: `must be at most ${max} characters` })
    .refine(noNul, { message: 'must not contain NUL characters' });
const count = (min: number, max: number) =>
  z
    .number({ message: 'must be an integer' })
    .int({ message: 'must be an integer' })
    .min(min, { message: `must be between ${min} and ${max}` })
    .max(max, { message: `must be between ${min} and ${max}` });

const updateInput = z.object({
  kind: z.enum(AGENT_KINDS, { message: `must be one of ${AGENT_KINDS.join(', ')}` }).optional(),
  llm_base_url: z.url({ protocol: /^https?$/, message: 'must be an http or https URL' }).nullish(),
  llm_model: text(200)
    .pipe(z.string().trim().min(1, { message: 'must not be empty' }))
    .nullish(),
  llm_api_key: text(2000).nullish(),
  system_prompt: text(8000).nullish(),
  temperature: z
    .number({ message: 'must be a number' })
    .min(0, { message: 'must be between 0 and 2' })
    .max(2, { message: 'must be between 0 and 2' })
    .nullish(),
  max_tokens: count(1, 32_000).nullish(),
  greeting: text(1000).nullish(),
  default_language: languageCode.optional(),
  knowledge_threshold: z
    .number({ message: 'must be a number' })
    .min(0, { message: 'must be between 0 and 1' })
    .max(1, { message: 'must be between 0 and 1' })
    .optional(),
  handoff_keywords: z
    .array(text(100).pipe(z.string().trim().min(1, { message: 'must not be empty' })))
    .max(50, { message: 'must have at most 50 keywords' })
    .optional(),
  max_consecutive_replies: count(1, 100).optional(),
  handoff_user_id: uuid.nullish(),
  tool_scopes: z.array(z.enum(AGENT_TOOL_SCOPES, { message: `must be among ${AGENT_TOOL_SCOPES.join(', ')}` })).optional(),
  daily_model_calls: count(0, 1_000_000).optional(),
  daily_tokens: count(0, 1_000_000_000).optional(),
  call_timeout_ms: count(1000, 120_000).optional(),
  max_tool_calls: count(0, 20).optional(),
});

/** The settings row of the workspace, or the defaults when it has none (never written by a read). */
export async function agentSettingsOf(db: Db, workspaceId: string): Promise<AgentSettings> {
  const row = await db.agentSettings.findUnique({ where: { company_id: workspaceId } });
  if (row) return row;
  const now = new Date();
  return {
    company_id: workspaceId,
    kind: 'knowledge',
    llm_base_url: null,
    llm_model: null,
    llm_api_key: null,
    system_prompt: null,
    temperature: null,
    max_tokens: null,
    greeting: null,
    default_language: DEFAULT_LANGUAGE,
    knowledge_threshold: 0.57,
    handoff_keywords: ['human', 'agent', 'person'],
    max_consecutive_replies: 5,
    handoff_user_id: null,
    last_handoff_user_id: null,
    tool_scopes: [...AGENT_TOOL_SCOPES],
    daily_model_calls: 500,
    daily_tokens: 200_000,
    call_timeout_ms: 20_000,
    max_tool_calls: 4,
    created_at: now,
    updated_at: now,
  };
}

function view(settings: AgentSettings, stored: boolean): AgentSettingsView {
  const { llm_api_key, last_handoff_user_id: _cursor, created_at: _created, updated_at, ...shown } = settings;
  return { ...shown, llm_api_key_set: llm_api_key !== null, updated_at: stored ? updated_at : null };
}

export async function getAgentSettings(ctx: Context): Promise<AgentSettingsView> {
  const { workspaceId } = requireActor(ctx);
  const stored = await ctx.prisma.agentSettings.findUnique({ where: { company_id: workspaceId }, select: { company_id: true } });
  return view(await agentSettingsOf(ctx.prisma, workspaceId), stored !== null);
}

/** The model endpoint passes the webhook receivers' SSRF guard (https, public addresses, or a host of
 * WEBHOOK_ALLOWED_HOSTS); such an allowed host may also speak plain http, as local model servers (Ollama,
 * llama.cpp) do. */
async function assertReachableEndpoint(ctx: Context, url: string): Promise<void> {
  const { protocol, hostname } = new URL(url);
  if (protocol === 'http:' && ctx.webhookTargets.allowsHost(hostname)) return;
  const refusal = await ctx.webhookTargets.refusal(url);
  if (refusal) throw invalid({ llm_base_url: refusal });
}

export async function updateAgentSettings(ctx: Context, raw: Record<string, unknown>): Promise<AgentSettingsView> {
  const { workspaceId } = requireActor(ctx);
  const input = parseInput(updateInput, raw);
  if (input.handoff_user_id) {
    const user = await ctx.prisma.user.findFirst({ where: { id: input.handoff_user_id, company_id: workspaceId }, select: { id: true } });
    if (!user) throw invalid({ handoff_user_id: 'must be the id of a user of this workspace' });
  }
  if (input.llm_base_url) await assertReachableEndpoint(ctx, input.llm_base_url);
  const current = await agentSettingsOf(ctx.prisma, workspaceId);
  const merged = { ...current, ...input };
  if (merged.kind === 'llm' && (!merged.llm_base_url || !merged.llm_model)) {
    throw new DomainError('VALIDATION_ERROR', 'The llm agent needs llm_base_url and llm_model', {
      ...(merged.llm_base_url ? {} : { llm_base_url: 'is required when kind is llm' }),
      ...(merged.llm_model ? {} : { llm_model: 'is required when kind is llm' }),
    });
  }
  const { llm_api_key, ...plain } = input;
  const data: Prisma.AgentSettingsUncheckedUpdateInput = {
    ...plain,
    ...(llm_api_key === undefined ? {} : { llm_api_key: llm_api_key ? ctx.secrets.seal(llm_api_key) : null }),
  };
  const saved = await ctx.prisma.agentSettings.upsert({
    where: { company_id: workspaceId },
    create: { ...(data as Prisma.AgentSettingsUncheckedCreateInput), company_id: workspaceId },
    update: data,
  });
  return view(saved, true);
}
