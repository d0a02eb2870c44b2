/**
 * Watching a page that shows hostile content: a flag any payload would set, dialogs, CSP
 * violations, javascript: links, a restyled page; and API calls as a user logged in by cookie.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { api } from '../../../src/shared/api.ts';
import { TICKET_COOKIE } from '../../../src/shared/endpoints.ts';
import type { Envelope } from '../../../src/shared/envelope.ts';
import { callApi, type RunningApp } from './app.ts';
import { codeFromLog } from './session.ts';

/** What the page saw; installed before any of the app's scripts run. */
export function watchPage(page: Page) {
  return page.addInitScript(() => {
    const w = window as unknown as { __pwned: boolean; __violations: unknown[] };
    w.__pwned = false;
    w.__violations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      w.__violations.push({
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        sample: event.sample,
        source: `${event.sourceFile}:${event.lineNumber}`,
      });
    });
    const pwned = () => {
      w.__pwned = true;
    };
    window.alert = pwned;
    window.confirm = () => (pwned(), false);
    window.prompt = () => (pwned(), null);
  });
}

export interface PageReport {
  pwned: unknown;
  violations: unknown[];
  javascriptLinks: number;
  bodyBackground: string;
  rootShown: boolean;
}

export async function report(page: Page, scope = '.rich-text *'): Promise<PageReport> {
  // Every element of rendered content gets the events an inline handler would listen for.
  await page.evaluate((scope) => {
    for (const element of document.querySelectorAll(scope)) {
      for (const type of ['mouseover', 'mouseenter', 'focus', 'animationstart', 'load', 'error']) {
        element.dispatchEvent(new Event(type, { bubbles: false }));
      }
    }
  }, scope);
  // What a handler set off for later has had the page's next frames to run in.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  return page.evaluate(() => {
    const w = window as unknown as { __pwned: unknown; __violations: unknown[] };
    return {
      pwned: w.__pwned,
      violations: w.__violations,
      javascriptLinks: [...document.querySelectorAll('[href], [src], [action], [formaction]')].filter((element) =>
        ['href', 'src', 'action', 'formaction', 'xlink:href'].some((name) => /^\s*(?:javascript|data:text)/i.test(element.getAttribute(name) ?? '')),
      ).length,
      bodyBackground: getComputedStyle(document.body).backgroundColor,
      rootShown: getComputedStyle(document.getElementById('root')!).display !== 'none',
    };
  });
}

export function expectUntouched(seen: PageReport, where: string) {
  expect(seen.pwned, where).toBe(false);
  expect(seen.violations, where).toEqual([]);
  expect(seen.javascriptLinks, where).toBe(0);
  expect(seen.bodyBackground, where).not.toBe('rgb(1, 2, 3)');
  expect(seen.rootShown, where).toBe(true);
}

export async function logInByApi(app: RunningApp, phone: string): Promise<string> {
  const offset = app.logs().length;
  await callApi(app, api.loginCode, { cellphone: phone });
  const code = await codeFromLog(app, phone, offset);
  const response = await fetch(`${app.url}${api.login.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ cellphone: phone, code, device_kind: 'pc' }),
  });
  const envelope = (await response.json()) as Envelope<unknown>;
  expect(envelope.code).toBe(0);
  const cookie = response.headers
    .getSetCookie()
    .map((header) => header.split(';')[0]!)
    .find((pair) => pair.startsWith(`${TICKET_COOKIE}=`));
  if (!cookie) throw new Error('login set no ticket cookie');
  return cookie;
}

export async function callAs<T>(app: RunningApp, cookie: string, path: string, input: unknown): Promise<T> {
  const response = await fetch(`${app.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify(input),
  });
  const envelope = (await response.json()) as Envelope<T>;
  if (envelope.code !== 0) throw new Error(`${path} answered ${JSON.stringify(envelope)}`);
  return envelope.data;
}
