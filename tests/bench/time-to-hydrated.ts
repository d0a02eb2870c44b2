/**
 * How soon each first screen becomes the app's (hydrated: taps answered by React) on a slow phone,
 * for one build or several side by side:
 * `npx tsx tests/bench/time-to-hydrated.ts [rounds] [root ...]` (each root a project folder with
 * a build; this one by default). The pages are /home, the newest post's detail and its author's
 * user centre, loaded in a fresh Chromium profile at Lighthouse's phone (412 × 823, its user
 * agent) over Lighthouse's mobile network (150 ms round trips, 1.6 Mbit/s down, 750 kbit/s up),
 * applied for real by Chromium (Network.emulateNetworkConditions), and a 4 × slower CPU. The
 * builds take turns within each round (the order alternating), and each build's median is printed
 * beside its ratio to the first build's in the same rounds.
 */
import { resolve } from 'node:path';
import { demoPagesOf, startBuiltServer, type BuiltServer } from './built-server.ts';
import { launchLighthousePhone } from './lighthouse-phone.ts';
import { median } from './stats.ts';

const ROUNDS = Number(process.argv[2] ?? 5);
const ROOTS = process.argv.length > 3 ? process.argv.slice(3).map((root) => resolve(root)) : [resolve('.')];
const CPU_SLOWDOWN = 4;
const NETWORK = { offline: false, latency: 150, downloadThroughput: (1638.4 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };

/** Milliseconds from the navigation's start until the app has hydrated the server's first screen. */
async function timeToHydrated(url: string): Promise<number> {
  const phone = await launchLighthousePhone();
  try {
    const { page, cdp } = phone;
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', NETWORK);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.goto(url, { waitUntil: 'commit' });
    // The client sets the layout on <html> and, once hydrated, drops the server render's class (app/first-screen-hydration.ts).
    await page.waitForFunction(() => document.documentElement.dataset.layout && !document.querySelector('.first-screen--mobile, .first-screen--pc'), undefined, {
      timeout: 60_000,
      polling: 20,
    });
    return await page.evaluate(() => performance.now());
  } finally {
    await phone.close();
  }
}

async function main(): Promise<void> {
  const servers: BuiltServer[] = [];
  try {
    for (const root of ROOTS) servers.push(await startBuiltServer(root));
    const pages: Record<string, string>[] = await Promise.all(servers.map(demoPagesOf));
    const times = new Map<string, number[]>();
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? servers.map((_, i) => i) : servers.map((_, i) => servers.length - 1 - i);
      for (const name of Object.keys(pages[0]!)) {
        for (const i of order) {
          const ms = await timeToHydrated(`${servers[i]!.url}${pages[i]![name]}`);
          const key = `${name} ${i}`;
          times.set(key, [...(times.get(key) ?? []), ms]);
          console.log(`round ${round + 1} ${name.padEnd(10)} ${ROOTS[i]} hydrated at ${Math.round(ms)} ms`);
        }
      }
    }
    console.log(`\nhydrated at, median of ${ROUNDS} (ms), and the ratio of each round's time to the first build's:`);
    for (const name of Object.keys(pages[0]!)) {
      const first = times.get(`${name} 0`)!;
      ROOTS.forEach((root, i) => {
        const mine = times.get(`${name} ${i}`)!;
        const ratio = median(mine.map((ms, round) => ms / first[round]!));
        console.log(`  ${name.padEnd(10)} ${String(Math.round(median(mine))).padStart(6)}  ${ratio.toFixed(2)} ×  ${root} (${mine.map(Math.round).join(', ')})`);
      });
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

await main();
