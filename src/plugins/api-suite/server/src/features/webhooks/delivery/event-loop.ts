import { performance, type EventLoopUtilization } from 'node:perf_hooks';

/**
 * How busy this process's event loop has been lately: the share of the last `windowMs` it spent
 * running code rather than waiting for I/O, sampled on a timer (unref'd: it never keeps the
 * process alive). `busy()` is true above `threshold`.
 */
export function eventLoopGauge(windowMs: number, threshold: number): { busy(): boolean; utilization(): number; stop(): void } {
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  let recent = 0;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    recent = performance.eventLoopUtilization(now, last).utilization;
    last = now;
  }, windowMs);
  timer.unref();
  return {
    busy: () => recent > threshold,
    utilization: () => recent,
    stop: () => clearInterval(timer),
  };
}
