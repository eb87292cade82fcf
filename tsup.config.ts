import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      'testing/index': 'src/testing/index.ts',
      'ai-sdk/index': 'src/ai-sdk/index.ts',
      'livekit/index': 'src/livekit/index.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    // Both configs build at once into dist/: this one cleans it, but leaves dist/cli/ to the
    // other so that the clean never races with (and deletes) the freshly built CLI.
    clean: ['!cli/**'],
    target: 'node20',
    splitting: true,
    treeshake: true,
    // Optional peer dependencies of voxroute/testing (msw, ws, selfsigned), voxroute/ai-sdk (types only) and
    // voxroute/livekit; never bundled, so the app's own copies are the ones used.
    external: ['msw', 'ws', 'selfsigned', '@ai-sdk/provider', '@livekit/agents', '@livekit/rtc-node'],
  },
  {
    entry: { 'cli/main': 'src/cli/main.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'node20',
    // One file: the commands' dynamic imports are inlined (no chunks in dist/ that the other
    // config's clean could race with, and `import.meta.url` stays dist/cli/main.js).
    splitting: false,
    // The CLI uses the package's public API through its own name (Node's package
    // self-reference resolves it to dist/), so it carries no second copy of the library.
    external: ['voxroute', 'voxroute/testing', 'msw', 'ws', 'selfsigned'],
    // tsup marks an output that starts with a shebang as executable (mode 0755).
    banner: { js: '#!/usr/bin/env node' },
  },
]);
