// The one interface every messaging provider adapter implements (sandbox, whatsapp), and the
// provider-neutral shapes that cross it. The shapes follow the WhatsApp Cloud API, which the spec models.

export const PROVIDER_NAMES = ['sandbox', 'whatsapp'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export function isProviderName(value: string): value is ProviderName {
  return (PROVIDER_NAMES as readonly string[]).includes(value);
}

/** What an adapter needs to act for one integration (one business phone number). */
export type ProviderIntegration = {
  id: string;
  workspaceId: string;
  provider: ProviderName;
  phoneNumberId: string;
  businessAccountId: string;
  accessToken: string;
};

export const TEMPLATE_STATUSES = ['APPROVED', 'PENDING', 'REJECTED', 'PAUSED', 'DISABLED'] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];
export const TEMPLATE_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];
export const HEADER_FORMATS = ['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT', 'LOCATION'] as const;
export type HeaderFormat = (typeof HEADER_FORMATS)[number];

export type TemplateButton = { type: string; text: string; phone_number?: string; url?: string; example?: string[] };

export type TemplateComponent =
  | { type: 'HEADER'; format: HeaderFormat; text?: string }
  | { type: 'BODY'; text: string }
  | { type: 'FOOTER'; text: string }
  | { type: 'BUTTONS'; buttons: TemplateButton[] };

/** A message template as the spec's Template resource describes it. */
export type Template = {
  id: string;
  name: string;
  status: TemplateStatus;
  category: TemplateCategory;
  language: string;
  components: TemplateComponent[];
  quality_score?: { score: string; date: number };
  rejected_reason?: string;
  /** Templates written here: how their variables are written, and every status the provider gave them, oldest first. */
  parameter_format?: ParameterFormat;
  status_history?: TemplateStatusChange[];
};

export type TemplateStatusChange = { status: TemplateStatus; reason: string | null; at: string };

export const PARAMETER_FORMATS = ['POSITIONAL', 'NAMED'] as const;
export type ParameterFormat = (typeof PARAMETER_FORMATS)[number];

/** A named variable's sample, as Meta's create request names it. */
export type NamedExample = { param_name: string; example: string };

/** A template component as Meta's create request holds it, with the samples review needs. */
export type DefinitionComponent =
  | {
      type: 'HEADER';
      format: HeaderFormat;
      text?: string;
      example?: { header_text?: string[]; header_text_named_params?: NamedExample[]; header_handle?: string[] };
    }
  | { type: 'BODY'; text: string; example?: { body_text?: string[][]; body_text_named_params?: NamedExample[] } }
  | { type: 'FOOTER'; text: string }
  | { type: 'BUTTONS'; buttons: DefinitionButton[] };

export type DefinitionButton =
  | { type: 'QUICK_REPLY'; text: string }
  | { type: 'URL'; text: string; url: string; example?: string[] }
  | { type: 'PHONE_NUMBER'; text: string; phone_number: string }
  | { type: 'COPY_CODE'; example: string };

/** A template to submit for review (Meta's POST /{WABA_ID}/message_templates body). */
export type TemplateDefinition = {
  name: string;
  language: string;
  category: TemplateCategory;
  parameter_format: ParameterFormat;
  components: DefinitionComponent[];
};

/** What the provider answers a submission: its id for the template and where its review stands. */
export type SubmittedTemplate = {
  id: string;
  status: TemplateStatus;
  category: TemplateCategory;
  /** When the provider's review is decided by a worker here (the sandbox); absent when the provider tells by webhook. */
  reviewDueAt?: Date;
};

export type MediaKind = 'image' | 'video' | 'document';
/** A text value (with its variable's name for a NAMED template), a header media by link or id. */
export type TemplateParameter =
  { type: 'text'; text: string; parameter_name?: string } | { type: MediaKind; link: string } | { type: MediaKind; id: string };
/** The value of a button's variable: a URL suffix, a coupon code, or a quick reply's payload. */
export type ButtonParameter =
  { type: 'text'; text: string } | { type: 'coupon_code'; coupon_code: string } | { type: 'payload'; payload: string };

export type TemplateComponentParameters =
  | { type: 'header' | 'body'; parameters: TemplateParameter[] }
  | { type: 'button'; sub_type: 'url' | 'copy_code' | 'quick_reply'; index: number; parameters: ButtonParameter[] };

