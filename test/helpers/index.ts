/**
 * Helpers shared by the test folders: draining streams (collect, drain, collectUntilError),
 * joining and comparing bytes, feeding chunks, an error's fields (fieldsOf), and a tiny
 * loopback HTTP server that speaks whatever the test writes (for fault and security tests that
 * must not use our own mocks).
 */
export * from './bytes.js';
export * from './errors.js';
export * from './loopback.js';
export * from './streams.js';
