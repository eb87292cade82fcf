/** instrumentRouter with something that is not a router: a TypeError naming the argument. */
import { describe, expect, it } from 'vitest';
import { instrumentRouter } from '../../src/index.js';

describe('instrumentRouter: the router argument is checked', () => {
  it('null, or an object without on(), rejects with a TypeError naming it', async () => {
    // It was "Cannot read properties of null (reading 'on')" and "router.on is not a function".
    for (const [router, shape] of [
      [null, 'null'],
      [{}, 'an object (Object)'],
      [undefined, 'undefined'],
    ] as const) {
      await expect(instrumentRouter(router as never)).rejects.toThrow(
        new TypeError(
          `instrumentRouter(router): router must be a router from createRouter() (anything with on(event, listener)), got ${shape}`,
        ),
      );
    }
  });
});
