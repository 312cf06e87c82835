/**
 * "5.0 MB", "812 KB", "96 bytes": sizes in the English messages the model (and the audit) reads.
 * The UI formats sizes for the user's locale instead (renderer/format/format-bytes.ts).
 */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}
