/** The rows of a fixed-height virtual list worth rendering, and the pages of `pageSize` they need (nothing else is fetched). */
export function visibleRange(scrollTop: number, viewport: number, rowHeight: number, count: number, overscan = 4) {
  if (count <= 0) return { start: 0, end: 0 };
  const start = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const end = Math.min(count, Math.ceil((scrollTop + viewport) / rowHeight) + overscan);
  return { start, end };
}

export function pagesFor(range: { start: number; end: number }, pageSize: number): number[] {
  if (range.end <= range.start) return [];
  const pages: number[] = [];
  for (let p = Math.floor(range.start / pageSize); p <= Math.floor((range.end - 1) / pageSize); p++) pages.push(p);
  return pages;
}
