/** What a Storage port's freeBytes() answers when the host cannot measure free space. */
export const FREE_SPACE_UNKNOWN = Number.MAX_SAFE_INTEGER;

/** "3.4 GB free", or "free space unknown" when the host cannot tell. */
export function formatFree(n: number): string {
  return n >= FREE_SPACE_UNKNOWN ? "free space unknown" : `${formatBytes(n)} free`;
}

/** A byte count for people: 512 B, 3.4 KB, 12.0 MB, 1.50 GB. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 * 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`;
  return `${(n / (1024 * 1024 * 1024)).toFixed(2)} GB`;
}
