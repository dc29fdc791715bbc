/**
 * A chat platform's file servers, described once as data, and a shared file downloaded from them the
 * same way for every platform: through the bounded download, from the platform's own hosts only (and
 * the origin of its configured API URL: how tests and proxies serve files), with the platform's token
 * as a bearer header where its files need one — sent to those hosts alone, never along a redirect
 * away from them.
 */
import { platformHosts } from './allowed-hosts.ts';
import { boundedDownload } from './bounded-download.ts';

export interface FileServers {
  /** The platform as people call it (the download sentences' `from`). */
  from: string;
  /** Its own file hosts (see `isAllowedHost`). */
  hosts: readonly string[];
  /** Its configured API URL, when set. */
  apiUrl: string | undefined;
  /** The token its files need (unset: none is sent). */
  token?: string;
  /** Answers a token without the file permission with its sign-in page (see `htmlIsSignInPage`). */
  signInPage?: boolean;
}

/** A file as the platform lists it. */
export interface ServedFile {
  /** Its link (unset: the platform gave none). */
  url: string | undefined;
  name: string;
  /** The size the platform reports, checked before the download. */
  size?: number | undefined;
  /** The file is itself a web page: served as one, it is not a sign-in page. */
  isHtml?: boolean;
}

export function downloadFrom(servers: FileServers, file: ServedFile, maxBytes: number): Promise<Uint8Array> {
  return boundedDownload({
    url: file.url,
    ...(servers.token !== undefined ? { headers: { authorization: `Bearer ${servers.token}` } } : {}),
    allowedHosts: platformHosts(servers.hosts, servers.apiUrl),
    name: file.name,
    declaredSize: file.size,
    maxBytes,
    from: servers.from,
    htmlIsSignInPage: servers.signInPage === true && file.isHtml !== true,
  });
}
