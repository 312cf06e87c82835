import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The semantic-search corpus: 10,000 Markdown notes (English and Russian, headings and paragraphs)
 * in 100 folders, generated from a seeded PRNG so every run indexes the same bytes.
 */
export const notesLayout = { folders: 100, notesPerFolder: 100, sectionsPerNote: 4, version: 2 } as const;

const english =
  'garden river budget meeting invoice travel recipe server deploy backup research lighthouse winter orchard contract review migration kitchen concert library harvest bicycle schedule report telescope mountain'.split(
    ' ',
  );
const russian =
  'сад река бюджет встреча счёт поездка рецепт сервер развёртывание копия исследование маяк зима яблоня договор проверка переезд кухня концерт библиотека урожай велосипед расписание отчёт телескоп гора'.split(
    ' ',
  );
const fillerEn = 'the a of and to in for with about after before during notes plan idea list'.split(' ');
const fillerRu = 'и в на о для с после до во время заметки план идея список'.split(' ');

/** A made-up vocabulary of a few thousand words per language, as real notes have. */
function vocabulary(syllables: readonly string[], size: number, random: () => number): string[] {
  const words = new Set<string>();
  while (words.size < size) {
    const count = 2 + Math.floor(random() * 3);
    let word = '';
    for (let i = 0; i < count; i += 1) word += syllables[Math.floor(random() * syllables.length)];
    words.add(word);
  }
  return [...words];
}
const vocabularyRandom = prng(7);
const inventedEn = vocabulary(
  'ka lo mi ter pan sor vel dun bra chi mor lest quin fal ron tis gar hel'.split(' '),
  6000,
  vocabularyRandom,
);
const inventedRu = vocabulary(
  'ка ло ми тер пан сор вел дун бра чи мор лест квин фал рон тис гар хел'.split(' '),
  6000,
  vocabularyRandom,
);

function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function paragraph(random: () => number, words: readonly string[], filler: readonly string[], length: number): string {
  const invented = words === english ? inventedEn : inventedRu;
  const out: string[] = [];
  for (let i = 0; i < length; i += 1) {
    const roll = random();
    // Topic words are rarer than function words; invented words follow a Zipf-like curve.
    const pool = roll < 0.12 ? words : roll < 0.45 ? filler : invented;
    const at = pool === invented ? Math.floor(pool.length * random() ** 3) : Math.floor(random() * pool.length);
    out.push(pool[at] as string);
  }
  const text = out.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

export interface NotesCorpus {
  readonly root: string;
  readonly files: number;
  readonly bytes: number;
}

/** Creates the corpus once (a marker file records its version) and reuses it afterwards. */
export async function ensureNotesCorpus(root: string, log: (line: string) => void): Promise<NotesCorpus> {
  const marker = join(root, '.corpus-version');
  const files = notesLayout.folders * notesLayout.notesPerFolder;
  const existing = await readFile(marker, 'utf8').catch(() => '');
  if (existing.startsWith(`${notesLayout.version} `)) return { root, files, bytes: Number(existing.split(' ')[1]) };
  log(`generating ${files} notes in ${root}...`);
  const random = prng(42);
  let bytes = 0;
  for (let folder = 0; folder < notesLayout.folders; folder += 1) {
    const dir = join(root, `area-${String(folder).padStart(3, '0')}`);
    await mkdir(dir, { recursive: true });
    for (let note = 0; note < notesLayout.notesPerFolder; note += 1) {
      const inRussian = random() < 0.5;
      const [words, filler] = inRussian ? [russian, fillerRu] : [english, fillerEn];
      const sections: string[] = [`# ${paragraph(random, words, filler, 4).slice(0, -1)}`];
      for (let section = 0; section < notesLayout.sectionsPerNote; section += 1) {
        sections.push(`## ${paragraph(random, words, filler, 3).slice(0, -1)}`);
        for (let p = 0; p < 2; p += 1) sections.push(paragraph(random, words, filler, 30 + Math.floor(random() * 40)));
      }
      const text = `${sections.join('\n\n')}\n`;
      bytes += Buffer.byteLength(text);
      await writeFile(join(dir, `note-${String(note).padStart(3, '0')}.md`), text);
    }
  }
  await writeFile(marker, `${notesLayout.version} ${bytes}`);
  return { root, files, bytes };
}
