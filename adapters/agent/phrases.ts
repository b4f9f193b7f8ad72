// The few lines the knowledge agent says in its own words, in each language it is tested in (English for the
// others): the source label under an answer, the polite "no answer, shall I get a person?" line, and the
// languages it can help in. PERSON_WORDS are what customers write when they ask for a person, in those languages;
// the runner hands off on them as on the workspace's hand-off keywords.

type Phrases = { source: string; noAnswer: string; canHelpIn: string; name: string };

const PHRASES: Record<string, Phrases> = {
  en: {
    name: 'English',
    source: 'Source',
    noAnswer:
      "Sorry, I couldn't find the answer to that in our help pages. Could you put it another way, or shall I get a person from our team?",
    canHelpIn: 'Sorry, I can only help in',
  },
  pt: {
    name: 'português',
    source: 'Fonte',
    noAnswer:
      'Desculpe, não encontrei a resposta nas nossas páginas de ajuda. Pode dizer de outra forma, ou prefere falar com uma pessoa da equipe?',
    canHelpIn: 'Desculpe, só consigo ajudar em',
  },
  es: {
    name: 'español',
    source: 'Fuente',
    noAnswer:
      'Lo siento, no encontré la respuesta en nuestras páginas de ayuda. ¿Puede decirlo de otra forma, o prefiere hablar con una persona del equipo?',
    canHelpIn: 'Lo siento, solo puedo ayudar en',
  },
  fr: {
    name: 'français',
    source: 'Source',
    noAnswer:
      "Désolé, je n'ai pas trouvé la réponse dans nos pages d'aide. Pouvez-vous reformuler, ou voulez-vous parler à une personne de l'équipe ?",
    canHelpIn: 'Désolé, je ne peux aider qu’en',
  },
  de: {
    name: 'Deutsch',
    source: 'Quelle',
    noAnswer:
      'Leider habe ich die Antwort in unseren Hilfeseiten nicht gefunden. Können Sie es anders formulieren, oder soll ich Sie mit einer Person aus dem Team verbinden?',
    canHelpIn: 'Leider kann ich nur helfen auf',
  },
  it: {
    name: 'italiano',
    source: 'Fonte',
    noAnswer:
      'Mi dispiace, non ho trovato la risposta nelle nostre pagine di aiuto. Può dirlo in un altro modo, o preferisce parlare con una persona del team?',
    canHelpIn: 'Mi dispiace, posso aiutare solo in',
  },
  id: {
    name: 'Bahasa Indonesia',
    source: 'Sumber',
    noAnswer:
      'Maaf, saya tidak menemukan jawabannya di halaman bantuan kami. Bisa ditanyakan dengan cara lain, atau mau saya hubungkan dengan orang dari tim kami?',
    canHelpIn: 'Maaf, saya hanya bisa membantu dalam',
  },
  hi: {
    name: 'हिन्दी',
    source: 'स्रोत',
    noAnswer:
      'माफ़ कीजिए, मुझे हमारे सहायता पृष्ठों में इसका उत्तर नहीं मिला। क्या आप इसे दूसरे तरीके से पूछ सकते हैं, या मैं आपको हमारी टीम के किसी व्यक्ति से जोड़ दूँ?',
    canHelpIn: 'माफ़ कीजिए, मैं केवल इन भाषाओं में मदद कर सकता हूँ:',
  },
};

export function phrasesFor(language: string): Phrases {
  return PHRASES[language] ?? PHRASES['en']!;
}

/** The name of a language in that language ("português"), or its code when the agent has no phrases for it. */
export function languageName(language: string): string {
  return PHRASES[language]?.name ?? language;
}

export const PERSON_WORDS = [
  'human',
  'real person',
  'representative',
  'atendente',
  'humano',
  'falar com uma pessoa',
  'hablar con una persona',
  'asesor',
  'conseiller',
  'humain',
  'mitarbeiter',
  'mensch',
  'operatore',
  'manusia',
  'petugas',
  'इंसान',
  'व्यक्ति से बात',
];
