import { onTestFinished } from 'vitest';

/**
 * A list of things to close when the running test ends, in reverse order of `add`. Each module
 * that starts servers or routers for tests keeps one. A hook registered when a helper module is
 * imported (`afterEach` at its top level) runs only in the first test file of a worker that
 * shares its module graph (`isolate: false`): later files would leave their servers open. So
 * the first `add` of each test registers the test's own `onTestFinished` instead.
 */
export function closeAfterTest(): (close: () => Promise<void>) => void {
  const closers: Array<() => Promise<void>> = [];
  return (close) => {
    if (closers.length === 0)
      onTestFinished(async () => {
        for (const c of closers.splice(0).reverse()) await c();
      });
    closers.push(close);
  };
}
