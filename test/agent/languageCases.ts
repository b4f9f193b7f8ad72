// One small document and one question per tested language, with the sentence that answers it and the source label
// the agent writes in that language: test/agent/languages.worker.test.ts asks each through a conversation.
export type LanguageCase = { language: string; title: string; content: string; question: string; answer: string; source: string };

export const LANGUAGE_CASES: LanguageCase[] = [
  {
    language: 'en',
    title: 'Delivery',
    content: 'We deliver across the United Kingdom in two working days. Returns are free for thirty days.',
    question: 'Are returns free?',
    answer: 'Returns are free for thirty days.',
    source: 'Source',
  },
  {
    language: 'es',
    title: 'Envíos',
    content: 'Enviamos a toda España en 48 horas. Las devoluciones son gratuitas durante 30 días.',
    question: '¿Son gratuitas las devoluciones?',
    answer: 'Las devoluciones son gratuitas durante 30 días.',
    source: 'Fuente',
  },
  {
    language: 'fr',
    title: 'Livraison et retours',
    content: 'Nous livrons en France et en Belgique en trois jours ouvrés. Les retours sont gratuits pendant trente jours.',
    question: 'Combien de jours pour la livraison en Belgique ?',
    answer: 'Nous livrons en France et en Belgique en trois jours ouvrés.',
    source: 'Source',
  },
  {
    language: 'de',
    title: 'Versand und Rückgabe',
    content: 'Wir liefern innerhalb von drei Werktagen nach Deutschland und Österreich. Rücksendungen sind dreißig Tage lang kostenlos.',
    question: 'Liefern Sie auch nach Österreich?',
    answer: 'Wir liefern innerhalb von drei Werktagen nach Deutschland und Österreich.',
    source: 'Quelle',
  },
  {
    language: 'it',
    title: 'Spedizioni e resi',
    content: 'Spediamo in tutta Italia in due giorni lavorativi. I resi sono gratuiti entro trenta giorni.',
    question: 'I resi sono gratuiti?',
    answer: 'I resi sono gratuiti entro trenta giorni.',
    source: 'Fonte',
  },
  {
    language: 'id',
    title: 'Pengiriman dan pengembalian',
    content: 'Kami mengirim ke seluruh Indonesia dalam tiga hari kerja. Pengembalian barang gratis dalam tiga puluh hari.',
    question: 'Apakah pengembalian barang gratis?',
    answer: 'Pengembalian barang gratis dalam tiga puluh hari.',
    source: 'Sumber',
  },
  {
    language: 'hi',
    title: 'डिलीवरी और वापसी',
    content: 'हम पूरे भारत में तीन दिन में डिलीवरी करते हैं। वापसी तीस दिन तक मुफ्त है।',
    question: 'क्या वापसी मुफ्त है?',
    answer: 'वापसी तीस दिन तक मुफ्त है।',
    source: 'स्रोत',
  },
];
