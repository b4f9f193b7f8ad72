// The sandbox's simulated customer message (resolvers/messaging/sandboxInbound.ts): a signed provider delivery made
// up for the workspace's sandbox number, so the inbox can be tried from the console, REST (POST /sandbox/inbound)
// or MCP (sandbox_inbound_send). Needs the messages scope, as a send does.
import { builder } from '../builder.js';
import { sendSandboxInbound } from '../../resolvers/messaging/sandboxInbound.js';

const SandboxInboundResult = builder.objectRef<{ message_id: string; conversation_id: string }>('SandboxInboundResult').implement({
  description: 'The stored inbound message and the conversation it landed in.',
  fields: (t) => ({
    message_id: t.exposeID('message_id'),
    conversation_id: t.exposeID('conversation_id'),
  }),
});

builder.mutationField('sandboxInboundSend', (t) =>
  t.field({
    type: SandboxInboundResult,
    description:
      "Simulates a customer writing to the workspace's sandbox number: a WhatsApp webhook delivery signed with the sandbox's app " +
      'secret, handled as the provider callback handles one (the contact and conversation are found or created, message.received ' +
      'is recorded). NOT_FOUND when the connected integration is not the sandbox.',
    authScopes: { permission: 'messages' },
    args: {
      from: t.arg.string({ required: true, description: "The customer's phone number, E.164." }),
      name: t.arg.string({ required: false, description: 'The profile name WhatsApp would report; default the number.' }),
      text: t.arg.string({ required: true, description: 'What the customer writes (the caption, with an image).' }),
      image: t.arg.boolean({ required: false, description: "Attach the sandbox's sample photo." }),
    },
    resolve: (_root, args, ctx) => sendSandboxInbound(ctx, args),
  }),
);
