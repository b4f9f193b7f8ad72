// A conversation as the text an AI assistant reads (the resource crm://conversations/{id}): who it is with, its
// status, whether the 24-hour messaging window is open (outside it only an approved template may be sent), and
// its latest messages oldest first, newest last, one line each.

export type Transcript = {
  id: string;
  status: string;
  customer: { id: string; name: string; phone_number: string | null } | null;
  messaging_window: { open: boolean; closes_at: string | null };
  messages: {
    data: {
      direction: string;
      type: string;
      body: string | null;
      created_at: string;
      sender: { type: string } | null;
      template: { name: string } | null;
    }[];
    has_more: boolean;
  };
};

export function windowLine(window: Transcript['messaging_window']): string {
  if (window.open) return `Messaging window: open until ${window.closes_at} (free text may be sent).`;
  if (window.closes_at) return `Messaging window: closed since ${window.closes_at} (only an approved template may be sent).`;
  return 'Messaging window: closed, the contact has never written (only an approved template may be sent).';
}

function messageLine(message: Transcript['messages']['data'][number]): string {
  const who = message.direction === 'inbound' ? 'contact' : (message.sender?.type ?? 'business');
  const content = message.template ? `[template ${message.template.name}]` : (message.body ?? `[${message.type}]`);
  return `[${message.created_at}] ${who}: ${content}`;
}

export function transcriptText(conversation: Transcript): string {
  const contact = conversation.customer;
  const messages = [...conversation.messages.data].reverse();
  return [
    `Conversation ${conversation.id} with ${contact ? `${contact.name}${contact.phone_number ? ` (${contact.phone_number})` : ''}` : 'an unknown contact'}, status ${conversation.status}.`,
    windowLine(conversation.messaging_window),
    conversation.messages.has_more ? `The latest ${messages.length} messages, newest last:` : `Messages, newest last:`,
    ...messages.map(messageLine),
  ].join('\n');
}
