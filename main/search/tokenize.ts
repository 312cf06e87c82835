import { stemmer as stemEnglish } from '@orama/stemmers/english';
import { stemmer as stemRussian } from '@orama/stemmers/russian';

// Intl.Segmenter finds word boundaries in every script, Chinese and Japanese included (ICU
// dictionaries), so one tokenizer serves English, Russian and Chinese text alike.
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

const CYRILLIC = /\p{Script=Cyrillic}/u;
const LATIN = /\p{Script=Latin}/u;
const HAN_OR_KANA = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** Splits text into lower-cased words (NFKC, so full-width and compatibility forms match). */
export function tokenize(text: string): string[] {
  const words: string[] = [];
  for (const segment of segmenter.segment(text.normalize('NFKC').toLowerCase())) {
    if (segment.isWordLike === true) words.push(segment.segment);
  }
  return words;
}

/**
 * Index terms for one word: Russian and English words are stemmed (so "кошками" finds "кошка",
 * "searching" finds "search"); CJK words also yield their characters, because the segmenter may
 * cut a query differently from the text it was indexed from.
 */
export function processTerm(word: string): string[] {
  if (CYRILLIC.test(word)) return [stemRussian(word.replaceAll('ё', 'е'))];
  if (HAN_OR_KANA.test(word)) return word.length > 1 ? [word, ...Array.from(word)] : [word];
  if (LATIN.test(word)) return [stemEnglish(word)];
  return [word];
}
