/**
 * Per-thread CPU accounting of this process, for the benchmarks' diagnostics (Linux only): how
 * long the main thread waited for a CPU, and how much CPU the process's other threads (V8's
 * compiler and garbage-collection helpers, libuv's pool) used, between two readings. Read from
 * `/proc/self/task/<tid>/schedstat` (fields: time on a CPU in ns, time waiting on a run queue in
 * ns, timeslices; Linux `Documentation/scheduler/sched-stats.rst`).
 *
 * Caveats: the kernel updates a thread's figures when it is switched out, so the reading of a
 * thread that is running on another core lags by its current slice; and each reading costs a few
 * µs per thread (take them outside any timed window).
 */
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';

/** One reading, in ns. */
export interface ThreadReading {
  /** Main thread: time spent on a CPU. */
  mainRunNs: number;
  /** Main thread: time spent waiting for a CPU (run queue delay). */
  mainWaitNs: number;
  /** Every other thread of the process: time spent on a CPU, summed. */
  othersRunNs: number;
}

/** Readings of this process's threads, or undefined where /proc is not there. */
export interface ThreadClock {
  read(): ThreadReading;
  /** Looks for threads started since the last call (V8 and libuv start some lazily). */
  refresh(): void;
  close(): void;
}

/** A {@link ThreadClock}, or undefined when this is not Linux (no /proc/self/task). */
export function openThreadClock(): ThreadClock | undefined {
  const main = String(process.pid);
  let mainFd: number;
  try {
    mainFd = openSync(`/proc/self/task/${main}/schedstat`, 'r');
  } catch {
    return undefined;
  }
  const buf = Buffer.alloc(128);
  let others: number[] = [];
  const fields = (fd: number): [number, number] => {
    const n = readSync(fd, buf, 0, buf.length, 0);
    const text = buf.toString('latin1', 0, n);
    const space = text.indexOf(' ');
    return [Number(text.slice(0, space)), Number(text.slice(space + 1, text.indexOf(' ', space + 1)))];
  };
  const closeOthers = () => {
    for (const fd of others) closeSync(fd);
    others = [];
  };
  const clock: ThreadClock = {
    read() {
      const [mainRunNs, mainWaitNs] = fields(mainFd);
      let othersRunNs = 0;
      for (const fd of others) {
        try {
          othersRunNs += fields(fd)[0];
        } catch {
          // the thread ended: its time no longer counts (rare: V8's and libuv's threads stay)
        }
      }
      return { mainRunNs, mainWaitNs, othersRunNs };
    },
    refresh() {
      closeOthers();
      for (const tid of readdirSync('/proc/self/task')) {
        if (tid === main) continue;
        try {
          others.push(openSync(`/proc/self/task/${tid}/schedstat`, 'r'));
        } catch {
          // the thread ended in between
        }
      }
    },
    close() {
      closeOthers();
      closeSync(mainFd);
    },
  };
  clock.refresh();
  return clock;
}
