// Campaigns of the caller's workspace: create and edit drafts, list, get, delete. A campaign broadcasts one
// APPROVED template to an audience (the contacts of a tag, a list of contacts, or contacts by tags and fields:
// segment.ts) through one integration;
// its lifecycle is in resolvers/campaigns/lifecycle.ts and its sending in resolvers/campaigns/sending.ts.
// Every answer carries the campaign's progress (its recipients counted by status).
import { z } from 'zod';
import type { Campaign, Prisma } from '../../prisma/generated/prisma/client.js';
import { type Context, type Db, requireActor } from '../shared/context.js';
import { DomainError, notFound } from '../shared/errors.js';
import { connectedIntegration, conversationIntegration } from '../workspace/integrations.js';
import { campaignProgress, type CampaignProgress } from './recipients.js';
import { assertAllowed, CAMPAIGN_STATUSES, MAX_CAMPAIGN_SEND_RATE, type CampaignAction } from './rules.js';
import { campaignMessage, templateOf } from './sender.js';
import { templateInput } from '../messaging/outbound.js';

/** A campaign's template takes the flat parameters list only: header, body and buttons are refused, not dropped. */
const campaignTemplate = templateInput.strict();
import { columnPage } from '../shared/pagination.js';
import { idInput, limit, parseInput, uuid } from '../shared/validation.js';
import { namesSegment, segmentFields, type Condition, type SegmentFields, type TagMatch } from './segment.js';
import { assertSegmentTags } from './audienceTags.js';

export type CampaignView = Campaign & { progress: CampaignProgress };

const MAX_AUDIENCE_CONTACTS = 10_000;
/** How many unknown contact ids an error names. */
const NAMED_UNKNOWN_IDS = 5;

const name = z
  .string({ message: 'is required' })
  .trim()
  .min(1, { message: 'is required' })
  .max(200, { message: 'must be at most 200 characters' });
const sendRate = z
  .number({ message: 'must be an integer' })
  .int({ message: 'must be an integer' })
  .min(1, { message: `must be between 1 and ${MAX_CAMPAIGN_SEND_RATE}` })
  .max(MAX_CAMPAIGN_SEND_RATE, { message: `must be between 1 and ${MAX_CAMPAIGN_SEND_RATE}` });
const contactIds = z
  .array(uuid)
  .min(1, { message: 'must name at least one contact' })
  .max(MAX_AUDIENCE_CONTACTS, { message: `must name at most ${MAX_AUDIENCE_CONTACTS} contacts` })
  .transform((ids) => [...new Set(ids)]);

const editable = {
  template: campaignTemplate,
  integration_id: uuid.nullish(),
  audience_tag_id: uuid.nullish(),
  audience_contact_ids: contactIds.nullish(),
  send_rate_per_minute: sendRate.nullish(),
  ...segmentFields,
};

type Audience = SegmentFields & { audience_tag_id?: string | null; audience_contact_ids?: string[] | null };

/** The kinds of audience an input names: one tag, a list of contacts, or tags and fields. */
const audienceKinds = (input: Audience) =>
  [Boolean(input.audience_tag_id), Boolean(input.audience_contact_ids?.length), namesSegment(input)].filter(Boolean).length;
const oneAudience = (input: Audience) => audienceKinds(input) <= 1;
const ONE_AUDIENCE = {
  message: 'give one audience: audience_tag_id, audience_contact_ids, or audience_tag_ids and audience_conditions',
  path: ['audience_tag_id'],
};
const NO_AUDIENCE = 'give the audience: audience_tag_id, audience_contact_ids, or audience_tag_ids and audience_conditions';

const createInput = z
  .object({ name, ...editable })
  .refine(oneAudience, ONE_AUDIENCE)
  .refine((input) => audienceKinds(input) > 0, { message: NO_AUDIENCE, path: ['audience_tag_id'] });

const updateInput = z
  .object({
    id: uuid,
    name: name.nullish().refine((value) => value !== null, { message: 'is required' }),
    ...editable,
    template: campaignTemplate.nullish().refine((value) => value !== null, { message: 'is required' }),
  })
  .refine(oneAudience, ONE_AUDIENCE);

const listInput = z.object({
  status: z
    .string()
    .pipe(z.enum(CAMPAIGN_STATUSES, { message: `must be one of ${CAMPAIGN_STATUSES.join(', ')}` }))
    .nullish(),
  limit: limit(20),
  cursor: uuid.nullish(),
});

