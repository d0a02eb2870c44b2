/**
 * Where the main thread goes while a page loads, at a fixed CPU slowdown:
 * `npx tsx tests/bench/main-thread-trace.ts [rounds] [root]` (after `npm run build`; root is a
 * project folder with a build, this one by default).
 *
 * Our build on a fresh PGlite folder seeded with the demo community, as the bench's first-screen
 * groups run it; the pages are /home, the newest post's detail and its author's user centre. Each
 * load runs in a fresh Chromium profile at Lighthouse's phone (412 × 823 at 1.75×, its user
 * agent), the CPU slowed 4 × for real (Emulation.setCPUThrottlingRate, not Lighthouse's
 * simulation; `TRACE_CPU_SLOWDOWN=1` runs it unthrottled and counts each task 4 times, as the
 * simulation does), no network throttling, and is traced until 6 s after the load event. The trace is
 * cut into tasks by Lighthouse's own tracehouse (what its bootup-time and
 * mainthread-work-breakdown audits use): the long tasks (over 50 ms) and their blocking time (the
 * part past 50 ms, as total blocking time counts it), the work per group and per script, and the
 * JS functions with the most self time (a CPU profile taken alongside).
 */
import { join, resolve } from 'node:path';
import { readFileSync, existsSync } from 'node:fs';
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';
import type { CDPSession } from 'playwright-core';
import { MainThreadTasks } from 'lighthouse/core/lib/tracehouse/main-thread-tasks.js';
import { TraceProcessor } from 'lighthouse/core/lib/tracehouse/trace-processor.js';
import { demoPagesOf, startBuiltServer } from './built-server.ts';
import { launchLighthousePhone } from './lighthouse-phone.ts';
import { median } from './stats.ts';

const ROUNDS = Number(process.argv[2] ?? 3);
const ROOT = resolve(process.argv[3] ?? '.');
/** Lighthouse's simulated phone CPU: the tasks it observed, 4 times as long. */
const SIMULATED_SLOWDOWN = 4;
/**
 * The real slowdown of the traced CPU (TRACE_CPU_SLOWDOWN, 4 by default). At 1 the page runs
 * unthrottled and each task counts 4 times its length, as Lighthouse's simulation counts it.
 */
const CPU_SLOWDOWN = Number(process.env.TRACE_CPU_SLOWDOWN ?? SIMULATED_SLOWDOWN);
const TASK_SCALE = SIMULATED_SLOWDOWN / CPU_SLOWDOWN;
const LONG_TASK_MS = 50;
const SETTLE_MS = 6000;
const TRACE_CATEGORIES = [
  '-*',
  'toplevel',
  'v8.execute',
  'v8',
  'blink.console',
  'blink.user_timing',
  'loading',
  'latencyInfo',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'disabled-by-default-devtools.timeline.stack',
];

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args: Record<string, unknown>;
}
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

async function collectTrace(cdp: CDPSession, run: () => Promise<void>): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
  const complete = new Promise<void>((done) => cdp.once('Tracing.tracingComplete', () => done()));
  await cdp.send('Tracing.start', { categories: TRACE_CATEGORIES.join(','), transferMode: 'ReportEvents' });
  await run();
  await cdp.send('Tracing.end');
  await complete;
  return events;
}

interface LoadFigures {
  mainThreadMs: number;
  longTasks: number;
  blockingMs: number;
  longestMs: number;
  fcpMs: number;
  lcpMs: number;
  /** Blocking time of the long tasks after the first contentful paint (what TBT counts, to the end of the trace). */
  blockingAfterFcpMs: number;
  domNodes: number;
  byGroup: Map<string, number>;
  byScript: Map<string, number>;
  longTaskList: string[];
  functions: Map<string, number>;
  modules: Map<string, number>;
  events: Map<string, number>;
}

