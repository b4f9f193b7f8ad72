// The workspace's AI agent: its settings (agentSettings, agentSettingsUpdate; scope `agent`) and the runs it
// made (agentRuns, a conversation's or the workspace's; scope `conversations`, as the transcripts they answer).
import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../builder.js';
import { pageType } from '../shared/page.js';
import { getAgentSettings, updateAgentSettings, type AgentSettingsView } from '../../resolvers/agent/settings.js';
import { listAgentRuns, RUN_STATUSES } from '../../resolvers/agent/runs.js';
import { limitArg } from '../shared/pageLimit.js';
import { oneOf, URI } from '../shared/jsonSchemaHints.js';

const AgentSettings = builder.objectRef<AgentSettingsView>('AgentSettings').implement({
  description: "The workspace's AI agent, which answers conversations whose service_enabled is on.",
  fields: (t) => ({
    kind: t.exposeString('kind', {
      description: 'knowledge (answers with the best passage of the knowledge documents) or llm (an OpenAI-compatible model).',
    }),
    llm_base_url: t.exposeString('llm_base_url', {
      nullable: true,
      ...URI,
      description: 'Base URL of the chat-completions endpoint, e.g. https://api.openai.com/v1.',
    }),
    llm_model: t.exposeString('llm_model', { nullable: true }),
    llm_api_key_set: t.exposeBoolean('llm_api_key_set', { description: 'Whether an API key is stored (sealed; never returned).' }),
    system_prompt: t.exposeString('system_prompt', { nullable: true }),
    temperature: t.exposeFloat('temperature', { nullable: true }),
    max_tokens: t.exposeInt('max_tokens', { nullable: true }),
    greeting: t.exposeString('greeting', { nullable: true, description: "Said once, before the agent's first answer on a conversation." }),
    default_language: t.exposeString('default_language', {
      description: 'ISO 639-1 code: the language of documents and questions in which none can be detected.',
    }),
    knowledge_threshold: t.exposeFloat('knowledge_threshold', {
      description: 'The lowest answer score (0 to 1, docs/api-decisions.md "The AI agent") the knowledge agent answers with.',
    }),
    handoff_keywords: t.exposeStringList('handoff_keywords', { description: 'A message holding one of these words goes to a person.' }),
    max_consecutive_replies: t.exposeInt('max_consecutive_replies', {
      description: 'Hand off rather than send more agent replies in a row.',
    }),
    handoff_user_id: t.exposeID('handoff_user_id', {
      nullable: true,
      description: 'Who takes handed-off conversations; null: active members in turn.',
    }),
    tool_scopes: t.exposeStringList('tool_scopes', { description: "The key scopes the llm agent's tools run under." }),
    daily_model_calls: t.exposeInt('daily_model_calls'),
    daily_tokens: t.exposeInt('daily_tokens'),
    call_timeout_ms: t.exposeInt('call_timeout_ms'),
    max_tool_calls: t.exposeInt('max_tool_calls', { description: 'Tool calls per reply.' }),
    updated_at: t.expose('updated_at', {
      type: 'DateTime',
      nullable: true,
      description: 'When the settings last changed; null while they are the defaults.',
    }),
  }),
});

