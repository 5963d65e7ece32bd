import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** RSS of a process and all its descendants, in MB (proportional share, so shared pages count once). */
export function treeMemoryMb(pid: number): { rss: number; pss: number; processes: number } {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    try {
      const out = execFileSync('pgrep', ['-P', String(pids[i])], { encoding: 'utf8' });
      pids.push(...out.trim().split('\n').filter(Boolean).map(Number));
    } catch {
      /* no children */
    }
  }
  let rss = 0;
  let pss = 0;
  for (const p of pids) {
    try {
      const s = fs.readFileSync(`/proc/${p}/smaps_rollup`, 'utf8');
      rss += Number(/^Rss:\s+(\d+)/m.exec(s)![1]);
      pss += Number(/^Pss:\s+(\d+)/m.exec(s)![1]);
    } catch {
      /* gone */
    }
  }
  return { rss: Math.round(rss / 1024), pss: Math.round(pss / 1024), processes: pids.length };
}
