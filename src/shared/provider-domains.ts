/** The provider's domain family and the check that a host belongs to it (a URL: provider-urls.ts). Pure. */

/** The provider's own domain family: a rendered post's links there stay in the window, and a referrer there hands on its query parameters. */
export const DEFAULT_PROVIDER_DOMAINS: readonly string[] = ['geekbang.org', 'geekbang.com', 'infoq.cn'];

/**
 * Whether `hostname` belongs to the provider's domain family: one of the domains itself or a
 * subdomain of one (`time.geekbang.org`), never a lookalike (`evilgeekbang.org`,
 * `geekbang.org.evil.com`). Case and a trailing dot are ignored.
 */
export function isProviderHost(hostname: string, domainFamily: readonly string[] = DEFAULT_PROVIDER_DOMAINS): boolean {
  const host = hostname.trim().toLowerCase().replace(/\.$/, '');
  if (!host) return false;
  return domainFamily.some((raw) => {
    const domain = raw.trim().toLowerCase().replace(/^\./, '').replace(/\.$/, '');
    return domain !== '' && (host === domain || host.endsWith(`.${domain}`));
  });
}
