import { readFile } from 'node:fs/promises';
import { z } from 'zod';

/**
 * The gate's rules. Electronegativity exits 0 whatever it finds, so the decision is made here:
 * every HIGH or MEDIUM finding must be justified by one entry of the reviewed allow-list, every
 * entry must still match a finding (a stale entry is an unreviewed hole waiting to be reused), and
 * a file the scanner could not parse fails the gate because it was never checked.
 */
export interface Finding {
  readonly check: string;
  readonly severity: string;
  readonly confidence: string;
  /** Relative to the repository root, with forward slashes. */
  readonly file: string;
  readonly line: number;
  /** The source line Electronegativity flagged. */
  readonly code: string;
  readonly description: string;
}

export const gatedSeverities: readonly string[] = ['HIGH', 'MEDIUM'];

export const allowListEntrySchema = z
  .object({
    check: z.string().regex(/^[A-Z0-9_]+$/),
    file: z.string().min(1),
    /** A piece of the flagged source line, so the entry follows the code when lines move. */
    code: z.string().min(1),
    justification: z
      .string()
      .min(20)
      .refine((text) => !text.includes('\n'), 'one line'),
  })
  .strict();
export type AllowListEntry = z.infer<typeof allowListEntrySchema>;

export const allowListSchema = z
  .object({
    $comment: z.string().optional(),
    findings: z.array(allowListEntrySchema),
  })
  .strict();

export async function loadAllowList(file: string): Promise<AllowListEntry[]> {
  return allowListSchema.parse(JSON.parse(await readFile(file, 'utf8'))).findings;
}

export interface GateVerdict {
  readonly passed: boolean;
  /** Gated findings with no allow-list entry. */
  readonly unjustified: Finding[];
  readonly justified: { readonly finding: Finding; readonly entry: AllowListEntry }[];
  /** Allow-list entries that matched no finding. */
  readonly stale: AllowListEntry[];
  /** LOW and INFORMATIONAL findings: reported, not gated. */
  readonly ungated: Finding[];
  readonly unparsed: { readonly file: string; readonly message: string }[];
}

const matches = (entry: AllowListEntry, finding: Finding) =>
  entry.check === finding.check && entry.file === finding.file && finding.code.includes(entry.code);

export function judgeFindings(
  findings: readonly Finding[],
  allowList: readonly AllowListEntry[],
  unparsed: readonly { file: string; message: string }[] = [],
): GateVerdict {
  const unused = [...allowList];
  const unjustified: Finding[] = [];
  const justified: GateVerdict['justified'][number][] = [];
  const ungated: Finding[] = [];
  for (const finding of findings) {
    if (!gatedSeverities.includes(finding.severity)) {
      ungated.push(finding);
      continue;
    }
    // One entry justifies one finding: a second openExternal in the same file needs its own review.
    const index = unused.findIndex((entry) => matches(entry, finding));
    if (index === -1) unjustified.push(finding);
    else justified.push({ finding, entry: unused.splice(index, 1)[0]! });
  }
  return {
    passed: unjustified.length === 0 && unused.length === 0 && unparsed.length === 0,
    unjustified,
    justified,
    stale: unused,
    ungated,
    unparsed: [...unparsed],
  };
}

export function describeVerdict(verdict: GateVerdict, scannedFiles: number): string[] {
  const at = (finding: Finding) => `${finding.file}:${finding.line}`;
  const lines = [
    `Electronegativity scanned ${scannedFiles} files: ${verdict.unjustified.length + verdict.justified.length} HIGH/MEDIUM findings ` +
      `(${verdict.justified.length} justified in the allow-list, ${verdict.unjustified.length} unjustified), ` +
      `${verdict.ungated.length} LOW/INFORMATIONAL (not gated).`,
  ];
  for (const finding of verdict.unjustified) {
    lines.push(`  UNJUSTIFIED ${finding.severity} ${finding.check} at ${at(finding)}: ${finding.code}`);
    lines.push(`    ${finding.description}`);
  }
  for (const entry of verdict.stale) {
    lines.push(
      `  STALE allow-list entry ${entry.check} in ${entry.file} ("${entry.code}") matches no finding: remove it.`,
    );
  }
  for (const { file, message } of verdict.unparsed) {
    lines.push(`  UNSCANNED ${file}: ${message}`);
  }
  for (const { finding, entry } of verdict.justified) {
    lines.push(`  allowed ${finding.severity} ${finding.check} at ${at(finding)}: ${entry.justification}`);
  }
  for (const finding of verdict.ungated) {
    lines.push(`  note ${finding.severity} ${finding.check} at ${at(finding)}: ${finding.description}`);
  }
  return lines;
}
