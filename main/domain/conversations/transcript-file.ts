import { JsonLinesWriter } from '../../platform/storage/jsonl-writer';
import { parseJsonLines, readJsonLines } from '../../platform/storage/jsonl-file';
import type { JsonLines } from '../../platform/storage/jsonl-file';
import { transcriptRecordSchema } from './transcript-records';
import type { TranscriptRecord } from './transcript-records';

export type LoadedTranscript = JsonLines<TranscriptRecord>;

/** Reads a JSON-lines transcript; a torn or invalid line is skipped and counted, never fatal. */
export const readTranscript = (path: string): Promise<LoadedTranscript> => readJsonLines(path, transcriptRecordSchema);

export const parseTranscript = (text: string): LoadedTranscript => parseJsonLines(text, transcriptRecordSchema);

/**
 * Appends records to one transcript. The loop asks for `sync` at every turn boundary, so a crash
 * loses at most the turn in flight.
 */
export class TranscriptWriter extends JsonLinesWriter<TranscriptRecord> {}
