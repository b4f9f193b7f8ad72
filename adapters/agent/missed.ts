// What either agent does when it has no answer it may send: the first time, it says so in the customer's language
// and offers a person (or, when the knowledge lacks that language, says which languages it can help in); the
// second time in a row it hands off. The decision says why, for the run's record.
import { languageName, phrasesFor } from './phrases.js';
import type { AgentDecision, AgentInput, AgentUsage, AnswerSource, ToolCallRecord } from './types.js';

export function missed(
  input: AgentInput,
  why: string,
  bestScore: number | null,
  usage: AgentUsage,
  toolCalls: ToolCallRecord[],
): AgentDecision {
  const { knowledge } = input;
  if (input.missedBefore) {
    return {
      kind: 'handoff',
      reason: 'no_confident_answer',
      detail: `${why}, and the previous question had no answer either (a second miss hands off)`,
      toolCalls,
      usage,
    };
  }
  const phrases = phrasesFor(knowledge.language);
  const source: AnswerSource = { kind: knowledge.languageMissing ? 'language' : 'no_answer', best_score: bestScore };
  const text = knowledge.languageMissing ? `${phrases.canHelpIn} ${knowledge.languages.map(languageName).join(', ')}.` : phrases.noAnswer;
  return {
    kind: 'reply',
    text: input.greeting ? `${input.greeting}\n\n${text}` : text,
    source,
    explanation: `${why}: said so and offered a person (a second miss hands off)`,
    toolCalls,
    usage,
  };
}
