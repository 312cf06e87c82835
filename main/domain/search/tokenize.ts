import { stemmer as stemEnglish } from '@orama/stemmers/english';
import { stemmer as stemRussian } from '@orama/stemmers/russian';

// Intl.Segmenter finds word boundaries in every script, Chinese and Japanese included (ICU
// dictionaries), so one tokenizer serves English, Russian and Chinese text alike.
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

const CYRILLIC = /\p{Script=Cyrillic}/u;
const LATIN = /\p{Script=Latin}/u;
const HAN_OR_KANA = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

// Scripts written without spaces need ICU's dictionaries; everything else splits on letters and digits.
const NEEDS_DICTIONARY =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
// What ICU's word rules keep together in alphabetic text: "don't", "e.g", "file.txt", "3.14".
const WORD = /[\p{L}\p{M}\p{N}_]+(?:['’.][\p{L}\p{M}\p{N}_]+)*/gu;

/** Splits text into lower-cased words (NFKC, so full-width and compatibility forms match). */
export function tokenize(text: string): string[] {
  const normalized = text.normalize('NFKC').toLowerCase();
  // Intl.Segmenter costs several times a regular expression: only text that needs it goes through it.
  if (!NEEDS_DICTIONARY.test(normalized)) return normalized.match(WORD) ?? [];
  const words: string[] = [];
  for (const segment of segmenter.segment(normalized)) {
    if (segment.isWordLike === true) words.push(segment.segment);
  }
  return words;
}

/**
 * Index terms for one word: Russian and English words are stemmed (so "кошками" finds "кошка",
 * "searching" finds "search"); CJK words also yield their characters, because the segmenter may
 * cut a query differently from the text it was indexed from.
 */
export function processTerm(word: string): readonly string[] {
  let terms = termCache.get(word);
  if (terms === undefined) {
    // The word is a slice of the text it was found in, and V8 keeps a long slice's whole text alive:
    // cached (and indexed: the terms become the live segment's keys), it would hold every chunk a
    // new word came from, tens of MB over a build, for the life of the process.
    const own = ownCopy(word);
    terms = termsOf(own);
    // A vocabulary is small next to the text: stemming each distinct word once makes indexing several
    // times faster. Bounded, so a corpus of random identifiers cannot grow it without end.
    if (termCache.size >= MAX_CACHED_TERMS) termCache.clear();
    termCache.set(own, terms);
  }
  // The cached list itself: a build asks for every word of every file (no copy per occurrence).
  return terms;
}

/**
 * Empties the word cache (a build is over: up to 200,000 words, 10-20 MB, that the next query or
 * edit needs a handful of).
 */
export function forgetCachedTerms(): void {
  termCache.clear();
}

/** A string of its own: not a slice that keeps a bigger string alive (a cache miss's cost only). */
export const ownCopy = (text: string): string => Buffer.from(text, 'utf8').toString('utf8');

const MAX_CACHED_TERMS = 200_000;

/**
 * Words that occur in nearly every passage carry almost no BM25 weight but make every query walk
 * every chunk: they are not indexed (nor searched). Short lists, the commonest function words only.
 */
const STOP_WORDS = new Set(
  (
    'a an and are as at be but by for from has have i if in into is it its of on or so that the their then there these they this to was were will with ' +
    'а без бы в во вот да для до его её ее же за и из или им их к как ко ли мы на над не него нет ни но о об он она они оно от по под при с со так те то тоже только у уже что чтобы это эта этот я'
  ).split(' '),
);
const termCache = new Map<string, readonly string[]>();

function termsOf(word: string): string[] {
  if (STOP_WORDS.has(word)) return [];
  if (CYRILLIC.test(word)) return [stemRussian(word.replaceAll('ё', 'е'))];
  if (HAN_OR_KANA.test(word)) return word.length > 1 ? [word, ...Array.from(word)] : [word];
  if (LATIN.test(word)) return [stemEnglish(word)];
  return [word];
}