export async function campaignViews(db: Db, campaigns: Campaign[]): Promise<CampaignView[]> {
  const progress = await campaignProgress(
    db,
    campaigns.map((campaign) => campaign.id),
  );
  return campaigns.map((campaign) => ({ ...campaign, progress: progress.get(campaign.id)! }));
}

export async function campaignView(db: Db, campaign: Campaign): Promise<CampaignView> {
  const [view] = await campaignViews(db, [campaign]);
  return view!;
}

/** The campaign of the workspace, or NOT_FOUND (a foreign one included). */
export async function findCampaign(db: Db, workspaceId: string, id: string): Promise<Campaign> {
  const campaign = await db.campaign.findFirst({ where: { id, company_id: workspaceId } });
  if (!campaign) throw notFound('Campaign');
  return campaign;
}

/** Reads and locks the campaign row until commit, so that a status change and the runner's sends serialize. */
export async function lockCampaign(tx: Db, workspaceId: string, id: string, action: CampaignAction): Promise<Campaign> {
  await tx.$queryRaw`SELECT id FROM campaigns WHERE id = ${id}::uuid AND company_id = ${workspaceId}::uuid FOR UPDATE`;
  const campaign = await findCampaign(tx, workspaceId, id);
  assertAllowed(action, campaign.status);
  return campaign;
}

/** The integration a campaign sends through: the one named, else the workspace's newest connected one. */
async function sendingIntegration(ctx: Context, integrationId: string | null | undefined) {
  const { workspaceId } = requireActor(ctx);
  if (!integrationId) return connectedIntegration(ctx.prisma, workspaceId);
  return conversationIntegration(ctx.prisma, workspaceId, integrationId);
}

async function assertAudience(db: Db, workspaceId: string, audience: Audience) {
  await assertSegmentTags(db, workspaceId, audience.audience_tag_ids ?? []);
  if (audience.audience_tag_id) {
    const tag = await db.tag.findFirst({ where: { id: audience.audience_tag_id, company_id: workspaceId }, select: { id: true } });
    if (!tag) throw notFound('Tag');
  }
  const ids = audience.audience_contact_ids ?? [];
  if (ids.length === 0) return;
  const known = await db.customer.findMany({ where: { id: { in: ids }, company_id: workspaceId }, select: { id: true } });
  if (known.length === ids.length) return;
  const found = new Set(known.map((contact) => contact.id));
  const unknown = ids.filter((id) => !found.has(id));
  throw new DomainError('VALIDATION_ERROR', 'Some audience contacts do not exist in this workspace', {
    audience_contact_ids: `names ${unknown.length} contact(s) not in this workspace: ${unknown.slice(0, NAMED_UNKNOWN_IDS).join(', ')}`,
  });
}

export async function createCampaign(ctx: Context, input: z.input<typeof createInput>): Promise<CampaignView> {
  const { workspaceId } = requireActor(ctx);
  const args = parseInput(createInput, input);
  await assertAudience(ctx.prisma, workspaceId, args);
  const integration = await sendingIntegration(ctx, args.integration_id);
  await campaignMessage(ctx, integration, args.template);
  const campaign = await ctx.prisma.campaign.create({
    data: {
      company_id: workspaceId,
      name: args.name,
      template_name: args.template.name,
      template_language: args.template.language,
      template_parameters: args.template.parameters,
      integration_id: integration.id,
      audience_tag_id: args.audience_tag_id ?? null,
      audience_contact_ids: args.audience_contact_ids ?? [],
      audience_tag_ids: args.audience_tag_ids ?? [],
      audience_tag_match: args.audience_tag_match ?? 'any',
      audience_conditions: args.audience_conditions ?? [],
      send_rate_per_minute: args.send_rate_per_minute ?? null,
    },
  });
  return campaignView(ctx.prisma, campaign);
}

type StoredAudience = {
  audience_tag_id: string | null;
  audience_contact_ids: string[];
  audience_tag_ids: string[];
  audience_tag_match: TagMatch;
  audience_conditions: Condition[];
};

const NOBODY: StoredAudience = {
  audience_tag_id: null,
  audience_contact_ids: [],
  audience_tag_ids: [],
  audience_tag_match: 'any',
  audience_conditions: [],
};

