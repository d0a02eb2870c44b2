/**
 * What the first-screen bench reads from a Lighthouse result (its JSON "LHR"), and the medians
 * over rounds. Pure functions over the parts of the result they name, so they are unit-tested
 * (tests/api/bench-first-screen.test.ts) without running Lighthouse.
 */
import { median } from './stats.ts';

/** The categories the first screen is held to (performance, accessibility, best practices, SEO: 100 each). */
export const LIGHTHOUSE_CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type LighthouseCategory = (typeof LIGHTHOUSE_CATEGORIES)[number];

/** The metrics the report prints, by audit id. */
const METRIC_AUDITS = {
  lcpMs: 'largest-contentful-paint',
  fcpMs: 'first-contentful-paint',
  tbtMs: 'total-blocking-time',
  // Not in the score: when the page can answer a tap (its code loaded and run), what a page's code loading sooner moves.
  ttiMs: 'interactive',
} as const;
type Metric = keyof typeof METRIC_AUDITS;

/** The parts of a Lighthouse result read here (lighthouse's `Result` has them all). */
export interface LighthouseResultLike {
  runWarnings: string[];
  audits: Record<
    string,
    {
      id: string;
      title: string;
      score: number | null;
      scoreDisplayMode: string;
      numericValue?: number;
      displayValue?: string;
      errorMessage?: string;
      /** An accessibility audit's failing elements are its details' items' nodes. */
      details?: unknown;
    }
  >;
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] } | undefined>;
}

/** An audit that did not pass: score below 1, or it failed to run. */
export interface FailingAudit {
  id: string;
  title: string;
  category: LighthouseCategory;
  /** Its weight in the category's score: 0 means it does not count toward the score. */
  weight: number;
  /** null when the audit could not run (its error is the displayValue). */
  score: number | null;
  displayValue: string;
}

/** One Lighthouse run of one page. */
export interface LighthouseFigures {
  /** 0-100, or null when Lighthouse could not score the category. */
  scores: Record<LighthouseCategory, number | null>;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  ttiMs: number;
  failing: FailingAudit[];
  warnings: string[];
}

/** How many failing elements an audit without a value of its own is shown by. */
const NODES_SHOWN = 3;

/** The elements an audit failed on (an accessibility audit has no value), with why, shortened. */
function failingNodes(audit: LighthouseResultLike['audits'][string]): string {
  const items = (audit.details as { items?: unknown } | undefined)?.items;
  const nodes = (Array.isArray(items) ? (items as { node?: { selector?: unknown; explanation?: unknown } }[]) : []).flatMap((item) =>
    typeof item.node?.selector === 'string' ? [{ selector: item.node.selector, explanation: String(item.node.explanation ?? '') }] : [],
  );
  const shown = nodes.slice(0, NODES_SHOWN).map((node) => {
    const why = node.explanation.split('\n').slice(1).join(' ').trim();
    return `${node.selector}${why ? ` (${why.slice(0, 140)})` : ''}`;
  });
  return [...shown, ...(nodes.length > NODES_SHOWN ? [`and ${nodes.length - NODES_SHOWN} more`] : [])].join('; ');
}

export function lighthouseFigures(result: LighthouseResultLike): LighthouseFigures {
  const metric = (name: Metric) => {
    const value = result.audits[METRIC_AUDITS[name]]?.numericValue;
    if (value === undefined) throw new Error(`Lighthouse gave no ${METRIC_AUDITS[name]}`);
    return value;
  };
  const scores = {} as Record<LighthouseCategory, number | null>;
  const failing: FailingAudit[] = [];
  for (const category of LIGHTHOUSE_CATEGORIES) {
    const found = result.categories[category];
    scores[category] = found?.score == null ? null : Math.round(found.score * 100);
    for (const ref of found?.auditRefs ?? []) {
      const audit = result.audits[ref.id];
      if (!audit) continue;
      const failed = audit.scoreDisplayMode === 'error' || (audit.score !== null && audit.score < 1);
      if (!failed) continue;
      failing.push({
        id: audit.id,
        title: audit.title,
        category,
        weight: ref.weight,
        score: audit.scoreDisplayMode === 'error' ? null : audit.score,
        displayValue: audit.scoreDisplayMode === 'error' ? `error: ${audit.errorMessage ?? 'unknown'}` : audit.displayValue || failingNodes(audit),
      });
    }
  }
  return { scores, lcpMs: metric('lcpMs'), fcpMs: metric('fcpMs'), tbtMs: metric('tbtMs'), ttiMs: metric('ttiMs'), failing, warnings: result.runWarnings };
}

/** An audit that failed in some of the rounds of one page. */
export interface FailingAuditSummary extends Omit<FailingAudit, 'score' | 'displayValue'> {
  /** In how many of the rounds it failed. */
  failedRuns: number;
  /** Its median score over the rounds where it failed (null: it could not run). */
  medianScore: number | null;
  /** What Lighthouse showed in each round where it failed, in the order of the rounds. */
  displayValues: string[];
}

export interface LighthouseSummary {
  runs: number;
  /** Median over the rounds that scored the category; null if none did. */
  scores: Record<LighthouseCategory, number | null>;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  ttiMs: number;
  /** Every audit that failed in at least one round, by category then weight (heaviest first). */
  failing: FailingAuditSummary[];
  /** Lighthouse's warnings, each once. */
  warnings: string[];
}

export function summarizeLighthouse(runs: readonly LighthouseFigures[]): LighthouseSummary {
  const scores = {} as Record<LighthouseCategory, number | null>;
  for (const category of LIGHTHOUSE_CATEGORIES) {
    const scored = runs.map((run) => run.scores[category]).filter((score): score is number => score !== null);
    scores[category] = scored.length ? median(scored) : null;
  }
  const failing = new Map<string, { audit: FailingAudit; scores: (number | null)[]; displayValues: string[] }>();
  for (const run of runs) {
    for (const audit of run.failing) {
      const key = `${audit.category}/${audit.id}`;
      const seen = failing.get(key) ?? { audit, scores: [], displayValues: [] };
      seen.scores.push(audit.score);
      seen.displayValues.push(audit.displayValue);
      failing.set(key, seen);
    }
  }
  const categoryOrder = (category: LighthouseCategory) => LIGHTHOUSE_CATEGORIES.indexOf(category);
  return {
    runs: runs.length,
    scores,
    lcpMs: median(runs.map((run) => run.lcpMs)),
    fcpMs: median(runs.map((run) => run.fcpMs)),
    tbtMs: median(runs.map((run) => run.tbtMs)),
    ttiMs: median(runs.map((run) => run.ttiMs)),
    failing: [...failing.values()]
      .map(({ audit: { score: _score, displayValue: _value, ...audit }, scores: failed, displayValues }) => {
        const numeric = failed.filter((score): score is number => score !== null);
        return { ...audit, failedRuns: failed.length, medianScore: numeric.length ? median(numeric) : null, displayValues };
      })
      .sort((a, b) => categoryOrder(a.category) - categoryOrder(b.category) || b.weight - a.weight || a.id.localeCompare(b.id)),
    warnings: [...new Set(runs.flatMap((run) => run.warnings))],
  };
}
