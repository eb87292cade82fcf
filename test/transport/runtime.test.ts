import { describe, expect, it } from 'vitest';
import {
  canDispatch,
  defaultHttpClient,
  detectRuntime,
  type RuntimeDescriptor,
} from '../../src/transport/runtime.js';

const fetchStub = () => Promise.reject(new Error('not called'));

describe('detectRuntime', () => {
  it('tells Node, Bun and Deno apart by their globals (Bun and Deno also set process.versions.node)', () => {
    expect(detectRuntime({ process: { versions: { node: '20.19.0' } }, fetch: fetchStub })).toEqual({
      name: 'node',
      hasFetch: true,
    });
    expect(
      detectRuntime({ process: { versions: { node: '24.3.0', bun: '1.4.5' } }, fetch: fetchStub }),
    ).toEqual({ name: 'bun', hasFetch: true });
    expect(
      detectRuntime({
        Deno: { version: { deno: '2.9.6' } },
        process: { versions: { node: '24.2.0' } },
        fetch: fetchStub,
      }),
    ).toEqual({ name: 'deno', hasFetch: true });
    expect(detectRuntime({})).toEqual({ name: 'other', hasFetch: false });
    expect(detectRuntime({ process: { versions: { node: '20.19.0' } }, fetch: 'not a function' })).toEqual({
      name: 'node',
      hasFetch: false,
    });
  });

  it('describes this test process as Node', () => {
    expect(detectRuntime()).toEqual({ name: 'node', hasFetch: true });
  });
});

describe('defaultHttpClient', () => {
  const cases: [RuntimeDescriptor, 'undici' | 'fetch'][] = [
    [{ name: 'node', hasFetch: true }, 'undici'],
    [{ name: 'node', hasFetch: false }, 'undici'],
    [{ name: 'bun', hasFetch: true }, 'fetch'],
    [{ name: 'deno', hasFetch: true }, 'undici'],
    [{ name: 'other', hasFetch: true }, 'fetch'],
    [{ name: 'bun', hasFetch: false }, 'undici'],
    [{ name: 'other', hasFetch: false }, 'undici'],
  ];
  it.each(cases)('%o -> %s', (runtime, client) => {
    expect(defaultHttpClient(runtime)).toBe(client);
  });
});

describe('canDispatch', () => {
  it("is true only for an object with a dispatch method (Bun's undici Agent stub has none)", () => {
    expect(canDispatch({ dispatch() {} })).toBe(true);
    expect(canDispatch({ destroy() {} })).toBe(false);
    expect(canDispatch({ dispatch: 'x' })).toBe(false);
    expect(canDispatch(null)).toBe(false);
    expect(canDispatch(undefined)).toBe(false);
  });
});
