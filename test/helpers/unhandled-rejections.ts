import { afterEach, beforeEach } from 'vitest';

/**
 * The process's unhandled promise rejections during each test of the file that calls this (at
 * its top level): the returned array is emptied before each test and filled while it runs, so a
 * test can end with `expect(unhandled).toEqual([])`.
 */
export function collectUnhandledRejections(): unknown[] {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  beforeEach(() => {
    unhandled.length = 0;
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(() => {
    process.off('unhandledRejection', onUnhandled);
  });
  return unhandled;
}