const sourceMaps = new Map<string, TraceMap | null>();
/** The original module (a package, or a file of ours) and function of a position in a built script. */
function original(url: string, line: number, column: number): { module: string; name: string } | undefined {
  const file = /\/assets\/[^/?]+\.js$/.exec(url)?.[0];
  if (!file) return undefined;
  if (!sourceMaps.has(file)) {
    const mapFile = join(ROOT, 'dist/client', `${file}.map`);
    sourceMaps.set(file, existsSync(mapFile) ? new TraceMap(readFileSync(mapFile, 'utf8')) : null);
  }
  const map = sourceMaps.get(file);
  if (!map) return undefined;
  const position = originalPositionFor(map, { line: line + 1, column });
  if (!position.source) return undefined;
  const source = position.source.replace(/^(\.\.\/)+/, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)?.[1];
  return { module: pkg ?? source, name: `${position.name ?? '?'} ${source}:${position.line}` };
}

const shortUrl = (url: string) => url.replace(/^https?:\/\/[^/]+/, '').replace(/-[\w-]{8}\.js$/, '.js');

async function traceLoad(url: string): Promise<LoadFigures> {
  const phone = await launchLighthousePhone();
  try {
    const { page, cdp } = phone;
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    let profile: Profile | undefined;
    let domNodes = 0;
    const events = await collectTrace(cdp, async () => {
      await cdp.send('Profiler.start');
      await page.goto(url, { waitUntil: 'load' });
      await page.waitForTimeout(SETTLE_MS);
      profile = ((await cdp.send('Profiler.stop')) as { profile: Profile }).profile;
      domNodes = await page.evaluate(() => document.getElementsByTagName('*').length);
    });
    const processed = TraceProcessor.processTrace({ traceEvents: events } as never) as {
      mainThreadEvents: TraceEvent[];
      frames: unknown[];
      timestamps: { traceEnd: number; timeOrigin: number };
    };
    const tasks = MainThreadTasks.getMainThreadTasks(
      processed.mainThreadEvents as never,
      processed.frames as never,
      processed.timestamps.traceEnd,
      processed.timestamps.timeOrigin,
    ) as unknown as Array<{
      parent?: unknown;
      duration: number;
      selfTime: number;
      startTime: number;
      group: { id: string };
      attributableURLs: string[];
      event: { name: string };
    }>;
    const figures: LoadFigures = {
      mainThreadMs: 0,
      longTasks: 0,
      blockingMs: 0,
      longestMs: 0,
      fcpMs: 0,
      lcpMs: 0,
      blockingAfterFcpMs: 0,
      domNodes,
      byGroup: new Map(),
      byScript: new Map(),
      longTaskList: [],
      functions: new Map(),
      modules: new Map(),
      events: new Map(),
    };
    const navigation = TraceProcessor.processNavigation(processed as never) as unknown as { timings: { firstContentfulPaint?: number; largestContentfulPaint?: number } };
    figures.fcpMs = navigation.timings.firstContentfulPaint ?? 0;
    figures.lcpMs = navigation.timings.largestContentfulPaint ?? 0;
    // The profile's samples on the trace's clock, in ms from the time origin, mapped to where they come from.
    const samples: Array<{ at: number; ms: number; module: string; name: string }> = [];
    if (profile) {
      const byId = new Map(profile.nodes.map((node) => [node.id, node]));
      let at = (profile as unknown as { startTime: number }).startTime;
      profile.samples.forEach((id, i) => {
        at += profile!.timeDeltas[i] ?? 0;
        const frame = byId.get(id)!.callFrame;
        const mapped = original(frame.url, frame.lineNumber, frame.columnNumber);
        samples.push({
          at: (at - processed.timestamps.timeOrigin) / 1000,
          ms: (profile!.timeDeltas[i + 1] ?? 0) / 1000,
          module: mapped?.module ?? (frame.url ? shortUrl(frame.url) : frame.functionName),
          name: mapped?.name ?? `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`,
        });
      });
    }
    const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);
    for (const task of tasks) {
      add(figures.byGroup, task.group.id, task.selfTime);
      add(figures.events, `${task.group.id}/${task.event.name}`, task.selfTime);
      const script = task.attributableURLs.find((u) => u.endsWith('.js')) ?? task.attributableURLs[0] ?? 'other';
      add(figures.byScript, shortUrl(script), task.selfTime);
      figures.mainThreadMs += task.selfTime;
      if (task.parent) continue;
      const duration = task.duration * TASK_SCALE;
      if (duration > LONG_TASK_MS) {
        figures.longTasks++;
        figures.blockingMs += duration - LONG_TASK_MS;
        if (task.startTime >= figures.fcpMs) figures.blockingAfterFcpMs += duration - LONG_TASK_MS;
        const inTask = new Map<string, number>();
        const modulesInTask = new Map<string, number>();
        for (const sample of samples) {
          if (sample.at < task.startTime || sample.at >= task.startTime + task.duration) continue;
          add(modulesInTask, sample.module, sample.ms);
          if (!sample.name.startsWith('(')) add(inTask, sample.name.replace(/work\/wt-int\/node_modules\//, ''), sample.ms);
        }
        const groups = new Map<string, number>();
        const visit = (node: typeof task) => {
          add(groups, node.group.id, node.selfTime);
          for (const child of (node as unknown as { children: Array<typeof task> }).children) visit(child);
        };
        visit(task);
        figures.longTaskList.push(`${Math.round(task.startTime)}+${Math.round(duration)} ${task.event.name} ${shortUrl(script)} [${top(groups, 4).join(', ')}]\n        ${top(inTask, 4).join(' | ')}\n        modules: ${top(modulesInTask, 8).join(' | ')}`);
      }
      figures.longestMs = Math.max(figures.longestMs, duration);
    }
    for (const sample of samples) {
      add(figures.functions, sample.name, sample.ms);
      add(figures.modules, sample.module, sample.ms);
    }
    return figures;
  } finally {
    await phone.close();
  }
}

const top = (map: Map<string, number>, n: number) =>
  [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([key, ms]) => `${Math.round(ms)} ${key}`);

async function main(): Promise<void> {
  const server = await startBuiltServer(ROOT);
  try {
    const pages = await demoPagesOf(server);
    const runs = new Map<string, LoadFigures[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, path] of Object.entries(pages).filter(([name]) => !process.env.TRACE_PAGES || process.env.TRACE_PAGES.split(',').includes(name))) {
        const figures = await traceLoad(`${server.url}${path}`);
        runs.set(name, [...(runs.get(name) ?? []), figures]);
        console.log(
          `round ${round + 1} ${name.padEnd(10)} main thread ${Math.round(figures.mainThreadMs)} ms, long tasks ${figures.longTasks}, blocking ${Math.round(figures.blockingMs)} ms, longest ${Math.round(figures.longestMs)} ms, FCP ${Math.round(figures.fcpMs)} ms, blocking after FCP ${Math.round(figures.blockingAfterFcpMs)} ms, LCP ${Math.round(figures.lcpMs)} ms, DOM ${figures.domNodes}`,
        );
      }
    }
    for (const [name, list] of runs) {
      const m = (pick: (f: LoadFigures) => number) => Math.round(median(list.map(pick)));
      console.log(`\n== ${name} (${pages[name as keyof typeof pages]}), median of ${list.length}: main thread ${m((f) => f.mainThreadMs)} ms, long tasks ${m((f) => f.longTasks)}, blocking ${m((f) => f.blockingMs)} ms, longest ${m((f) => f.longestMs)} ms, FCP ${m((f) => f.fcpMs)} ms, blocking after FCP ${m((f) => f.blockingAfterFcpMs)} ms, LCP ${m((f) => f.lcpMs)} ms, DOM ${m((f) => f.domNodes)}`);
      const last = list[list.length - 1]!;
      console.log('  by group (last run):', top(last.byGroup, 8).join(' · '));
      console.log('  by script (last run):\n    ' + top(last.byScript, 12).join('\n    '));
      console.log('  long tasks (last run, start+duration ms):\n    ' + last.longTaskList.join('\n    '));
      console.log('  by trace event (last run):\n    ' + top(last.events, 20).join('\n    '));
      console.log('  JS self time by module (last run):\n    ' + top(last.modules, 25).join('\n    '));
      console.log('  JS self time by function (last run):\n    ' + top(last.functions, 30).join('\n    '));
    }
  } finally {
    await server.stop();
  }
}

await main();
