import { defineConfig } from 'tsup';

export default defineConfig([
  {
    // The package's entry alone: its chunks are split only against the code it loads with
    // import() (the provider adapters), so `import('voxroute')` reads a few files, not one per
    // combination of entry points that share a module (each file costs the import ~0.5 ms).
    entry: { index: 'src/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    // dist/ is emptied by the build script before tsup runs (the configs build at once).
    clean: false,
    target: 'node20',
    // tsup's default: split the ESM build (chunks loaded with import()), not the CommonJS one,
    // where a dynamic import() of a chunk fails in sandboxes that refuse it (Jest without
    // --experimental-vm-modules): there the adapters' code is in the file, run on first use.
    treeshake: true,
  },
  {
    // The subpath entries. voxroute/ai-sdk and voxroute/livekit use the package's public API
    // through its own name (one copy of every class, e.g. RequestError, for their callers);
    // voxroute/testing carries its own copies of the config helpers it uses (pure functions;
    // a resolved config is recognised across copies by a Symbol.for marker).
    entry: {
      'testing/index': 'src/testing/index.ts',
      'ai-sdk/index': 'src/ai-sdk/index.ts',
      'livekit/index': 'src/livekit/index.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: false,
    target: 'node20',
    // Split in ESM only (tsup's default), as above.
    treeshake: true,
    // Optional peer dependencies of voxroute/testing (msw, ws, selfsigned), voxroute/ai-sdk (types only) and
    // voxroute/livekit; never bundled, so the app's own copies are the ones used.
    external: [
      'voxroute',
      'msw',
      'ws',
      'selfsigned',
      '@ai-sdk/provider',
      '@livekit/agents',
      '@livekit/rtc-node',
    ],
  },
  {
    entry: { 'cli/main': 'src/cli/main.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'node20',
    // One file: the commands' dynamic imports are inlined (no chunks in dist/ that the other
    // configs' chunks could collide with, and `import.meta.url` stays dist/cli/main.js).
    splitting: false,
    // The CLI uses the package's public API through its own name (Node's package
    // self-reference resolves it to dist/), so it carries no second copy of the library.
    external: ['voxroute', 'voxroute/testing', 'msw', 'ws', 'selfsigned'],
    // tsup marks an output that starts with a shebang as executable (mode 0755).
    banner: { js: '#!/usr/bin/env node' },
  },
]);
