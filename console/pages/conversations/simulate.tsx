// "Simulate a customer message": the sandbox tried without leaving the console. The service signs a WhatsApp
// delivery for the workspace's sandbox number and handles it as the provider's own (sandboxInboundSend), so the
// message arrives in the inbox live, as a real customer's would. Shown in the inbox and on Settings → Integrations.
import { useState } from 'preact/hooks';
import { gql } from '@urql/core';
import { useMutation } from '@urql/preact';
import { Button, ErrorNote, Field, formValues } from '../../ui.js';

const SIMULATE = gql`
  mutation SandboxInboundSend($from: String!, $name: String, $text: String!, $image: Boolean) {
    sandboxInboundSend(from: $from, name: $name, text: $text, image: $image) {
      message_id
      conversation_id
    }
  }
`;

type Sent = { sandboxInboundSend: { message_id: string; conversation_id: string } };

export function SimulateInbound() {
  const [sending, send] = useMutation<Sent>(SIMULATE);
  const [sent, setSent] = useState<Sent['sandboxInboundSend'] | null>(null);
  return (
    <form
      class="card simulate"
      aria-label="Simulate a customer message"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const values = formValues(form);
        const image = (form.elements.namedItem('image') as HTMLInputElement).checked;
        void send({ from: values['from'], name: values['name'] || null, text: values['text'], image }).then((answer) => {
          if (answer.data) {
            setSent(answer.data.sandboxInboundSend);
            (form.elements.namedItem('text') as HTMLInputElement).value = '';
          }
        });
      }}
    >
      <h2>Simulate a customer message</h2>
      <p class="hint">The sandbox number receives it as WhatsApp would deliver it, signed, through the provider callback.</p>
      <Field label="Customer name" name="name" placeholder="Ana Silva" />
      <Field label="Customer phone" name="from" placeholder="+15551234567" required />
      <Field label="Message" name="text" required />
      <label class="check">
        <input type="checkbox" name="image" /> Attach a sample photo
      </label>
      <ErrorNote error={sending.error} />
      <Button type="submit" busy={sending.fetching}>
        Send as the customer
      </Button>
      {sent ? (
        <p role="status">
          Received: <a href={`/inbox/${sent.conversation_id}`}>open the conversation</a>
        </p>
      ) : null}
    </form>
  );
}
