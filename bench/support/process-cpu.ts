import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** A process and its descendants (pgrep -P, breadth first). */
function tree(pid: number): number[] {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    try {
      pids.push(
        ...execFileSync('pgrep', ['-P', String(pids[i])], { encoding: 'utf8' })
          .trim()
          .split('\n')
          .filter(Boolean)
          .map(Number),
      );
    } catch {
      /* no children */
    }
  }
  return pids;
}

/**
 * CPU seconds (user + system, all threads) used so far by a process and its descendants, with the
 * time of children that already exited and were waited for (an embedded PostgreSQL's finished
 * backends count through the postmaster's cutime/cstime). `main` is the first process alone, the
 * rest is `children` (for a server: its embedded database).
 */
export function treeCpuSeconds(pid: number): { main: number; children: number; total: number } {
  let main = 0;
  let children = 0;
  for (const p of tree(pid)) {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // fields 14–17 of /proc/PID/stat (utime stime cutime cstime), here at 11–14 after the name
      const own = (Number(f[11]) + Number(f[12])) / TICKS;
      const waited = (Number(f[13]) + Number(f[14])) / TICKS;
      if (p === pid) main += own;
      else children += own;
      children += waited;
    } catch {
      /* gone */
    }
  }
  return { main, children, total: main + children };
}
