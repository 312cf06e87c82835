/**
 * The one conversation `--smoke-test` runs: the user asks for a file, the model calls write_file
 * (which the default policy holds for approval), the user approves in the real dialog, the model
 * sees the tool's result and answers. Both the scripted server and the page probes read these.
 */
export const smokeScript = {
  model: 'familiar-smoke',
  userMessage: 'Please write the smoke test file.',
  toolCallId: 'call_familiar_smoke_write',
  /** A new project file: the default policy asks before writing it. */
  file: 'familiar-smoke-test.md',
  content: '# Smoke test\n\nWritten by `Familiar --smoke-test` after the approval was given.\n',
  preamble: 'I will write the file.',
  reply: 'The smoke test file is written.',
} as const;

export type SmokeScript = typeof smokeScript;
