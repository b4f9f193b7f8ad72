// The knowledge agent in each tested language (English, Spanish, French, German, Italian, Indonesian and Hindi here;
// Portuguese in knowledge.worker.test.ts): a document whose language is detected, a question in that language, and
// the reply with the sentence that answers it under the source label of that language. Hindi has no stemming
// configuration in some PostgreSQL builds and is then matched by `simple` words and trigrams.
import { describe, expect, it } from 'vitest';
import { openAgentWorld } from '../support/agent.js';
import { LANGUAGE_CASES } from './languageCases.js';

const { gql, conversation, settledRuns, outbound } = await openAgentWorld();

describe('the knowledge agent in the customer language', () => {
  it.each(LANGUAGE_CASES)('answers $language from a $language document', async (test) => {
    const chat = await conversation();
    const created = await gql<{ knowledgeDocumentCreate: { language: string } }>(
      chat.ws.apiKey,
      'mutation($title: String!, $content: String!) { knowledgeDocumentCreate(title: $title, content: $content) { language } }',
      { title: test.title, content: test.content },
    );
    expect(created.knowledgeDocumentCreate.language).toBe(test.language);
    await chat.say(test.question);
    const [run] = await settledRuns(chat.conversationId, 1);
    expect(run).toMatchObject({ status: 'replied', answer_source: { kind: 'sentence', text: test.answer } });
    expect((await outbound(chat.conversationId)).map((message) => message.body)).toEqual([
      `${test.answer}\n\n${test.source}: ${test.title}`,
    ]);
  });
});
