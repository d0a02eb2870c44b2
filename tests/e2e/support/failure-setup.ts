/** Each e2e test that fails prints what its browsers showed last (last-look.ts). */
import { beforeEach } from 'vitest';
import { forgetLooks, lastLooks } from './last-look.ts';

beforeEach(({ onTestFailed }) => {
  forgetLooks();
  onTestFailed(async () => {
    console.error(`What the test's browsers showed last:\n${await lastLooks()}`);
  });
});
