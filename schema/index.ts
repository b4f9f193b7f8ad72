// The GraphQL schema: the domain files register their types and fields on the one builder.
import { lexicographicSortSchema } from 'graphql';
import { builder } from './builder.js';
import './system.js';
import './user.js';
import './contact.js';
import './conversation.js';
import './tag.js';
import './message.js';
import './messageDetail.js';
import './conversationMessages.js';
import './template.js';
import './providerCallback.js';
import './contactMutations.js';
import './contactChannel.js';
import './conversationMutations.js';
import './conversationRecords.js';
import './webhook.js';
import './appointmentType.js';
import './appointment.js';
import './scheduling.js';
import './bookingPage.js';
import './knowledge.js';
import './analytics.js';
import './campaign.js';
import './agent.js';
import './events.js';

export const schema = lexicographicSortSchema(builder.toSchema());
