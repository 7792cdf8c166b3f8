import { describe, expect, it } from 'vitest';
import { CircuitBreaker } from './circuit-breaker.ts';

function breakerOn() {
  let time = 0;
  const changes: boolean[] = [];
  const breaker = new CircuitBreaker(
    3,
    1000,
    (open) => changes.push(open),
    () => time,
  );
  const advance = (ms: number) => {
    time += ms;
  };
  return { breaker, changes, advance };
}

describe('CircuitBreaker', () => {
  it('opens after failures in a row, not after failures between successes', () => {
    const { breaker, changes } = breakerOn();
    breaker.failed();
    breaker.failed();
    breaker.succeeded();
    breaker.failed();
    breaker.failed();
    expect(breaker.open).toBe(false);
    breaker.failed();
    expect(breaker.open).toBe(true);
    expect(breaker.allows()).toBe(false);
    expect(changes).toEqual([true]);
  });

  it('lets one trial through after the pause; its success closes the circuit, said once', () => {
    const { breaker, changes, advance } = breakerOn();
    for (let i = 0; i < 3; i++) breaker.failed();
    advance(1000);
    expect(breaker.allows()).toBe(true);
    // Only one trial at a time.
    expect(breaker.allows()).toBe(false);
    breaker.succeeded();
    expect(breaker.open).toBe(false);
    expect(breaker.allows()).toBe(true);
    expect(changes).toEqual([true, false]);
  });

  it('stays open for another pause when the trial fails, without saying so again', () => {
    const { breaker, changes, advance } = breakerOn();
    for (let i = 0; i < 3; i++) breaker.failed();
    advance(1000);
    expect(breaker.allows()).toBe(true);
    breaker.failed();
    expect(breaker.allows()).toBe(false);
    advance(999);
    expect(breaker.allows()).toBe(false);
    advance(1);
    expect(breaker.allows()).toBe(true);
    expect(changes).toEqual([true]);
  });
});
