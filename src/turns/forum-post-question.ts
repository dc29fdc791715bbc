/**
 * A new forum post is asked as one question: its title, its tags, then its first message (left out
 * when it only repeats the title), so the answer sees what the poster filed it under.
 */

/** Tags named at most (a forum allows 5 per post; the question stays short). */
const maxTags = 5;

export function forumPostQuestion(post: {
  title: string;
  tags: readonly string[];
  firstMessage: string;
}): string {
  const title = post.title.trim();
  const tags = post.tags.slice(0, maxTags);
  const parts = [
    title,
    tags.length > 0 ? `Tags: ${tags.join(', ')}` : '',
    post.firstMessage === title ? '' : post.firstMessage,
  ];
  return parts.filter((part) => part !== '').join('\n');
}
