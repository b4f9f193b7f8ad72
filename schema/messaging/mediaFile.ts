// A message's media file made ready to stream: the field GET /api/v1/messages/{id}/media runs before it
// streams the bytes from the media store (facades/rest/mediaRoute.ts).
import { builder } from '../builder.js';
import { messageMediaFile, type MessageMediaFile } from '../../resolvers/messaging/media.js';

const MessageMediaFileRef = builder.objectRef<MessageMediaFile>('MessageMediaFile').implement({
  description: "A message's media file, fetched from the provider, checked against its SHA-256 and kept by the service.",
  fields: (t) => ({
    message_id: t.exposeID('message_id'),
    mime_type: t.exposeString('mime_type', { nullable: true }),
    filename: t.exposeString('filename', { nullable: true, description: "A document's file name, as the sender gave it." }),
    size: t.exposeInt('size', { description: 'In bytes.' }),
    sha256: t.exposeString('sha256', { description: "The file's SHA-256, in hex." }),
    file_key: t.exposeString('file_key', {
      description: 'Where the service keeps the file (its SHA-256); GET /api/v1/messages/{id}/media streams it from there.',
    }),
  }),
});

builder.queryFields((t) => ({
  messageMediaFile: t.field({
    type: MessageMediaFileRef,
    description:
      "Fetches a media message's file from the provider (once; later calls find it kept), checks it and describes it. " +
      'GET /api/v1/messages/{id}/media streams its bytes.',
    authScopes: { permission: 'conversations' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => messageMediaFile(ctx, { id: String(args.id) }),
  }),
}));