/** The kinds of media a message can carry out: WhatsApp's image, video, audio and document messages. */
export const OUTBOUND_MEDIA_TYPES = ['image', 'video', 'audio', 'document'] as const;
export type OutboundMediaType = (typeof OUTBOUND_MEDIA_TYPES)[number];

/** A media message: the file by the provider's media id (uploaded first) or by a public link. */
export type MediaContent = {
  type: OutboundMediaType;
  source: { id: string } | { link: string };
  caption?: string;
  /** A document's file name, shown to the recipient. */
  filename?: string;
};

export type OutboundContent =
  | { type: 'text'; body: string }
  | { type: 'template'; name: string; language: string; components: TemplateComponentParameters[] }
  | { type: 'media'; media: MediaContent };

/**
 * Where a message goes: a phone number (WhatsApp's `to`, the wa_id's digits) or, for a contact whose
 * number is withheld, its business-scoped user id (WhatsApp's `recipient`).
 */
export type Recipient = { kind: 'phone'; id: string } | { kind: 'bsuid'; id: string };

export type OutboundMessage = {
  to: Recipient;
  /** Our message id, echoed back by status callbacks (WhatsApp's biz_opaque_callback_data). */
  reference: string;
  content: OutboundContent;
};

export type SentMessage = { providerMessageId: string };

export const DELIVERY_STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** What the provider charges for a message, as its status reports say (WhatsApp's `pricing` object). */
export type MessagePricing = { billable: boolean | null; category: string; pricing_model: string | null; type: string | null };

/** A delivery report about an outbound message, from a provider webhook or the sandbox's timer. */
export type StatusUpdate = {
  providerMessageId: string;
  status: DeliveryStatus;
  reference: string | null;
  /** Meta's error: its code, title and details. */
  error: { code: string; message: string; details?: string | null } | null;
  /** What the message costs, when the report tells. */
  pricing?: MessagePricing | null;
};

/** A file the provider holds, as it describes it, with its bytes to read once. */
export type MediaFile = { body: ReadableStream<Uint8Array>; mimeType: string | null; sha256: string | null; size: number | null };

/** A file to hand to the provider's media store. */
export type MediaUpload = { filename: string; contentType: string; bytes: Uint8Array<ArrayBuffer> };

/**
 * A business number's standing as the provider tells it, by Meta's names: its messaging-limit tier (TIER_250 …
 * TIER_UNLIMITED), its throughput level (STANDARD or HIGH) and its quality rating (GREEN, YELLOW, RED, UNKNOWN);
 * null where the provider tells nothing.
 */
export type NumberStanding = { messagingLimitTier: string | null; throughputLevel: string | null; qualityRating: string | null };

export interface MessagingProvider {
  /** Hands one message to the provider; resolves once the provider accepted it (status sent). */
  send(message: OutboundMessage): Promise<SentMessage>;
  /** Every template of the integration's business account. */
  listTemplates(): Promise<Template[]>;
  /** Submits a new template for review. */
  createTemplate(definition: TemplateDefinition): Promise<SubmittedTemplate>;
  /** Submits a template's new components (and category) for review again. */
  editTemplate(id: string, change: Pick<TemplateDefinition, 'category' | 'components'>): Promise<{ reviewDueAt?: Date }>;
  /** Deletes a template (by its id and name, as Meta deletes one language of a name). */
  deleteTemplate(template: { id: string; name: string }): Promise<void>;
  /** A media file by the provider's id (from an inbound message or an upload); ProviderError `media_not_found` when it has none. */
  fetchMedia(mediaId: string): Promise<MediaFile>;
  /** Stores a file with the provider for sending; resolves to its media id. */
  uploadMedia(upload: MediaUpload): Promise<{ id: string }>;
  /** The number's limits and quality as the provider holds them. */
  readStanding(): Promise<NumberStanding>;
}

/** The templates written here for an integration, as they stand (the sandbox's own business account). */
export type TrackedTemplates = (integration: ProviderIntegration) => Promise<Template[]>;

/** Where adapters report delivery progress they learn of by themselves (the sandbox's timer). */
export type StatusSink = (integration: ProviderIntegration, update: StatusUpdate) => Promise<void>;
