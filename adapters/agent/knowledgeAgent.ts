// The `knowledge` agent, the default: it needs nothing outside the service. It answers with the workspace's own
// words: an FAQ's answer when an FAQ's question matches (FAQs first), else the one to three sentences of a document
// that answer the question (at most 400 characters), with the document's title as the source. When nothing scores
// at the threshold it says so politely once and offers a person; the second miss in a row hands off. A customer
// writing in a language the knowledge lacks is told which languages it can help in (that counts as a miss).
import { missed } from './missed.js';
import { phrasesFor } from './phrases.js';
import { NO_USAGE, type AgentDecision, type AgentInput, type AgentSentence, type AnswerSource, type ConversationAgent } from './types.js';

export const MAX_ANSWER_CHARS = 400;
/** Sentences beside the best one join the answer when they score at least this share of its score. */
const NEIGHBOUR_SHARE = 0.85;
const MAX_SENTENCES = 3;

/** The best sentence, with up to two more of the same document that score nearly as well, in document order. */
export function answerSentences(sentences: AgentSentence[], threshold: number): AgentSentence[] {
  const [best] = sentences;
  if (!best) return [];
  const chosen = [best];
  let length = best.text.length;
  for (const sentence of sentences.slice(1)) {
    if (chosen.length >= MAX_SENTENCES) break;
    if (sentence.document_id !== best.document_id || sentence.score < Math.max(threshold, best.score * NEIGHBOUR_SHARE)) continue;
    if (length + 1 + sentence.text.length > MAX_ANSWER_CHARS) continue;
    chosen.push(sentence);
    length += 1 + sentence.text.length;
  }
  return chosen.sort((a, b) => a.position - b.position);
}

/** Text cut at a word before `max` characters, with an ellipsis, when longer. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export function knowledgeAgent(options: { threshold: number }): ConversationAgent {
  const { threshold } = options;
  return {
    async decide(input: AgentInput): Promise<AgentDecision> {
      const { knowledge } = input;
      const phrases = phrasesFor(knowledge.language);
      const reply = (text: string, source: AnswerSource, explanation: string): AgentDecision => ({
        kind: 'reply',
        text: input.greeting ? `${input.greeting}\n\n${text}` : text,
        source,
        explanation,
        toolCalls: [],
        usage: NO_USAGE,
      });

      const faq = knowledge.faq;
      if (faq && faq.score >= threshold) {
        return reply(
          faq.answer,
          { kind: 'faq', faq_id: faq.faq_id, question: faq.question, score: faq.score },
          `answered with the FAQ "${faq.question}" (score ${faq.score.toFixed(2)}, threshold ${threshold}); FAQs are matched before documents`,
        );
      }
      const best = knowledge.sentences[0];
      if (best && best.score >= threshold) {
        const chosen = answerSentences(knowledge.sentences, threshold);
        const answer = clip(chosen.map((sentence) => sentence.text).join(' '), MAX_ANSWER_CHARS);
        return reply(
          `${answer}\n\n${phrases.source}: ${best.title}`,
          {
            kind: 'sentence',
            document_id: best.document_id,
            title: best.title,
            sentence_ids: chosen.map((sentence) => sentence.id),
            text: answer,
            score: best.score,
          },
          `answered with ${chosen.length} sentence(s) of "${best.title}" (best score ${best.score.toFixed(2)}, threshold ${threshold})` +
            (knowledge.followUp ? "; read as a follow-up of the contact's previous question" : '') +
            (faq ? `; the best FAQ scored ${faq.score.toFixed(2)}, below the threshold` : ''),
        );
      }

      const bestScore = Math.max(best?.score ?? 0, faq?.score ?? 0);
      const why = knowledge.languageMissing
        ? `the contact writes ${knowledge.language} and the knowledge is in ${knowledge.languages.join(', ')}`
        : best || faq
          ? `the best answer scores ${bestScore.toFixed(2)}, below the threshold ${threshold}`
          : 'no knowledge shares a word with the question';
      return missed(input, why, best || faq ? bestScore : null, NO_USAGE, []);
    },
  };
}
