// A contact with one of each kind of timeline entry at known times (an hour ago, a minute apart; the note and the
// tag at the same minute, to show how ties are ordered), written straight to the database as the service's own
// paths would have left them, for the timeline's API and browser tests.
import type { PrismaClient } from '../../prisma/generated/prisma/client.js';

const MINUTE = 60_000;

export type ContactStory = {
  contactId: string;
  conversationId: string;
  campaignId: string;
  appointmentId: string;
  noteId: string;
  tagId: string;
  /** The entries' kinds and ids, newest first, as the timeline lists them (a consent change made later goes first). */
  expected: { kind: string; id: string }[];
};

export async function seedContactStory(prisma: PrismaClient, workspaceId: string, name = 'Story Contact'): Promise<ContactStory> {
  const start = Date.now() - 60 * MINUTE;
  const at = (minutes: number) => new Date(start + minutes * MINUTE);
  const suffix = Math.random().toString(36).slice(2, 8);
  const author = await prisma.user.findFirstOrThrow({ where: { company_id: workspaceId }, select: { id: true } });
  const contact = await prisma.customer.create({ data: { company_id: workspaceId, name, phone_number: null } });
  const conversation = await prisma.conversation.create({
    data: { company_id: workspaceId, customer_id: contact.id, provider: 'sandbox', status: 'closed', created_at: at(1), closed_at: at(2) },
  });
  const campaign = await prisma.campaign.create({
    data: {
      company_id: workspaceId,
      name: `Spring offer ${suffix}`,
      template_name: 'spring_offer',
      template_language: 'en_US',
      template_parameters: [],
      status: 'completed',
    },
  });
  await prisma.campaignRecipient.create({
    data: { campaign_id: campaign.id, contact_id: contact.id, company_id: workspaceId, status: 'read', created_at: at(2), sent_at: at(2) },
  });
  const type = await prisma.appointmentType.create({
    data: { company_id: workspaceId, name: `Fitting ${suffix}`, duration_minutes: 30, availability: [] },
  });
  const visit = new Date(Date.now() + 200 * 24 * 60 * MINUTE + Math.floor(Math.random() * 10_000) * MINUTE);
  const appointment = await prisma.appointment.create({
    data: {
      company_id: workspaceId,
      customer_id: contact.id,
      appointment_type_id: type.id,
      start_at: visit,
      end_at: new Date(visit.getTime() + 30 * MINUTE),
      blocked_until: new Date(visit.getTime() + 30 * MINUTE),
      status: 'cancelled',
      created_at: at(3),
    },
  });
  const note = await prisma.note.create({
    data: {
      company_id: workspaceId,
      conversation_id: conversation.id,
      author_user_id: author.id,
      body: 'Prefers mornings',
      created_at: at(4),
    },
  });
  const tag = await prisma.tag.create({ data: { company_id: workspaceId, name: `vip ${suffix}`, color: '#1e88e5' } });
  await prisma.customerTag.create({ data: { customer_id: contact.id, tag_id: tag.id, created_at: at(4) } });
  return {
    contactId: contact.id,
    conversationId: conversation.id,
    campaignId: campaign.id,
    appointmentId: appointment.id,
    noteId: note.id,
    tagId: tag.id,
    expected: [
      { kind: 'note', id: note.id },
      { kind: 'tag', id: tag.id },
      { kind: 'appointment', id: appointment.id },
      { kind: 'campaign', id: campaign.id },
      { kind: 'conversation', id: conversation.id },
    ],
  };
}
