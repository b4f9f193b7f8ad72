// The languages of knowledge and of customers' questions. A language is an ISO 639-1 code; it picks the PostgreSQL
// text search configuration that stems its words (`simple`, no stemming, where the server has none: search then
// leans on trigram similarity). Detection is written here rather than taken from a package (franc-min): chat
// questions are a few words long, where franc's trigram statistics guess poorly (it asks for 10+ characters and
// mixes up Portuguese, Spanish and Galician on short text), while the small words every question has ("the",
// "não", "¿", "ist") tell these languages apart; a script (Devanagari, Arabic, Cyrillic) settles its language alone.
import { z } from 'zod';

/** Languages with a stemming configuration in PostgreSQL (15 and PGlite both ship these). */
const CONFIGURATIONS: Record<string, string> = {
  ar: 'arabic',
  da: 'danish',
  de: 'german',
  el: 'greek',
  en: 'english',
  es: 'spanish',
  fi: 'finnish',
  fr: 'french',
  hi: 'hindi',
  hu: 'hungarian',
  id: 'indonesian',
  it: 'italian',
  nl: 'dutch',
  no: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  sv: 'swedish',
  ta: 'tamil',
  tr: 'turkish',
};

/** The workspace's language until it sets one (agentSettings.default_language). */
export const DEFAULT_LANGUAGE = 'en';

export const languageCode = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z]{2}$/, { message: 'must be an ISO 639-1 language code such as en, pt or hi' });

/** The configuration for a language, among those the database has; `simple` (no stemming) otherwise. */
export function configurationOf(language: string, available: ReadonlySet<string>): string {
  const configuration = CONFIGURATIONS[language];
  return configuration && available.has(configuration) ? configuration : 'simple';
}

// Small words of each language; a word in more than one list is dropped below, so each list only holds words that
// point to one language.
const STOP_WORDS: Record<string, string> = {
  en: 'the is are you your do does what how can i my to of and for with it we have when where which this that be will much any there our an if was not who me',
  pt: 'não você vocês é são o os do da dos das no na nos um uma com que qual quais quando como onde meu minha seu sua posso tem têm está ou mais também pelo pela até muito obrigado olá sim vocês entregam fazem aceitam funciona ao às há quanto custa recebo posso preciso quero gostaria vocês tô pra',
  es: 'el los las es son un una con qué cuál cuánto cuánta cuándo cómo dónde mi su puedo tiene tienen está y o más también del al hay usted ustedes gracias hola sí pedido hacen aceptan envían cuesta puedo necesito quiero tengo tienen cuándo dónde devuelven',
  fr: 'le la les est sont un une des du pour avec que qui quel quelle quand comment où je vous votre vos nous notre il elle et ou pas ne sur dans ce cette mon ma mes peux pouvez bonjour merci oui au aux êtes combien',
  de: 'der die das ist sind ein eine für mit und oder nicht wie was wann wo ich sie ihr wir unser mein kann können haben hat auf zu von bei im am den dem ja danke hallo es wird gibt ihre',
  it: 'il lo la gli le è sono un una per con che quale quando come dove io voi noi mio mia posso potete avete ha non e o più anche del della dei delle al alla nel nella ci si grazie ciao sì quanto costa',
  id: 'yang dan di ke dari untuk dengan apa apakah bagaimana kapan dimana berapa saya anda kami kita bisa ada tidak ini itu juga akan sudah atau pada karena terima kasih halo ya buka pesanan biaya kirim',
};

const SCRIPTS: [RegExp, string][] = [
  [/\p{Script=Devanagari}/u, 'hi'],
  [/\p{Script=Arabic}/u, 'ar'],
  [/\p{Script=Cyrillic}/u, 'ru'],
  [/\p{Script=Greek}/u, 'el'],
  [/\p{Script=Tamil}/u, 'ta'],
];

const MARKS: [RegExp, string][] = [
  [/[ãõ]|ção|ções/u, 'pt'],
  [/[ñ¿¡]/u, 'es'],
  [/ß/u, 'de'],
];

const DISTINCT_WORDS: Map<string, string> = (() => {
  const owners = new Map<string, Set<string>>();
  for (const [language, words] of Object.entries(STOP_WORDS)) {
    for (const word of words.split(' ')) owners.set(word, (owners.get(word) ?? new Set()).add(language));
  }
  return new Map([...owners].filter(([, languages]) => languages.size === 1).map(([word, languages]) => [word, [...languages][0]!]));
})();

const fold = (word: string) => word.normalize('NFD').replace(/\p{M}/gu, '');

/** Each language's small words written with accents ("são", "não"), for the database to say which are stop words. */
export function accentedSmallWords(): { language: string; word: string; folded: string }[] {
  return Object.entries(STOP_WORDS).flatMap(([language, words]) =>
    words
      .split(' ')
      .filter((word) => fold(word) !== word)
      .map((word) => ({ language, word, folded: fold(word) })),
  );
}

/** The language the text is most likely in, or null when nothing in it points to one language. */
export function detectLanguage(text: string): string | null {
  for (const [script, language] of SCRIPTS) if (script.test(text)) return language;
  const lower = text.toLowerCase();
  const votes = new Map<string, number>();
  const vote = (language: string, weight: number) => votes.set(language, (votes.get(language) ?? 0) + weight);
  for (const word of lower.match(/\p{L}+/gu) ?? []) {
    const language = DISTINCT_WORDS.get(word);
    if (language) vote(language, 1);
  }
  for (const [mark, language] of MARKS) if (mark.test(lower)) vote(language, 1.5);
  const [first, second] = [...votes].sort((a, b) => b[1] - a[1]);
  if (!first || (second && second[1] === first[1])) return null;
  return first[0];
}

const FOLLOW_UP = /^[\s¿¡]*(and|what about|how about|also|e|y|et|und|ed|dan|kalau|lalu|और)(?=[\s,]|$)/iu;

/** Whether a question reads as a follow-up of the one before ("and to France?", "e para o Brasil?", "¿y a Francia?"). */
export function isFollowUp(question: string): boolean {
  return FOLLOW_UP.test(question);
}
