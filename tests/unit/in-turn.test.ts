// @vitest-environment node
/**
 * lib/in-turn.ts: pieces of work in later tasks, a few ms of them per task, counting a piece's
 * time to its end (its part after an await too), never one long task for many pieces.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as InTurnModule from '../../src/client/lib/in-turn.ts';

let clock = 0;
let inTurn: typeof InTurnModule.inTurn;
let TURN_SLICE_MS: number;
beforeEach(async () => {
  // Each test with the module's queue of its own.
  vi.resetModules();
  ({ inTurn, TURN_SLICE_MS } = await import('../../src/client/lib/in-turn.ts'));
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  vi.spyOn(performance, 'now').mockImplementation(() => clock);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A piece that spends `ms` of the clock before its await and as much after it, then logs its end. */
const piece = (name: string, ms: number, done: string[]) => async () => {
  clock += ms;
  await Promise.resolve();
  clock += ms;
  done.push(name);
  return name;
};

/** Runs the next task (timer), then every microtask it left: what finished in that task. */
async function nextTask(done: string[]): Promise<string[]> {
  const before = done.length;
  vi.advanceTimersToNextTimer();
  for (let i = 0; i < 20; i++) await Promise.resolve();
  return done.slice(before);
}

/** The pieces each task finished, task by task, until none is left. */
async function tasksUntilDone(done: string[], count: number): Promise<string[][]> {
  const tasks: string[][] = [];
  while (done.length < count && tasks.length < 50) tasks.push(await nextTask(done));
  return tasks.filter((finished) => finished.length > 0);
}

describe('inTurn', () => {
  it('runs nothing at once, then one piece a task when each takes the slice, counting its part after an await', async () => {
    const done: string[] = [];
    const ms = Math.ceil(TURN_SLICE_MS / 2) + 1; // before and after the await: more than a slice
    const results = ['a', 'b', 'c'].map((name) => inTurn(piece(name, ms, done)));
    await Promise.resolve();
    expect(done).toEqual([]);
    expect(await tasksUntilDone(done, 3)).toEqual([['a'], ['b'], ['c']]);
    await expect(Promise.all(results)).resolves.toEqual(['a', 'b', 'c']);
  });

  it('runs short pieces together in one task', async () => {
    const done: string[] = [];
    for (const name of ['a', 'b', 'c']) void inTurn(piece(name, 0.1, done));
    expect(await tasksUntilDone(done, 3)).toEqual([['a', 'b', 'c']]);
  });

  it('does not hold the others for a piece that waits for something outside, and passes on its failure', async () => {
    const done: string[] = [];
    let arrive!: () => void;
    const slow = inTurn(() => new Promise<string>((_resolve, reject) => (arrive = () => reject(new Error('no chunk')))));
    const next = inTurn(piece('next', 0.1, done));
    expect(await tasksUntilDone(done, 1)).toEqual([['next']]);
    arrive();
    await expect(slow).rejects.toThrow('no chunk');
    await expect(next).resolves.toBe('next');
  });

  it('takes pieces added while a slice runs in the same turn, never two slices at once', async () => {
    const done: string[] = [];
    const ms = Math.ceil(TURN_SLICE_MS / 2) + 1;
    void inTurn(async () => {
      clock += ms;
      await Promise.resolve();
      void inTurn(piece('added', ms, done));
      clock += ms;
      done.push('first');
    });
    expect(await tasksUntilDone(done, 2)).toEqual([['first'], ['added']]);
  });
});
