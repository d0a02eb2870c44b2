/**
 * Query parameters that travel with every navigation: names starting with gk_ or utm_, or
 * containing "code". They are also taken from a referrer on the provider's domain when the app
 * opens.
 */
import { isProviderHost } from '#shared/provider-domains.ts';

export function isCarriedParam(name: string): boolean {
  return name.startsWith('gk_') || name.startsWith('utm_') || name.includes('code');
}

export function pickCarriedParams(search: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(search)) {
    if (isCarriedParam(key) && value !== undefined && value !== null && value !== '') picked[key] = value;
  }
  return picked;
}

/**
 * A TanStack Router search middleware for the root route: the carried parameters of the
 * current location are added to the next one unless the navigation sets them itself.
 */
export function carryParamsMiddleware({
  search,
  next,
}: {
  search: Record<string, unknown>;
  next: (search: Record<string, unknown>) => Record<string, unknown>;
}): Record<string, unknown> {
  const result = next(search);
  return { ...pickCarriedParams(search), ...result };
}

/** The carried parameters of a referrer URL on the provider's domain family (else none). */
export function carriedParamsFromReferrer(referrer: string): Record<string, string> {
  if (!referrer) return {};
  let url: URL;
  try {
    url = new URL(referrer);
  } catch {
    return {};
  }
  if (!/^https?:$/.test(url.protocol) || !isProviderHost(url.hostname)) return {};
  const picked: Record<string, string> = {};
  for (const [key, value] of url.searchParams) {
    if (isCarriedParam(key) && value) picked[key] = value;
  }
  return picked;
}

/**
 * The address to start on: `href` plus the referrer's carried parameters it lacks.
 * Returns null when nothing needs adding.
 */
export function withReferrerParams(href: string, referrer: string): string | null {
  const fromReferrer = carriedParamsFromReferrer(referrer);
  const url = new URL(href);
  let changed = false;
  for (const [key, value] of Object.entries(fromReferrer)) {
    if (!url.searchParams.has(key)) {
      url.searchParams.set(key, value);
      changed = true;
    }
  }
  return changed ? `${url.pathname}${url.search}${url.hash}` : null;
}

/** Before the router starts: adopt the referrer's carried parameters into the address bar. */
export function adoptReferrerParams(): void {
  if (typeof window === 'undefined') return;
  const next = withReferrerParams(window.location.href, document.referrer);
  if (next) window.history.replaceState(window.history.state, '', next);
}
