// Types of the one export voxroute uses from `@echogarden/speex-resampler-wasm` (an Emscripten
// module factory; the package ships no type declarations). See speex-wasm.ts.
declare module '@echogarden/speex-resampler-wasm/simd' {
  const instantiate: (options?: object) => Promise<unknown>;
  export default instantiate;
}