const AgentRun = builder.prismaObject('AgentRun', {
  description: 'What the AI agent did with one inbound message.',
  fields: (t) => ({
    id: t.exposeID('id'),
    conversation_id: t.exposeID('conversation_id'),
    message_id: t.exposeID('message_id', { description: 'The inbound message that triggered the run.' }),
    status: t.exposeString('status', oneOf(RUN_STATUSES)),
    kind: t.exposeString('kind', { nullable: true, description: 'The kind of agent that ran.' }),
    attempt_count: t.exposeInt('attempt_count'),
    passages: t.expose('passages', {
      type: 'JSON',
      nullable: true,
      description: 'Retrieved passages: [{document_id, title, text, rank}].',
    }),
    tool_calls: t.expose('tool_calls', {
      type: 'JSON',
      nullable: true,
      description: 'Tool calls with their results: [{name, arguments, result}].',
    }),
    answer_source: t.expose('answer_source', {
      type: 'JSON',
      nullable: true,
      description:
        'What the reply was drawn from: {kind: "sentence", document_id, title, sentence_ids, text, score} | ' +
        '{kind: "faq", faq_id, question, score} | {kind: "model", cited: [{document_id, title}]} | ' +
        '{kind: "no_answer" | "language", best_score} (the agent said it had no answer, or which languages it helps in).',
    }),
    explanation: t.exposeString('explanation', {
      nullable: true,
      description: 'Why the agent replied, handed off or skipped as it did, in words.',
    }),
    reply: t.exposeString('reply', { nullable: true }),
    reply_message_id: t.exposeID('reply_message_id', { nullable: true }),
    handoff_reason: t.exposeString('handoff_reason', { nullable: true }),
    error: t.exposeString('error', { nullable: true, description: 'Why the run was skipped or failed, or the hand-off detail.' }),
    model_calls: t.exposeInt('model_calls'),
    prompt_tokens: t.exposeInt('prompt_tokens'),
    completion_tokens: t.exposeInt('completion_tokens'),
    latency_ms: t.exposeInt('latency_ms', { nullable: true }),
    created_at: t.expose('created_at', { type: 'DateTime' }),
    finished_at: t.expose('finished_at', { type: 'DateTime', nullable: true }),
  }),
});

const AgentRunList = pageType('AgentRunList', AgentRun);

builder.queryFields((t) => ({
  agentSettings: t.field({
    type: AgentSettings,
    authScopes: { permission: 'agent' },
    resolve: (_root, _args, ctx) => getAgentSettings(ctx),
  }),
  agentRuns: t.field({
    type: AgentRunList,
    description:
      "The AI agent's runs on a conversation, or without conversation_id on every conversation of the workspace, newest " +
      'first; `status` keeps one status (replied: its replies). `cursor` is the id of the last run seen.',
    authScopes: { permission: 'conversations' },
    args: {
      conversation_id: t.arg.id({ required: false }),
      status: t.arg.string({ required: false, ...oneOf(RUN_STATUSES) }),
      limit: limitArg(t.arg, 20),
      cursor: t.arg.id({ required: false }),
    },
    resolve: (_root, args, ctx, info) =>
      listAgentRuns(
        ctx,
        { ...args, conversation_id: args.conversation_id?.toString(), cursor: args.cursor?.toString() },
        queryFromInfo({ context: ctx, info, path: ['data'] }),
      ),
  }),
}));

builder.mutationFields((t) => ({
  agentSettingsUpdate: t.field({
    type: AgentSettings,
    description: 'Changes the given settings; the others stay. llm_api_key: a string sets it, null removes it.',
    authScopes: { permission: 'agent' },
    args: {
      kind: t.arg.string({ required: false }),
      llm_base_url: t.arg.string({ required: false, ...URI }),
      llm_model: t.arg.string({ required: false }),
      llm_api_key: t.arg.string({ required: false }),
      system_prompt: t.arg.string({ required: false }),
      temperature: t.arg.float({ required: false }),
      max_tokens: t.arg.int({ required: false }),
      greeting: t.arg.string({ required: false }),
      default_language: t.arg.string({ required: false }),
      knowledge_threshold: t.arg.float({ required: false }),
      handoff_keywords: t.arg.stringList({ required: false }),
      max_consecutive_replies: t.arg.int({ required: false }),
      handoff_user_id: t.arg.id({ required: false }),
      tool_scopes: t.arg.stringList({ required: false }),
      daily_model_calls: t.arg.int({ required: false }),
      daily_tokens: t.arg.int({ required: false }),
      call_timeout_ms: t.arg.int({ required: false }),
      max_tool_calls: t.arg.int({ required: false }),
    },
    resolve: (_root, { handoff_user_id, ...args }, ctx) =>
      updateAgentSettings(ctx, { ...args, handoff_user_id: handoff_user_id == null ? handoff_user_id : String(handoff_user_id) }),
  }),
}));
