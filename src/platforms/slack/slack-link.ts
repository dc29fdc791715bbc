/** Whether a link points at Slack itself (https, slack.com or a workspace under it): the only links a source gets. */
export function isSlackLink(link: string): boolean {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.port) return false;
  return url.hostname === 'slack.com' || url.hostname.endsWith('.slack.com');
}
