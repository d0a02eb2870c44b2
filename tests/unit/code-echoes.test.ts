import { describe, expect, it } from 'vitest';
import { createCodeEchoes } from '../../src/client/features/code/code-echoes.ts';

describe('code echoes', () => {
  it('the editor’s own texts coming back, in order and late, are no change from outside', () => {
    const echoes = createCodeEchoes();
    echoes.reset('a');
    expect(echoes.fromOutside('a')).toBe(false);
    echoes.sent('ab');
    echoes.sent('abc');
    echoes.sent('abcd');
    expect(echoes.fromOutside('ab')).toBe(false);
    // A skipped echo drops the older ones with it.
    expect(echoes.fromOutside('abcd')).toBe(false);
    expect(echoes.fromOutside('abc')).toBe(true);
  });

  it('a value from outside is taken once, and forgets what was on its way', () => {
    const echoes = createCodeEchoes();
    echoes.reset('');
    echoes.sent('x');
    expect(echoes.fromOutside('restored')).toBe(true);
    expect(echoes.fromOutside('restored')).toBe(false);
    expect(echoes.fromOutside('x')).toBe(true);
  });

  it('keeps the last 50 texts sent', () => {
    const echoes = createCodeEchoes();
    echoes.reset('');
    for (let i = 0; i <= 50; i++) echoes.sent(`t${i}`);
    expect(echoes.fromOutside('t1')).toBe(false);
    echoes.reset('');
    for (let i = 0; i <= 50; i++) echoes.sent(`t${i}`);
    expect(echoes.fromOutside('t0')).toBe(true);
  });
});
