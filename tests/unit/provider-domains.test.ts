// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { isProviderHost } from '#shared/provider-domains.ts';
import { hostOf, isProviderUrl } from '#shared/provider-urls.ts';

describe('domain check', () => {
  it('accepts the provider domains and their subdomains', () => {
    expect(isProviderHost('geekbang.org')).toBe(true);
    expect(isProviderHost('time.geekbang.org')).toBe(true);
    expect(isProviderHost('a.b.geekbang.com')).toBe(true);
    expect(isProviderHost('www.infoq.cn')).toBe(true);
    expect(isProviderHost('TIME.GeekBang.org.')).toBe(true);
  });

  it('rejects lookalikes and other hosts', () => {
    expect(isProviderHost('evilgeekbang.org')).toBe(false);
    expect(isProviderHost('geekbang.org.evil.com')).toBe(false);
    expect(isProviderHost('geekbang.org-evil.com')).toBe(false);
    expect(isProviderHost('geekbang.net')).toBe(false);
    expect(isProviderHost('infoq.com')).toBe(false);
    expect(isProviderHost('')).toBe(false);
  });

  it('takes a custom domain family', () => {
    expect(isProviderHost('app.example.test', ['example.test'])).toBe(true);
    expect(isProviderHost('time.geekbang.org', ['example.test'])).toBe(false);
  });

  it('checks the host of a URL, not its path or credentials', () => {
    expect(hostOf('https://Time.Geekbang.org:443/x')).toBe('time.geekbang.org');
    expect(hostOf('not a url')).toBeNull();
    expect(isProviderUrl('https://time.geekbang.org/column/intro/1')).toBe(true);
    expect(isProviderUrl('https://evil.com/time.geekbang.org')).toBe(false);
    expect(isProviderUrl('https://geekbang.org@evil.com/')).toBe(false);
    expect(isProviderUrl('https://evil.com?u=https://geekbang.org')).toBe(false);
  });
});
