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

/**
 * The second conversation: the model asks run_command to run a shell script that writes inside the
 * workspace, writes into Familiar's home and reads its settings (outside the workspace: what the
 * operating system's confinement must refuse), and reports each outcome on a line of its own. The
 * command line itself is made at run time (confinement-check.ts): it names the scratch home.
 */
export const confinementScript = {
  userMessage: 'Please run the confinement check.',
  toolCallId: 'call_familiar_smoke_confinement',
  /** Written inside the workspace by the command: the control that the command ran at all. */
  insideFile: 'familiar-smoke-confined.txt',
  insideContent: 'inside\n',
  preamble: 'I will run the check.',
  reply: 'The check ran.',
} as const;
