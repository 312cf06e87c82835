/** Every cap the file tools and the runner apply; all configurable, defaults from issue 3 and DESIGN.md. */
export interface ToolLimits {
  /** A whole-file read above this is refused with file_too_large (line ranges have no cap). */
  readonly maxReadBytes: number;
  /**
   * read_file answers a picture up to this size (its bytes go to the model and into the transcript);
   * a larger one is refused with file_too_large. 3.75 MB: its base64 stays under the 5 MB Anthropic
   * takes per image (and measures in base64).
   */
  readonly maxImageBytes: number;
  /** ...and up to this many pixels on its longer side: Anthropic refuses larger, and then every later turn that carries it. */
  readonly maxImageSide: number;
  /** write_file content and edit results above this are refused with file_too_large. */
  readonly maxWriteBytes: number;
  /** Text returned to the model by one read: lines and bytes, whichever comes first. */
  readonly maxOutputLines: number;
  readonly maxOutputBytes: number;
  /** A search result line is cut to this many characters around the match. */
  readonly maxLineChars: number;
  /** list_files entries when the model gives no max_entries, and the most it may ask for. */
  readonly defaultListEntries: number;
  readonly maxListEntries: number;
  /** Per conversation; the next call within the minute answers rate_limited. */
  readonly callsPerMinute: number;
  /** Every call ends by then with `timeout`, and its signal is aborted. */
  readonly timeoutMs: number;
  /**
   * The most characters of one result (as JSON) kept in the transcript and sent back: tools that
   * can answer long (list_files) stop below it themselves; the run stage cuts anything longer.
   */
  readonly maxResultChars: number;
}

export const defaultToolLimits: ToolLimits = {
  maxReadBytes: 10 * 1024 * 1024,
  maxImageBytes: (5 * 1024 * 1024 * 3) / 4,
  maxImageSide: 8000,
  maxWriteBytes: 5 * 1024 * 1024,
  // pi and OpenClaw settled on 2,000 lines / 50 KB: enough to work, small enough for the context.
  maxOutputLines: 2000,
  maxOutputBytes: 50 * 1024,
  maxLineChars: 500,
  defaultListEntries: 500,
  maxListEntries: 10_000,
  callsPerMinute: 100,
  timeoutMs: 30_000,
  maxResultChars: 200_000,
};

export const resolveToolLimits = (overrides: Partial<ToolLimits> = {}): ToolLimits => ({
  ...defaultToolLimits,
  ...overrides,
});
