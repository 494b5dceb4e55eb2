import { vi } from 'vitest';

type Call = (...args: unknown[]) => Promise<unknown>;

/**
 * Runs `before` when `object[method]` is next called, then the method itself: a race's other side,
 * put at a known point. The spy sees the call; `mockRestore()` it when done.
 */
export function beforeNextCall<K extends string>(
  object: Record<K, (...args: never[]) => Promise<unknown>>,
  method: K,
  before: () => Promise<unknown>,
) {
  const original = object[method] as Call;
  // (vi.spyOn types its key as a literal one of a known object)
  return vi.spyOn(object as unknown as { call: Call }, method as 'call').mockImplementationOnce(async (...args) => {
    await before();
    return original.apply(object, args);
  });
}

/** Holds the next call of `object[method]` until `release()`, then lets it through; `spy` sees it come. */
export function holdNextCall<K extends string>(object: Record<K, (...args: never[]) => Promise<unknown>>, method: K) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  return { spy: beforeNextCall(object, method, () => held), release };
}

/** Runs `after` with what the next call of `object[method]` answers, before its caller gets it. */
export function afterNextCall<O extends object, K extends keyof O & string>(
  object: O,
  method: K,
  after: (answer: O[K] extends (...args: never[]) => Promise<infer T> ? T : never) => Promise<unknown>,
) {
  const original = object[method] as Call;
  return vi.spyOn(object as unknown as { call: Call }, method as 'call').mockImplementationOnce(async (...args) => {
    const answer = (await original.apply(object, args)) as Parameters<typeof after>[0];
    await after(answer);
    return answer;
  });
}
