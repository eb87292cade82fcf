/** The config's schemas are built on first use with the shared helper (see src/internal/lazy.ts). */
export { lazy } from '../internal/lazy.js';
