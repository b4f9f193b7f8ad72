// `npm run eval:agent`: the knowledge agent (no model) over the evaluation set (documents.ts, questions.ts) on a new
// embedded database, with the workspace's default settings. Prints, and with --verbose each miss and wrong answer:
//   answer accuracy  = questions handled right / all questions (answered with the expected sentence, or, for a
//                      "hand off" question, not answered: the agent said it had no answer);
//   wrong-answer rate = questions answered with a sentence or FAQ that is not the expected one / all questions;
//   hand-off precision = questions not answered whose expected outcome was "hand off" / questions not answered.
// Exits 1 when a target is missed (accuracy ≥ 80 %, wrong answers ≤ 5 %).
import { openDatabase } from '../../infra/db/database.js';
import { migrate } from '../../infra/db/migrate.js';
import { indexDocument } from '../../resolvers/knowledge/sentences.js';
import { retrieveKnowledge } from '../../resolvers/agent/retrieval.js';
import { agentSettingsOf } from '../../resolvers/agent/settings.js';
import { knowledgeAgent } from '../../adapters/agent/knowledgeAgent.js';
import { DOCUMENTS } from './documents.js';
import { HAND_OFF, QUESTIONS } from './questions.js';

const verbose = process.argv.includes('--verbose');
const db = await openDatabase({});
await migrate(db.sql);
const { prisma } = db;

const workspace = await prisma.workspace.create({ data: { name: 'Agent evaluation' } });
for (const document of DOCUMENTS) {
  const row = await prisma.knowledgeDocument.create({ data: { ...document, company_id: workspace.id } });
  await indexDocument(prisma, row);
}
const settings = await agentSettingsOf(prisma, workspace.id);
const agent = knowledgeAgent({ threshold: settings.knowledge_threshold });

let right = 0;
let wrong = 0;
let notAnswered = 0;
let notAnsweredRightly = 0;
for (const item of QUESTIONS) {
  const { passages, ...knowledge } = await retrieveKnowledge(prisma, workspace.id, {
    question: item.question,
    previousQuestion: item.previous ?? null,
    defaultLanguage: settings.default_language,
  });
  const decision = await agent.decide({
    question: item.question,
    recent: [],
    contact: { name: null, phone_number: null, email: null, notes: null, metadata: null, tags: [] },
    passages,
    knowledge,
    missedBefore: false,
    greeting: null,
  });
  const answered = decision.kind === 'reply' && (decision.source?.kind === 'sentence' || decision.source?.kind === 'faq');
  const text = decision.kind === 'reply' ? decision.text : '';
  let verdict: 'right' | 'wrong' | 'miss';
  if (!answered) {
    notAnswered += 1;
    if (item.expected === HAND_OFF) notAnsweredRightly += 1;
    verdict = item.expected === HAND_OFF ? 'right' : 'miss';
  } else verdict = item.expected !== HAND_OFF && text.includes(item.expected) ? 'right' : 'wrong';
  if (process.argv.includes('--scores')) {
    const best = Math.max(knowledge.sentences[0]?.score ?? 0, knowledge.faq?.score ?? 0);
    console.log(`${item.expected === HAND_OFF ? 'HANDOFF' : 'ANSWER '} ${best.toFixed(3)} ${verdict} ${item.question}`);
  }
  if (verdict === 'right') right += 1;
  if (verdict === 'wrong') wrong += 1;
  if (verbose && verdict !== 'right') {
    const best = knowledge.sentences[0];
    console.log(`${verdict.toUpperCase()}: ${item.question}\n  expected: ${item.expected}\n  got: ${text.replace(/\n+/g, ' / ')}`);
    console.log(`  best: ${best ? `${best.score} ${best.text}` : 'none'}; second: ${knowledge.sentences[1]?.score ?? '-'}`);
  }
}
await db.close();

const share = (count: number, of: number) => (of === 0 ? 'n/a' : `${((100 * count) / of).toFixed(1)} %`);
const total = QUESTIONS.length;
console.log(`Knowledge agent, ${DOCUMENTS.length} documents, ${total} questions, threshold ${settings.knowledge_threshold}`);
console.log(`answer accuracy    ${share(right, total)} (${right}/${total}; target ≥ 80 %)`);
console.log(`wrong-answer rate  ${share(wrong, total)} (${wrong}/${total}; target ≤ 5 %)`);
console.log(`hand-off precision ${share(notAnsweredRightly, notAnswered)} (${notAnsweredRightly}/${notAnswered})`);
process.exitCode = right / total >= 0.8 && wrong / total <= 0.05 ? 0 : 1;