/**
 * The audience after an edit: naming one kind replaces the others; of tags and fields, a field given changes
 * and the others stay (null clears one); none left is refused.
 */
function audienceAfter(current: Campaign, edit: Audience): StoredAudience {
  if (edit.audience_tag_id) return { ...NOBODY, audience_tag_id: edit.audience_tag_id };
  if (edit.audience_contact_ids?.length) return { ...NOBODY, audience_contact_ids: edit.audience_contact_ids };
  const segment = {
    audience_tag_ids: edit.audience_tag_ids === undefined ? current.audience_tag_ids : (edit.audience_tag_ids ?? []),
    audience_tag_match:
      edit.audience_tag_match === undefined ? (current.audience_tag_match as TagMatch) : (edit.audience_tag_match ?? 'any'),
    audience_conditions:
      edit.audience_conditions === undefined ? (current.audience_conditions as Condition[]) : (edit.audience_conditions ?? []),
  };
  const after: StoredAudience = namesSegment(edit)
    ? { ...NOBODY, ...segment }
    : {
        audience_tag_id: edit.audience_tag_id === null ? null : current.audience_tag_id,
        audience_contact_ids: edit.audience_contact_ids === null ? [] : current.audience_contact_ids,
        ...segment,
      };
  if (!after.audience_tag_id && after.audience_contact_ids.length === 0 && !namesSegment(after)) {
    throw new DomainError('VALIDATION_ERROR', 'A campaign needs an audience', { audience_tag_id: NO_AUDIENCE });
  }
  return after;
}

/** Edits a draft: omitted fields stay; null clears (the rate falls back to the default, the integration to the newest). */
export async function updateCampaign(ctx: Context, input: z.input<typeof updateInput>): Promise<CampaignView> {
  const { workspaceId } = requireActor(ctx);
  const args = parseInput(updateInput, input);
  const current = await findCampaign(ctx.prisma, workspaceId, args.id);
  assertAllowed('update', current.status);
  await assertAudience(ctx.prisma, workspaceId, args);
  const data: Prisma.CampaignUncheckedUpdateInput = { ...audienceAfter(current, args) };
  if (args.name) data.name = args.name;
  if (args.send_rate_per_minute !== undefined) data.send_rate_per_minute = args.send_rate_per_minute;
  if (args.template || args.integration_id !== undefined) {
    const template = args.template ?? templateOf(current);
    const integration = await sendingIntegration(ctx, args.integration_id === undefined ? current.integration_id : args.integration_id);
    await campaignMessage(ctx, integration, template);
    Object.assign(data, {
      integration_id: integration.id,
      template_name: template.name,
      template_language: template.language,
      template_parameters: template.parameters,
    });
  }
  // Under the row lock, re-checked: an edit cannot land on a campaign that started meanwhile.
  return ctx.prisma.$transaction(async (tx) => {
    await lockCampaign(tx, workspaceId, current.id, 'update');
    return campaignView(tx, await tx.campaign.update({ where: { id: current.id }, data }));
  });
}

export async function getCampaign(ctx: Context, input: { id: string }): Promise<CampaignView> {
  const { workspaceId } = requireActor(ctx);
  const { id } = parseInput(idInput, input);
  return campaignView(ctx.prisma, await findCampaign(ctx.prisma, workspaceId, id));
}

/** Campaigns, newest first; `cursor` is the id of the last campaign seen. */
export async function listCampaigns(ctx: Context, input: z.input<typeof listInput>) {
  const { workspaceId } = requireActor(ctx);
  const args = parseInput(listInput, input);
  const page = await columnPage('id', 'desc', args, ({ after, orderBy, take }) =>
    ctx.prisma.campaign.findMany({
      where: { company_id: workspaceId, ...(args.status ? { status: args.status } : {}), ...after },
      orderBy,
      take,
    }),
  );
  return { ...page, data: await campaignViews(ctx.prisma, page.data) };
}

/** Deletes a draft, completed or cancelled campaign with its recipients; returns it as it was. */
export async function deleteCampaign(ctx: Context, input: { id: string }): Promise<CampaignView> {
  const { workspaceId } = requireActor(ctx);
  const { id } = parseInput(idInput, input);
  return ctx.prisma.$transaction(async (tx) => {
    const campaign = await lockCampaign(tx, workspaceId, id, 'delete');
    const view = await campaignView(tx, campaign);
    await tx.campaign.delete({ where: { id } });
    return view;
  });
}
