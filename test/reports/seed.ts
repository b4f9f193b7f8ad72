// A workspace with a known history for the reports tests, written straight to the database with dates in the
// past. Three weeks, each for one report: response times (10 conversations answered after 1…10 minutes),
// the AI agent, a campaign and its template. Leo is the one member of the team "Front".
import type { Harness } from '../support/harness.js';

export const RESPONSE_WEEK = { from: '2026-10-05T00:00:00.000Z', to: '2026-10-12T00:00:00.000Z' };
export const AGENT_WEEK = { from: '2026-10-12T00:00:00.000Z', to: '2026-10-19T00:00:00.000Z' };
export const CAMPAIGN_WEEK = { from: '2026-10-19T00:00:00.000Z', to: '2026-10-26T00:00:00.000Z' };

const at = (iso: string, plusMinutes = 0) => new Date(new Date(iso).getTime() + plusMinutes * 60_000);

export async function seedReports(h: Harness, name: string) {
  const prisma = h.db.prisma;
  const workspace = await h.workspace(name);
  const company_id = workspace.workspace_id;
  const suffix = company_id.slice(-8);
  const maya = await prisma.user.create({ data: { company_id, name: 'Maya', email: `maya.${suffix}@example.com`, role: 'member' } });
  const leo = await prisma.user.create({ data: { company_id, name: 'Leo', email: `leo.${suffix}@example.com`, role: 'member' } });
  const vip = await prisma.tag.create({ data: { company_id, name: 'vip' } });
  const front = await prisma.team.create({ data: { company_id, name: 'Front', members: { create: { user_id: leo.id } } } });

  async function conversation(options: { created: Date; assignee?: string; provider?: string; closed?: Date; tagged?: boolean }) {
    const customer = await prisma.customer.create({ data: { company_id, name: 'Reports customer' } });
    if (options.tagged) await prisma.customerTag.create({ data: { customer_id: customer.id, tag_id: vip.id } });
    return prisma.conversation.create({
      data: {
        company_id,
        customer_id: customer.id,
        provider: options.provider ?? 'sandbox',
        status: options.closed ? 'closed' : 'active',
        assigned_user_id: options.assignee ?? null,
        created_at: options.created,
        closed_at: options.closed ?? null,
      },
    });
  }
  async function message(conversationId: string, direction: 'inbound' | 'outbound', created: Date, more: Record<string, unknown> = {}) {
    return prisma.message.create({
      data: {
        company_id,
        conversation_id: conversationId,
        direction,
        status: direction === 'inbound' ? 'received' : 'delivered',
        sender_type: direction === 'inbound' ? 'contact' : 'user',
        body: direction === 'inbound' ? 'Hello?' : 'Hi!',
        created_at: created,
        ...more,
      },
    });
  }

  // Response week: conversation i (1…10) opens at 09:00 + i hours on Monday, the contact writes at once and gets
  // the first reply i minutes later (a second reply follows, which changes nothing). 1–5 are Maya's (she replies),
  // 6–10 Leo's; 1–4 close i hours after opening; 1–3 belong to vip contacts; 10 is a WhatsApp conversation.
  for (let i = 1; i <= 10; i++) {
    const created = at(RESPONSE_WEEK.from, 9 * 60 + i * 60);
    const person = i <= 5 ? maya : leo;
    const opened = await conversation({
      created,
      assignee: person.id,
      provider: i === 10 ? 'whatsapp' : 'sandbox',
      closed: i <= 4 ? at(created.toISOString(), i * 60) : undefined,
      tagged: i <= 3,
    });
    await message(opened.id, 'inbound', created);
    await message(opened.id, 'outbound', at(created.toISOString(), i), { sender_id: person.id });
    await message(opened.id, 'outbound', at(created.toISOString(), i + 30), { sender_id: person.id });
  }

  // Agent week: A answered by the agent alone and closed; B handed off (no_answer), answered by Maya, closed;
  // C handed off (customer_asked), not answered; D never reached the agent.
  const monday = AGENT_WEEK.from;
  const runFor = async (conversationId: string, inboundId: string, status: string, handoff_reason: string | null, created: Date) =>
    prisma.agentRun.create({
      data: { company_id, conversation_id: conversationId, message_id: inboundId, status, handoff_reason, created_at: created },
    });
  const a = await conversation({ created: at(monday, 60), closed: at(monday, 120) });
  const aIn = await message(a.id, 'inbound', at(monday, 60));
  await message(a.id, 'outbound', at(monday, 61), { sender_type: 'agent' });
  await runFor(a.id, aIn.id, 'replied', null, at(monday, 60));
  const b = await conversation({ created: at(monday, 180), closed: at(monday, 300) });
  const bIn = await message(b.id, 'inbound', at(monday, 180));
  await message(b.id, 'outbound', at(monday, 200), { sender_id: maya.id });
  await runFor(b.id, bIn.id, 'handed_off', 'no_answer', at(monday, 180));
  const c = await conversation({ created: at(monday, 400) });
  const cIn = await message(c.id, 'inbound', at(monday, 400));
  await runFor(c.id, cIn.id, 'handed_off', 'customer_asked', at(monday, 400));
  const d = await conversation({ created: at(monday, 500) });
  await message(d.id, 'inbound', at(monday, 500));

  // Campaign week: four recipients of "Autumn sale" (template promo/en) sent Monday 10:00: A read, wrote back an
  // hour later and opted out after two hours, B delivered, wrote back after 30 hours and opted out after 25 hours,
  // C and D failed with 131026 before being sent. A's and B's sends were priced, A's billable.
  const sentAt = at(CAMPAIGN_WEEK.from, 600);
  const campaign = await prisma.campaign.create({
    data: {
      company_id,
      name: 'Autumn sale',
      template_name: 'promo',
      template_language: 'en',
      template_parameters: [],
      status: 'completed',
    },
  });
  const recipients = [
    { status: 'read', replyAfterMinutes: 60, optOutAfterMinutes: 120, billable: true },
    { status: 'delivered', replyAfterMinutes: 30 * 60, optOutAfterMinutes: 25 * 60, billable: false },
    { status: 'failed', replyAfterMinutes: null, optOutAfterMinutes: null, billable: null },
    { status: 'failed', replyAfterMinutes: null, optOutAfterMinutes: null, billable: null },
  ];
  for (const recipient of recipients) {
    const opened = await conversation({ created: sentAt });
    const failed = recipient.status === 'failed';
    const sent = await message(opened.id, 'outbound', sentAt, {
      sender_type: 'campaign',
      status: recipient.status,
      template_name: 'promo',
      template_language: 'en',
      error_code: failed ? '131026' : null,
      pricing: recipient.billable === null ? undefined : { category: 'marketing', billable: recipient.billable },
    });
    if (recipient.replyAfterMinutes !== null) await message(opened.id, 'inbound', at(sentAt.toISOString(), recipient.replyAfterMinutes));
    if (recipient.optOutAfterMinutes !== null) {
      await prisma.consentChange.create({
        data: {
          company_id,
          contact_id: opened.customer_id,
          status: 'opted_out',
          previous_status: 'unknown',
          source: 'keyword',
          created_at: at(sentAt.toISOString(), recipient.optOutAfterMinutes),
        },
      });
    }
    await prisma.campaignRecipient.create({
      data: {
        campaign_id: campaign.id,
        contact_id: opened.customer_id,
        company_id,
        status: recipient.status,
        message_id: sent.id,
        error_code: failed ? '131026' : null,
        sent_at: failed ? null : sentAt,
        delivered_at: failed ? null : sentAt,
        read_at: recipient.status === 'read' ? sentAt : null,
        failed_at: failed ? sentAt : null,
      },
    });
  }
  return { workspace, maya, leo, vip, front, campaign };
}
