import { readFile, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../test-support/temp-dir';
import { readTranscript, TranscriptWriter } from './transcript-file';
import { stamp } from './transcript-records';
import type { NewRecord } from './transcript-records';

const tempDir = useTempDirs();

const conversation: NewRecord[] = [
  { type: 'conversation', id: 'c0000000-test' },
  { type: 'user', messageId: 'm0000000-one', text: 'Read notes.md please' },
  { type: 'turn-start', turnId: 't0000000-one', userMessageId: 'm0000000-one', retryOf: null },
  {
    type: 'tool-call',
    turnId: 't0000000-one',
    step: 0,
    toolCallId: 'call_1',
    name: 'read_file',
    args: { path: 'notes.md' },
  },
  {
    type: 'tool-result',
    turnId: 't0000000-one',
    toolCallId: 'call_1',
    name: 'read_file',
    result: { ok: true, value: 'hello' },
  },
  { type: 'text', turnId: 't0000000-one', step: 1, text: 'It says hello.' },
  { type: 'turn-end', turnId: 't0000000-one', status: 'complete', finishReason: 'stop', usage: { inputTokens: 10 } },
];

async function writeAll(path: string, records: readonly NewRecord[]) {
  const writer = new TranscriptWriter(path);
  await writer.append(
    records.map((record) => stamp(record)),
    { sync: true },
  );
  await writer.close();
}

describe('transcript files', () => {
  it('round-trips every record type through JSON lines, validated on read', async () => {
    const path = join(await tempDir(), 'c.jsonl');
    await writeAll(path, conversation);
    const loaded = await readTranscript(path);
    expect(loaded.skippedLines).toEqual([]);
    expect(loaded.tornTail).toBe(false);
    expect(loaded.records.map((record) => record.type)).toEqual(conversation.map((record) => record.type));
    expect((await readFile(path, 'utf8')).split('\n')).toHaveLength(conversation.length + 1);
    if (process.platform !== 'win32') expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('skips a torn last line after a crash and keeps everything before it', async () => {
    const path = join(await tempDir(), 'c.jsonl');
    await writeAll(path, conversation);
    const full = await readFile(path, 'utf8');
    // Cut the file in the middle of the last line, as a crash during write would.
    const lastLineStart = full.lastIndexOf('\n', full.length - 2) + 1;
    await truncate(path, lastLineStart + 25);

    const loaded = await readTranscript(path);
    expect(loaded.tornTail).toBe(true);
    expect(loaded.skippedLines).toEqual([conversation.length]);
    expect(loaded.records.map((record) => record.type)).toEqual(conversation.slice(0, -1).map((record) => record.type));
  });

  it('cuts the torn tail before appending, so the next record is not glued to it', async () => {
    const path = join(await tempDir(), 'c.jsonl');
    await writeAll(path, conversation.slice(0, 3));
    await writeFile(path, `${await readFile(path, 'utf8')}{"v":1,"at":"2026-01-01T00:00:00.000Z","type":"te`);
    await writeAll(path, [{ type: 'turn-end', turnId: 't0000000-one', status: 'stopped', reason: 'crash test' }]);

    const loaded = await readTranscript(path);
    expect(loaded.skippedLines).toEqual([]);
    expect(loaded.records.map((record) => record.type)).toEqual(['conversation', 'user', 'turn-start', 'turn-end']);
  });

  it('skips lines that are JSON but not valid records, and says which', async () => {
    const path = join(await tempDir(), 'c.jsonl');
    await writeAll(path, conversation.slice(0, 2));
    const text = await readFile(path, 'utf8');
    await writeFile(path, `${text}{"v":1,"at":"x","type":"user"}\n[1,2]\n`);
    await writeAll(path, [{ type: 'title', title: 'Renamed', source: 'user' }]);
    const loaded = await readTranscript(path);
    expect(loaded.skippedLines).toEqual([3, 4]);
    expect(loaded.records.at(-1)).toMatchObject({ type: 'title', title: 'Renamed' });
  });

  it('a header line torn on its own leaves an empty but usable file', async () => {
    const path = join(await tempDir(), 'c.jsonl');
    await writeFile(path, '{"v":1,"at":"2026');
    await writeAll(path, [{ type: 'conversation', id: 'c0000000-test' }]);
    const loaded = await readTranscript(path);
    expect(loaded.records).toHaveLength(1);
    expect(loaded.skippedLines).toEqual([]);
  });
});
