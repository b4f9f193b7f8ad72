// Messaging integrations (a business phone number on a provider) as owners and admins manage them in the
// console: the list with what to give the provider (callback URL, verify token), connecting and disconnecting.
// The access token and app secret are sealed at rest and never answered.
import { builder } from '../builder.js';
import {
  connectIntegration,
  disconnectIntegration,
  integrationVerifyToken,
  listIntegrations,
  rotateIntegrationSecret,
  updateIntegrationLimits,
} from '../../resolvers/workspace/integrations.js';
import { MESSAGING_LIMIT_TIER_NAMES } from '../../resolvers/workspace/numberSettings.js';
import {
  LIMIT_SOURCES,
  QUALITY_RATINGS,
  readStandingOnConnect,
  refreshIntegrationStanding,
} from '../../resolvers/workspace/numberStanding.js';
import { oneOf } from '../shared/jsonSchemaHints.js';
import { requireActor } from '../../resolvers/shared/context.js';
import { isProviderName } from '../../adapters/providers/types.js';

const scope = { permission: 'integrations' } as const;

const Integration = builder.prismaObject('Integration', {
  description: 'A business phone number connected on a messaging provider.',
  fields: (t) => ({
    id: t.exposeID('id'),
    provider: t.exposeString('provider', { description: 'whatsapp or sandbox.' }),
    status: t.exposeString('status', { description: 'connected or disconnected.' }),
    phone_number_id: t.exposeString('phone_number_id'),
    business_account_id: t.exposeString('business_account_id'),
    display_phone_number: t.exposeString('display_phone_number', { nullable: true }),
    callback_url: t.string({
      description: "The callback URL to enter in the provider's app settings.",
      select: { provider: true },
      resolve: (integration, _args, ctx) =>
        isProviderName(integration.provider) ? ctx.publicUrls.providerCallback(integration.provider) : '',
    }),
    verify_token: t.string({
      nullable: true,
      description: "The verify token to enter beside the callback URL in the provider's app settings.",
      select: { credentials: true },
      resolve: (integration, _args, ctx) => integrationVerifyToken(ctx, integration),
    }),
    throughput_per_second: t.exposeInt('throughput_per_second', {
      description: "Messages per second the number may send (Meta's default 80); campaigns through it never send faster.",
    }),
    messaging_limit_tier: t.exposeString('messaging_limit_tier', {
      nullable: true,
      ...oneOf(MESSAGING_LIMIT_TIER_NAMES, {
        note: 'the unique recipients campaigns through it may reach per rolling 24 h (TIER_UNLIMITED: no limit); null while not known, which limits nothing',
      }),
    }),
    messaging_limit_tier_source: t.exposeString('messaging_limit_tier_source', {
      nullable: true,
      ...oneOf(LIMIT_SOURCES, {
        note: "where the tier came from: the provider (Meta's webhook or Graph API) or an owner or admin; the latest wins",
      }),
    }),
    messaging_limit_tier_updated_at: t.expose('messaging_limit_tier_updated_at', { type: 'DateTime', nullable: true }),
    throughput_source: t.exposeString('throughput_source', {
      nullable: true,
      ...oneOf(LIMIT_SOURCES, {
        note: "where throughput_per_second came from (Meta's throughput level: STANDARD 80, HIGH 1000); null: the default",
      }),
    }),
    throughput_updated_at: t.expose('throughput_updated_at', { type: 'DateTime', nullable: true }),
    quality_rating: t.exposeString('quality_rating', {
      nullable: true,
      ...oneOf(QUALITY_RATINGS, { note: "the number's quality rating as the provider last told it; null: never told" }),
    }),
    quality_rating_updated_at: t.expose('quality_rating_updated_at', { type: 'DateTime', nullable: true }),
    created_at: t.expose('created_at', { type: 'DateTime' }),
  }),
});

builder.queryField('integrations', (t) =>
  t.prismaField({
    type: [Integration],
    description: "The workspace's integrations, newest first.",
    authScopes: scope,
    resolve: (query, _root, _args, ctx) => listIntegrations(ctx, query),
  }),
);

export const IntegrationSecret = builder.objectRef<{ integration_id: string; app_secret: string }>('IntegrationSecret').implement({
  description: 'An app secret, shown this once: give it to whatever signs the deliveries (the sandbox form does it itself).',
  fields: (t) => ({ integration_id: t.exposeID('integration_id'), app_secret: t.exposeString('app_secret') }),
});

builder.mutationFields((t) => ({
  integrationRotateSecret: t.field({
    type: IntegrationSecret,
    description:
      "A new app secret, answered once: generated for the sandbox; for WhatsApp, the one Meta shows after its reset in the app's settings.",
    authScopes: scope,
    args: { id: t.arg.id({ required: true }), app_secret: t.arg.string({ required: false }) },
    resolve: (_root, args, ctx) =>
      rotateIntegrationSecret(ctx, { workspaceId: requireActor(ctx).workspaceId, id: String(args.id), app_secret: args.app_secret }),
  }),
  integrationCreate: t.prismaField({
    type: Integration,
    description:
      'Connects a WhatsApp Cloud API phone number: its ids from Meta, a system user access token and the app secret (sealed at ' +
      'rest). A verify token is generated when not given; enter it with callback_url in the app’s webhook settings.',
    authScopes: scope,
    args: {
      provider: t.arg.string({ required: false, description: 'whatsapp (default) or sandbox.' }),
      phone_number_id: t.arg.string({ required: true }),
      business_account_id: t.arg.string({ required: true }),
      display_phone_number: t.arg.string({ required: false, description: 'E.164, for people to read.' }),
      access_token: t.arg.string({ required: true }),
      app_secret: t.arg.string({ required: true }),
      verify_token: t.arg.string({ required: false, description: 'At least 8 characters.' }),
    },
    resolve: async (query, _root, args, ctx) => {
      const created = await connectIntegration(ctx, { ...args, provider: args.provider ?? 'whatsapp' });
      await readStandingOnConnect(ctx, created.integration_id);
      return ctx.prisma.integration.findUniqueOrThrow({ ...query, where: { id: created.integration_id } });
    },
  }),
  integrationUpdateLimits: t.prismaField({
    type: Integration,
    description:
      'Sets the limits campaigns keep on this number, as WhatsApp Manager shows them: throughput_per_second (1 to 1000) and messaging_limit_tier.',
    authScopes: scope,
    args: {
      id: t.arg.id({ required: true }),
      throughput_per_second: t.arg.int({ required: false }),
      messaging_limit_tier: t.arg.string({ required: false, ...oneOf(MESSAGING_LIMIT_TIER_NAMES) }),
    },
    resolve: (query, _root, args, ctx) => updateIntegrationLimits(ctx, { ...args, id: String(args.id) }, query),
  }),
  integrationRefreshStanding: t.prismaField({
    type: Integration,
    description:
      "Reads the number's messaging-limit tier, throughput level and quality rating from the provider again; they replace values set by hand.",
    authScopes: scope,
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => refreshIntegrationStanding(ctx, String(args.id), query),
  }),
  integrationDisconnect: t.prismaField({
    type: Integration,
    description: 'Stops using an integration: no sends through it and its callbacks are refused; its conversations stay.',
    authScopes: scope,
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => disconnectIntegration(ctx, String(args.id), query),
  }),
}));
