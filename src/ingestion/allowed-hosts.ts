/**
 * Where a chat platform's file may be downloaded from: the allow-list that keeps the platform's
 * token on its own hosts, checked for the link and again for every redirect. An entry is a host name
 * (`files.example.com`: that host), a suffix (`.example.com`: any host under it), both over https on its
 * default port only, or a whole origin (`http://127.0.0.1:3000`: a configured API URL, how tests and
 * proxies serve files).
 */
export function isAllowedHost(url: URL, allowedHosts: readonly string[]): boolean {
  const host = url.hostname.toLowerCase();
  return allowedHosts.some((entry) => {
    if (entry.includes('://')) return url.origin === new URL(entry).origin;
    if (url.protocol !== 'https:' || url.port !== '') return false;
    return entry.startsWith('.') ? host.endsWith(entry) : host === entry;
  });
}

/** A platform's own hosts, and the origin of its configured API URL where one is set (tests, proxies). */
export function platformHosts(hosts: readonly string[], apiUrl: string | undefined): readonly string[] {
  return apiUrl ? [...hosts, apiUrl] : hosts;
}
