// Contact search (substringSearch.ts decides how): a contact matches when its name or e-mail address contains the
// term, exactly as ILIKE '%term%' on each, or its phone number contains the term's digits when the term is written
// as people write phone numbers (`+1 (555) 000-0000`, `555-000`, `0044 20 7946`); the list is newest first by id.
// Rare terms of three characters or more are found through the trigram indexes of the name and e-mail address and a
// phone term's digits through the pieces of the phone number (migration 0042); shorter ones through `search_grams`,
// every one- and two-character piece of the three lower-cased fields (migration 0017). The rows a search reads in
// order are tested against the three fields kept lower-cased together (`search_text`, migration 0048).
import { Prisma } from '../../prisma/generated/prisma/client.js';
import {
  containsIgnoringCase,
  containsPattern,
  isShortTerm,
  lowerCasedPattern,
  type Lookup,
  type SearchedTable,
} from '../shared/substringSearch.js';

/** Only digits, spaces, dots, dashes and brackets, after an optional `+`: a phone number as typed. */
const PHONE_AS_TYPED = /^\+?[\d\s.()-]+$/;
/** A leading `00` is the international prefix when a country code and a number follow it. */
const INTERNATIONAL_PREFIX = /^00(?=\d{5})/;

/**
 * The digits a phone term looks up in stored numbers (E.164, `+` and digits): its formatting and a leading `+` or
 * `00` dropped; null for a term that is not written as a phone number or has no digit.
 */
export function phoneDigits(term: string): string | null {
  if (!PHONE_AS_TYPED.test(term.trim())) return null;
  const digits = term.replace(/\D/g, '').replace(INTERNATIONAL_PREFIX, '');
  return digits === '' ? null : digits;
}

/** Whether a contact's phone number contains the term: a phone term's digits, any other term as it is (the test of a
 * row, not an index lookup). Digits have no case, so their LIKE answers what ILIKE would, without lower-casing every
 * number it checks. */
function phoneMatches(row: Prisma.Sql, term: string): Prisma.Sql {
  const digits = phoneDigits(term);
  return digits === null
    ? containsIgnoringCase(Prisma.sql`${row}.phone_number`, term)
    : Prisma.sql`${row}.phone_number LIKE ${containsPattern(digits)}`;
}

/** What separates the fields of `search_text` (migration 0048). */
const FIELD_SEPARATOR = '\n';

/**
 * Whether a contact's name, phone number or e-mail address contains the term. The fields are lower-cased in
 * `search_text` when the contact is written, so a term is one LIKE of it, which cannot match across two fields when
 * the term holds no separator; a phone term typed with more than its digits (`+1 555-000`) has its digits looked for
 * in the number too (phoneMatches), while a term of digits alone is already looked for there. A term with a
 * separator is tested field by field.
 */
function contactMatches(row: Prisma.Sql, term: string): Prisma.Sql {
  if (term.includes(FIELD_SEPARATOR)) {
    const name = containsIgnoringCase(Prisma.sql`${row}.name`, term);
    const email = containsIgnoringCase(Prisma.sql`${row}.email`, term);
    return Prisma.sql`(${name} OR ${phoneMatches(row, term)} OR ${email})`;
  }
  const anyField = Prisma.sql`${row}.search_text LIKE ${lowerCasedPattern(term)}`;
  const digits = phoneDigits(term);
  return digits === null || digits === term ? anyField : Prisma.sql`(${anyField} OR ${phoneMatches(row, term)})`;
}

/** The length of a phone number's indexed pieces (migration 0042). */
const PHONE_PIECE = 6;

/**
 * The lookup of a phone term's digits (three or more) in the index of every number's pieces (migration 0042): up to
 * six digits start one of the pieces of every number that holds them; more are in every piece of six that covers
 * them, which only numbers holding them (and a few others) have, so the number is then checked, and only the number:
 * a contact whose name or e-mail holds the term is found through their own lookups.
 */
function phonePieces(row: Prisma.Sql, term: string, digits: string): Lookup {
  if (digits.length <= PHONE_PIECE)
    return { condition: Prisma.sql`phone_pieces(${row}.phone_number) @@ ${`${digits}:*`}::tsquery`, check: null };
  const starts = new Set<number>();
  for (let start = 0; start + PHONE_PIECE < digits.length; start += PHONE_PIECE) starts.add(start);
  starts.add(digits.length - PHONE_PIECE);
  const pieces = [...starts].map((start) => digits.slice(start, start + PHONE_PIECE)).join(' & ');
  return { condition: Prisma.sql`phone_pieces(${row}.phone_number) @@ ${pieces}::tsquery`, check: phoneMatches(row, term) };
}

/** The contacts one of whose fields holds `gram` (of one or two characters), checked against the whole term. */
const shortGram = (row: Prisma.Sql, gram: string, term: string): Lookup => ({
  condition: Prisma.sql`${row}.search_grams @> ARRAY[lower(${gram})]`,
  check: CONTACTS.matches(row, term),
});

/**
 * Contacts, by name, phone number or e-mail address, each field through its own index. The index looks up the whole
 * term, unlike a message's longest word (messages.ts): the three fields are short, and the rows of all of a name's
 * trigrams are fewer than those of its rarest word (`Zoe Larsen`: 13 ms, against 111 ms through `Larsen`).
 */
export const CONTACTS: SearchedTable = {
  name: 'customers',
  matches: contactMatches,
  lookups: (row, term) => {
    // The name and e-mail are looked up by the term, the phone number by its digits.
    const digits = phoneDigits(term);
    const phone = digits ?? term;
    // An e-mail address holds no whitespace (channels.ts stores only addresses), so a term with a space is not looked
    // up in the e-mail index, whose trigrams would list every address holding its words (`Zoe Larsen`: 1,691 rows
    // read at a million contacts, 9 ms, for none).
    const byEmail = /\s/.test(term) ? [] : [{ condition: Prisma.sql`${row}.email ILIKE ${containsPattern(term)}`, check: null }];
    const byText = isShortTerm(term)
      ? [shortGram(row, term, term)]
      : [{ condition: Prisma.sql`${row}.name ILIKE ${containsPattern(term)}`, check: null }, ...byEmail];
    if (isShortTerm(phone)) return phone === term ? byText : [...byText, shortGram(row, phone, term)];
    const byPhoneText = { condition: Prisma.sql`${row}.phone_number ILIKE ${containsPattern(term)}`, check: null };
    return [...byText, digits === null ? byPhoneText : phonePieces(row, term, digits)];
  },
};
