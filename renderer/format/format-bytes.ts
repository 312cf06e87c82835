const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;

/** "980 bytes", "1.4 kB", "12 MB": localized by Intl, 1,024 per step like file managers. */
export function formatBytes(bytes: number, locale: string): string {
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const text = new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: units[unit],
    unitDisplay: unit === 0 ? 'long' : 'short',
    maximumFractionDigits: unit === 0 || value >= 10 ? 0 : 1,
  }).format(value);
  return bytes < 0 ? `−${text}` : text;
}

/** "+180 bytes" / "−1.2 kB" / "±0 bytes". */
export function formatByteDelta(delta: number, locale: string): string {
  if (delta === 0) return `±${formatBytes(0, locale)}`;
  return delta > 0 ? `+${formatBytes(delta, locale)}` : formatBytes(delta, locale);
}
