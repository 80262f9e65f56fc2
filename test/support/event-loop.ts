import { performance } from 'node:perf_hooks';

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

export interface LoopReport {
  /** Longest wall-clock gap between two ticks beyond the interval (what a client would wait). */
  longestGapMs: number;
  /**
   * Longest time the loop was held by work of this process: per gap, the smaller of the gap and the
   * CPU time the process used during it. A gap in which the process was merely not scheduled (a
   * loaded machine) uses little CPU and does not count; code that blocks the loop uses CPU throughout.
   */
  longestBlockMs: number;
}

/**
 * Watches the event loop with a timer every `intervalMs` until `stop()`. A stall shows as a late
 * tick; its CPU time tells a blocked loop from a starved process (see LoopReport).
 */
export function watchEventLoop(intervalMs = 10): { stop(): LoopReport } {
  let lastWall = performance.now();
  let lastCpu = cpuMs();
  const report: LoopReport = { longestGapMs: 0, longestBlockMs: 0 };
  const tick = () => {
    const wall = performance.now();
    const cpu = cpuMs();
    const gap = Math.max(0, wall - lastWall - intervalMs);
    report.longestGapMs = Math.max(report.longestGapMs, gap);
    report.longestBlockMs = Math.max(report.longestBlockMs, Math.min(gap, cpu - lastCpu));
    lastWall = wall;
    lastCpu = cpu;
  };
  const timer = setInterval(tick, intervalMs);
  return {
    stop() {
      tick();
      clearInterval(timer);
      return { ...report };
    },
  };
}
