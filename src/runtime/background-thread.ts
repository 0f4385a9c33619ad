import fs from 'node:fs';
import os from 'node:os';

/**
 * Lowers the CPU priority of the calling worker thread (nice 10 by default) on Linux, where a thread
 * has its own nice value: on a machine with few cores a long search or parse in a worker must not
 * take the core the event loop needs to answer quick requests. Elsewhere this does nothing.
 */
export function lowerThreadPriority(nice = 10): void {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, nice);
  } catch {
    /* not Linux, or not allowed: run at normal priority */
  }
}
