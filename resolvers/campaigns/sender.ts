// What a campaign sends and through what: its APPROVED template with every slot filled, through its
// integration's provider. Checked when a campaign is created or edited, when it starts or resumes, and by the
// runner before each batch, so a template withdrawn at the provider stops a campaign instead of failing
// every recipient.
import type { Campaign, Integration } from '../../prisma/generated/prisma/client.js';
import type { MessagingProvider } from '../../adapters/providers/types.js';
import type { Services } from '../shared/context.js';
import { conversationIntegration, providerIntegration } from '../workspace/integrations.js';
import { templateMessage, type OutboundMessage, type TemplateRequest } from '../messaging/outbound.js';

export type CampaignSender = { integration: Integration; provider: MessagingProvider; message: OutboundMessage };

type SenderServices = Pick<Services, 'prisma' | 'messaging' | 'secrets'>;

export function templateOf(campaign: Campaign): TemplateRequest {
  return { name: campaign.template_name, language: campaign.template_language, parameters: campaign.template_parameters as string[] };
}

/** The template through this integration, or the domain error that says why it cannot be sent. */
export async function campaignMessage(
  services: SenderServices,
  integration: Integration,
  template: TemplateRequest,
): Promise<CampaignSender> {
  const provider = services.messaging.for(providerIntegration(services.secrets, integration));
  return { integration, provider, message: await templateMessage(provider, template) };
}

/** The campaign's sender as things are now: its integration still connected, its template still approved. */
export async function campaignSender(services: SenderServices, campaign: Campaign): Promise<CampaignSender> {
  const integration = await conversationIntegration(services.prisma, campaign.company_id, campaign.integration_id);
  return campaignMessage(services, integration, templateOf(campaign));
}
