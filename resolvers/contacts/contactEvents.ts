// Records contact.created and tag.added in the outbox, in the transaction of the change, so that the event exists
// if and only if the contact or its tag does (webhooks and automations read them after commit). A tag already on
// the contact is not added again, and records nothing.
import type { Db } from '../shared/context.js';
import { recordEvent } from '../shared/outbox.js';
import { contactViewSelect } from '../shared/views.js';

/** Records contact.created for a contact written in this transaction: `data: {contact}` (the Customer list item). */
export async function recordContactCreated(tx: Db, workspaceId: string, contactId: string): Promise<void> {
  const contact = await tx.customer.findUniqueOrThrow({ where: { id: contactId }, select: contactViewSelect });
  await recordEvent(tx, { workspaceId, type: 'contact.created', data: { contact } });
}

/** Puts the tag on the contact, recording tag.added (`data: {contact_id, tag: {id, name}}`) when it was not there yet. */
export async function addTagToContact(tx: Db, workspaceId: string, contactId: string, tag: { id: string; name: string }): Promise<void> {
  const { count } = await tx.customerTag.createMany({ data: [{ customer_id: contactId, tag_id: tag.id }], skipDuplicates: true });
  if (count > 0) await recordEvent(tx, { workspaceId, type: 'tag.added', data: { contact_id: contactId, tag } });
}
